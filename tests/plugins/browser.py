"""Debian's Chromium through Playwright, as a plugin (``tests/conftest.py``'s ``pytest_plugins``):
the ``browser_page`` fixture (headless, Czech locale, a Content-Security-Policy watch) and
:func:`log_in` through the login form; screenshots go to :data:`SCREENSHOTS`."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest
from django.db import connections

from tests.conftest import ROOT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = ROOT / "screenshots"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@pytest.fixture
def browser_page(monkeypatch):
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; a test's ORM calls stay synchronous
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed (bin/setup installs it as root: apt-get install chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="cs-CZ", accept_downloads=True)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.on("console", lambda msg: print("CONSOLE", msg.type, msg.text))
        page.on("pageerror", lambda exc: print("PAGEERROR", exc))
        page.on("response", lambda r: r.status >= 400 and print("HTTP", r.status, r.url))
        # the Content-Security-Policy allows no inline script or style: Chromium reports what it blocked
        blocked = []
        page.on("console", lambda msg: "Content Security Policy" in msg.text and blocked.append(msg.text))
        yield page
        context.close()
        browser.close()
        # Playwright's sync API runs its event loop in a greenlet of this thread, and Django keeps
        # connections per context: the test's own connection is closed here, in that context, or
        # it outlives the session and the test database cannot be dropped
        connections.close_all()
        assert blocked == [], "the Content-Security-Policy blocked part of a page"


def log_in(page, live_server, username: str, password: str | None = None) -> None:
    """Log ``username`` in through the login form (the demo password unless ``password``) and
    wait for the contract list."""
    from accounts.management.commands.demo import DEMO_PASSWORD

    page.goto(f"{live_server.url}/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password or DEMO_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/a/\d+/contracts/$"))


def wait_for_js(page, expression: str, timeout: float = 60.0) -> None:
    """Wait until the JavaScript ``expression`` is truthy in ``page``, polled from here every
    50 ms; ``AssertionError`` after ``timeout`` seconds.

    Playwright's ``page.wait_for_function`` re-evaluates a string in the page with ``eval``,
    which the product's Content-Security-Policy (``script-src 'self'``) forbids: it fails
    whenever the condition is not already true at the first try. ``page.evaluate`` goes through
    the DevTools protocol, which the policy does not govern."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout:.0f} s: {expression}")
        time.sleep(0.05)
