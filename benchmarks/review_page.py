#!/usr/bin/env python
"""How long a long scan's review page takes to open, and what it waits for.

usage: .venv/bin/python benchmarks/review_page.py [PDF] [--busy N] [--repeat 3]
       (default: the 73-page scanned inventory ../shared/data/real/more/pdfs_997.pdf)

In a scratch database (the quick start's settings, SQLite in a temporary folder, nothing kept):
the PDF is uploaded to a scratch agency and processed as a worker would (the time it takes is
printed, not measured against anything), then the review page is asked for ``--repeat`` times as
its reviewer (Django's test client, in this process), and after it what the page's script asks for
next: the watchdog's fragment and the first page's picture. ``--busy N`` keeps N other processes
spinning meanwhile, as a machine whose workers are busy. Each request is timed (median of the
repeats), and the page's own request is profiled (pyinstrument): its main steps with their share.
Timing lives here, never in a test.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _spin(stop) -> None:
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "pdf", nargs="?", default=str(ROOT.parent / "shared" / "data" / "real" / "more" / "pdfs_997.pdf")
    )
    parser.add_argument("--busy", type=int, default=0, help="processes spinning meanwhile (a busy machine)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="review-page-")
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "VAR_DIR": scratch,
            "DATABASE_URL": f"sqlite:///{scratch}/db.sqlite3",
        }
    )
    os.environ.setdefault("SECRET_KEY", "review-page-benchmark")
    os.environ.setdefault("STATIC_ROOT", str(ROOT / "var" / "staticfiles"))  # collected by bin/setup
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse
    from pyinstrument import Profiler

    import contracts.queue
    from accounts.models import Role
    from accounts.services import agency_create, member_create
    from contracts.services import processing, runs, uploads

    contracts.queue.enqueue = lambda *a, **k: None  # the jobs run here, in this process
    call_command("migrate", verbosity=0)
    agency = agency_create(name="Obec Měřice (benchmark)", ico="00000019", data_box_id="")
    reviewer = member_create(agency=agency, username="kontrolor-bench", email="", role=Role.REVIEWER, by=None).user
    data = Path(args.pdf).read_bytes()
    began = time.perf_counter()
    contract = uploads.contract_upload(agency=agency, user=reviewer, data=data, filename=Path(args.pdf).name)
    run = runs.run_claim(contract.runs.get().pk)
    processing.contract_process(run=run)
    contract.refresh_from_db()
    print(f"{Path(args.pdf).name}: {len(contract.pages)} pages processed in {time.perf_counter() - began:.0f} s "
          f"({contract.status}, {contract.proposals.count()} proposals)")  # fmt: skip

    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=_spin, args=(stop,), daemon=True) for _ in range(args.busy)]
    for b in burners:
        b.start()
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(reviewer, backend="django.contrib.auth.backends.ModelBackend")
    kwargs = {"agency_id": agency.pk, "contract_id": contract.pk}
    urls = {
        "review page": reverse("contracts:review", kwargs=kwargs),
        "watchdog fragment": reverse("contracts:review_watchdog", kwargs=kwargs),
        "page 1 picture": reverse("contracts:page_image", kwargs={**kwargs, "page": 1}),
    }
    try:
        times: dict[str, list[float]] = {name: [] for name in urls}
        profile = Profiler(interval=0.002)
        for n in range(args.repeat):
            for name, url in urls.items():
                if n == 0 and name == "review page":
                    profile.start()
                t = time.perf_counter()
                answer = client.get(url, secure=True)
                times[name].append(time.perf_counter() - t)
                if n == 0 and name == "review page":
                    profile.stop()
                assert answer.status_code == 200, (name, answer.status_code, answer.get("Location"))
    finally:
        stop.set()
        for b in burners:
            b.join()
    busy = f", {args.busy} other processes spinning" if args.busy else ""
    for name, values in times.items():
        print(f"{name}: median {statistics.median(values):.2f} s of {len(values)} (first {values[0]:.2f} s){busy}")
    print("what the review page's first request waits for:")
    print(profile.output_text(unicode=True, color=False, show_all=False)[:6000])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
