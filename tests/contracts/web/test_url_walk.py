"""Issue 30: every route, every kind of bad id, both methods, both doors: a client gets 400 or
404 with a sentence, never 500 and never exception text."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from accounts.models import Role
from accounts.services import api_token_create
from contracts.models import Contract
from tests.conftest import ROOT
from tests.plugins.tenants import logged_in
from tests.plugins.tokens import make_token

pytestmark = pytest.mark.django_db

#: What a hostile client puts where the route expects an id or a token.
BAD = ["9" * 30, "999999999999999999", "2147483648", "-1", "0", "1e9", "abc", "x" * 300, "%00"]
HUGE = 10**30
BODY = {
    "id": HUGE,
    "proposal": HUGE,
    "decisions": [{"proposal": HUGE, "decision": "accept"}],
    "boxes": [[HUGE, 1, 1, 2, 2], [1, HUGE, -HUGE, 1e308, 2]],
    "page": HUGE,
    "category": HUGE,
    "votes": HUGE,
    "role": "admin",
    "member": HUGE,
    "ids": [HUGE, "x"],
    "batch": "not-a-uuid",
    "decision": "accept",
}
MALFORMED = ["{", "[1, 2]", "null", '{"decisions": "all", "boxes": {"a": 1}}']
FORM = {k: str(v) if not isinstance(v, list) else json.dumps(v) for k, v in BODY.items()}
#: Python's own words in an answer: exception text handed to the client.
PYTHON = re.compile(
    r"Traceback|Exception|invalid literal|object has no attribute|badly formed|Expecting value|NoneType"
)
_PARAM = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")


def _routes(patterns=None, prefix="") -> list[str]:
    """Every route of the project as a string with its ``<converter:name>`` parameters."""
    out = []
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        route = str(entry.pattern)
        if isinstance(entry, URLResolver):
            out += _routes(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern) and not route.startswith("^"):  # regexes: the API's catch-all
            out.append(prefix + route)
    return out


def _urls(route: str, valid: dict[str, str]) -> set[str]:
    """``route`` with every parameter valid (``valid``: real ids by name, "1" otherwise), and
    with each parameter in turn replaced by every bad value, the others valid."""
    names = [m.group("name") for m in _PARAM.finditer(route)]
    urls = {"/" + _PARAM.sub(lambda m: valid.get(m.group("name"), "1"), route)}
    for bad in names:
        for value in BAD:
            url = _PARAM.sub(
                lambda m, bad=bad, value=value: value if m.group("name") == bad else valid.get(m.group("name"), "1"),
                route,
            )
            urls.add("/" + url)
    return urls


WALK = "test_no_route_answers_500_to_a_bad_id_or_body"


def test_no_route_answers_500_to_a_bad_id_or_body(processed, agency, admin_user, settings):
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    settings.REDACTOR_API_RATE = "1000000/minute"
    cache.clear()
    web = logged_in(admin_user)
    web.raise_request_exception = False
    routes = _routes()
    assert len(routes) > 60  # every door is walked
    failures = []
    walked = 0
    valid = {"agency_id": str(agency.pk), "contract_id": str(processed.pk), "page": "1"}
    statuses: dict[int, int] = {}
    for route in routes:
        # a route may log out (accounts/logout/) or revoke a token (api-tokens/1/revoke/)
        web = logged_in(admin_user)
        web.raise_request_exception = False
        token = make_token(agency, Role.ADMIN, created_by=admin_user)[1]
        api = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Bearer {token}")
        for url in sorted(_urls(route, valid)):
            client = api if url.startswith("/api/") else web
            answers = [
                client.get(url),
                client.post(url, json.dumps(BODY), content_type="application/json"),
                client.post(url, FORM),
                *(client.post(url, raw, content_type="application/json") for raw in MALFORMED),
            ]
            walked += 1
            for response in answers:
                statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
                body = "" if response.streaming else response.content[:2000].decode("utf-8", "replace")
                if response.status_code >= 500 or PYTHON.search(body):
                    failures.append(f"{response.request['REQUEST_METHOD']} {url}: {response.status_code}")
    assert walked > 300
    # the walk reached the views, not only the login page: real pages answered, bad ids got 404
    assert statuses.get(200, 0) > 100 and statuses.get(404, 0) > 1000, statuses
    assert failures == []


@pytest.mark.skipif(os.environ.get("TEST_DATABASE_URL", "").startswith("sqlite"), reason="this is that run")
def test_the_walk_holds_on_the_quick_starts_sqlite_too(tmp_path):
    """SQLite raises OverflowError for a number over 2**63 where PostgreSQL answers nothing: the
    quick start's database gets the same walk, in a run of its own."""
    env = {**os.environ, "TEST_DATABASE_URL": f"sqlite:///{tmp_path / 'walk.sqlite3'}"}
    run = subprocess.run(
        # -n0: one test in this process, on the Redis database of the worker that waits for it
        [sys.executable, "-m", "pytest", "-q", "-n0", "-p", "no:cacheprovider", f"{__file__}::{WALK}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:]
    assert "1 passed" in run.stdout


def test_every_route_of_an_agency_is_closed_to_another_agencys_admin(processed, agency, admin_user, outsider):
    """Tenant isolation over every route with an agency or a contract id, whichever test covers
    it otherwise: the admin of another agency (the strongest role, in the wrong tenant) gets
    403 or 404 for agency A's pages, files and API resources, by GET and by POST, and A's
    contract is unchanged. Objects inside the agency (a webhook, a rule, a member, a token) are
    addressed by the ids A's own objects have."""
    own_token = make_token(agency, Role.ADMIN, created_by=admin_user)[0]
    valid = {
        "agency_id": str(agency.pk),
        "contract_id": str(processed.pk),
        "member_id": str(admin_user.pk),
        "token_id": str(own_token.pk),
        "page": "1",
    }
    web = logged_in(outsider)
    web.raise_request_exception = False
    token = api_token_create(agency=outsider.memberships.get().agency, name="B", role=Role.ADMIN, created_by=outsider)
    api = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Bearer {token[1]}")
    before = Contract.objects.filter(pk=processed.pk).values().get()
    opened = []
    checked = 0
    for route in _routes():
        names = {m.group("name") for m in _PARAM.finditer(route)}
        if not names & {"agency_id", "contract_id"}:
            continue
        url = "/" + _PARAM.sub(lambda m: valid.get(m.group("name"), "1"), route)
        client = api if url.startswith("/api/") else web
        for response in (client.get(url), client.post(url, json.dumps(BODY), content_type="application/json")):
            checked += 1
            if response.status_code not in (403, 404, 405):
                opened.append(f"{response.request['REQUEST_METHOD']} {url}: {response.status_code}")
    assert checked > 100
    assert opened == []
    assert Contract.objects.filter(pk=processed.pk).values().get() == before
    assert own_token.__class__.objects.get(pk=own_token.pk).revoked_at is None
