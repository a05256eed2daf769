#!/usr/bin/env python
"""Hostile load: slow-body clients against a running service while a watcher polls it.

usage: .venv/bin/python benchmarks/hostile.py URL [--clients N ...] [--seconds S]
                                               [--username U --password P]
       .venv/bin/python benchmarks/hostile.py http://127.0.0.1:8000/ --clients 4 50 \\
           --username kontrolor --password demo-heslo-2026

Each of N clients opens a connection, sends the headers of a multipart login POST that declares
100 GB (``Content-Length: 100000000000``) and then trickles one byte of body per second, as the
probe of issue 30 did. Meanwhile ``/healthz`` and a page behind the login (the contract list of
the user's first agency, when a username is given; logged in before the attack) are polled
every 0.2 s for S seconds (10).
Prints, per N: the poll latencies (median, p95, max, seconds) and failures (errors or answers
other than 200; a poll slower than 5 s counts as a failure). Timing lives here, never in a test.
"""

from __future__ import annotations

import argparse
import re
import socket
import statistics
import threading
import time
from urllib.parse import urlsplit

import requests


def slow_client(host: str, port: int, stop: threading.Event, opened: list) -> None:
    """One client that declares a huge body and sends a byte a second until ``stop``."""
    try:
        sock = socket.create_connection((host, port), timeout=5)
    except OSError:
        opened.append(False)
        return
    opened.append(True)
    head = (
        "POST /accounts/login/ HTTP/1.1\r\n"
        f"Host: {host}:{port}\r\n"
        "Content-Type: multipart/form-data; boundary=x\r\n"
        "Content-Length: 100000000000\r\n\r\n--x\r\n"
    )
    try:
        sock.sendall(head.encode())
        while not stop.is_set():
            sock.sendall(b"a")
            stop.wait(1.0)
    except OSError:
        pass  # the service closed it: that is what it should do
    finally:
        sock.close()


def logged_in(base: str, username: str, password: str) -> tuple[requests.Session, str]:
    """A session logged in through the login form, and the URL of its first agency's contracts."""
    session = requests.Session()
    page = session.get(base + "accounts/login/", timeout=10)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    answer = session.post(
        base + "accounts/login/",
        {"username": username, "password": password, "csrfmiddlewaretoken": token},
        headers={"Referer": base + "accounts/login/"},
        timeout=10,
    )
    match = re.search(r'href="(/a/\d+/contracts/)"', answer.text) or re.search(r"(/a/\d+/contracts/)", answer.url)
    return session, base.rstrip("/") + (match.group(1) if match else "/")


def poll(session: requests.Session, url: str, stop: threading.Event, times: list, failures: list) -> None:
    """GET ``url`` every 0.2 s until ``stop``, recording seconds per answer and failures."""
    while not stop.is_set():
        start = time.perf_counter()
        try:
            answer = session.get(url, timeout=5, allow_redirects=False)
            if answer.status_code != 200:
                failures.append(answer.status_code)
        except requests.RequestException as exc:
            failures.append(type(exc).__name__)
        times.append(time.perf_counter() - start)
        stop.wait(0.2)


def run(base: str, clients: int, seconds: float, username: str | None, password: str | None) -> None:
    """One round: ``clients`` slow clients for ``seconds``, with the polls; prints its line."""
    parts = urlsplit(base)
    watched = {"healthz": (requests.Session(), base + "healthz")}
    if username:  # logged in before the attack starts
        watched["logged-in page"] = logged_in(base, username, password or "")
    stop = threading.Event()
    opened: list = []
    attackers = [
        threading.Thread(target=slow_client, args=(parts.hostname, parts.port or 80, stop, opened), daemon=True)
        for _ in range(clients)
    ]
    for thread in attackers:
        thread.start()
    time.sleep(1.0)  # the headers are in; the bodies trickle
    results = {name: ([], []) for name in watched}
    watchers = [
        threading.Thread(target=poll, args=(session, url, stop, *results[name]), daemon=True)
        for name, (session, url) in watched.items()
    ]
    for thread in watchers:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in watchers + attackers:
        thread.join(timeout=10)
    print(f"{clients} slow clients ({sum(opened)} connected), {seconds:.0f} s:")
    for name, (times, failures) in results.items():
        if not times:
            print(f"  {name}: no answer at all")
            continue
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        print(
            f"  {name}: {len(times)} polls, median {statistics.median(ordered):.3f} s, p95 {p95:.3f} s, "
            f"max {ordered[-1]:.3f} s, failures {len(failures)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url")
    parser.add_argument("--clients", type=int, nargs="+", default=[4, 50])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--username")
    parser.add_argument("--password")
    args = parser.parse_args()
    base = args.url if args.url.endswith("/") else args.url + "/"
    for clients in args.clients:
        run(base, clients, args.seconds, args.username, args.password)


if __name__ == "__main__":
    main()
