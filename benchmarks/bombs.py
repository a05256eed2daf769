#!/usr/bin/env python
"""Hostile uploads against a running service: bombs and a burst of parallel uploads from one agency
while another agency uploads ordinary contracts.

usage: .venv/bin/python benchmarks/bombs.py URL [--setup] [--attacker-token T --victim-token T] [--no-docs]
           [--during-audit]
       .venv/bin/python benchmarks/bombs.py http://127.0.0.1:8000/ --setup
       .venv/bin/python benchmarks/bombs.py --measure PDF_OR_DIR…   (what the limits are taken from)

``--setup`` creates, in the checkout's database (the quick start's SQLite unless DATABASE_URL says
otherwise), an attacking and a victim agency with a clerk token each, through ``manage.py shell``.
Then, through the REST API:

1. the victim uploads ordinary one-page contracts alone (the baseline);
2. the attacker sends, in parallel: a 300 KB PDF whose one content stream inflates to 1 GiB, a PDF
   of 200 pages sharing one 5 MiB content stream, a PDF with an attachment inflating to 3 GiB,
   forms painting forms 40 times five levels deep (10⁸ strokes from 2 KB), 240 MB of "q Q" drawn
   by two pages, 3 million objects in object streams, an inline image of 400 M pixels, eight
   images each just under the per-image limit on one page, an attached PDF without its header
   carrying an open-action script, a predictor row of 2³¹ columns, an outline 60,000 levels deep,
   2 million objects in an object stream behind a broken cross-reference table, form fan-outs
   reachable only through a tiling pattern's cell, a soft mask's group or Type 3 glyphs, a mesh
   shading painted 20,000 times, a pattern of 0.05-pt cells (tests/bombs.py builds them),
   eight ordinary uploads at once and three valid 12-page scans (slow to read by OCR, not
   hostile); meanwhile the victim uploads contracts again.

Prints: the victim's upload latency (median, p95) and processing delay (upload to "processed",
median, p95) alone and during the attack; the attacker's answers per class (status codes and the
slowest answer in seconds, how many contracts the bombs left stored: must be 0); every 500; and
the peak memory (RSS) of the web workers (gunicorn) and of the job processes (RQ's workers and
their work horses) on this machine during the run. Timing lives here, never in a test.
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

import pikepdf
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import write_row  # noqa: E402
from tests import bombs as built  # noqa: E402
from tests.pdfs import pdf_from_paragraphs  # noqa: E402

_AUDIT = " while a third agency's audit of its published records runs (`benchmarks/registry_audit.py`)"

SETUP = """
from accounts.models import Agency, Role
from accounts.services import agency_create, api_token_create
for name, ico in (("Obec Útočná (benchmark)", "00000019"), ("Obec Obětní (benchmark)", "00000027")):
    agency = Agency.objects.filter(ico=ico).first() or agency_create(name=name, ico=ico)
    print(api_token_create(agency=agency, name="benchmark", role=Role.CLERK, created_by=None)[1])
"""


def _zeros(size: int) -> bytes:
    packer = zlib.compressobj(9)
    piece = bytes(1 << 20)
    return b"".join(packer.compress(piece) for _ in range(size >> 20)) + packer.flush()


def _save(pdf: pikepdf.Pdf) -> bytes:
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def stream_bomb() -> bytes:
    """One content stream inflating to 1 GiB."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    content = pikepdf.Stream(pdf, _zeros(1 << 30))
    content.Filter = pikepdf.Name.FlateDecode
    pdf.pages[0].Contents = pdf.make_indirect(content)
    return _save(pdf)


def shared_stream_bomb() -> bytes:
    """200 pages drawing one 5 MiB content stream of drawing operators."""
    pdf = pikepdf.new()
    ops = b"0 0 m 1 1 l S\n" * (5 * 1024 * 1024 // 14)
    content = pikepdf.Stream(pdf, zlib.compress(ops, 9))
    content.Filter = pikepdf.Name.FlateDecode
    shared = pdf.make_indirect(content)
    for _ in range(200):
        pdf.add_blank_page()
        pdf.pages[-1].Contents = shared
    return _save(pdf)


def attachment_bomb() -> bytes:
    """A contract with an attachment inflating to 3 GiB."""
    pdf = pikepdf.open(io.BytesIO(pdf_from_paragraphs(["Kupní smlouva", "Příloha: výkaz výměr"])))
    spec = pikepdf.AttachedFileSpec(pdf, b"x", filename="vykaz.txt")
    pdf.attachments["vykaz.txt"] = spec
    spec.get_file().obj.write(_zeros(3 << 30), filter=pikepdf.Name.FlateDecode)
    return _save(pdf)


def headerless_attachment() -> bytes:
    """A contract carrying a PDF whose ``%PDF-`` line is cut off and whose open action is JavaScript."""
    inner = pikepdf.open(io.BytesIO(pdf_from_paragraphs(["Příloha č. 1"])))
    inner.Root.OpenAction = inner.make_indirect(
        pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=pikepdf.String("app.alert(1)"))
    )
    headless = _save(inner).split(b"\n", 1)[1]
    pdf = pikepdf.open(io.BytesIO(pdf_from_paragraphs(["Kupní smlouva", "Příloha: smlouva"])))
    pdf.attachments["priloha.pdf"] = pikepdf.AttachedFileSpec(pdf, headless, filename="priloha.pdf")
    return _save(pdf)


def predictor_row() -> bytes:
    """A content stream whose PNG predictor declares a row of 2³¹ columns."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    content = pikepdf.Stream(pdf, zlib.compress(b"\x02" + b"0 0 m 10 10 l S\n" * 10))
    content.Filter = pikepdf.Name.FlateDecode
    content.DecodeParms = pikepdf.Dictionary(Predictor=12, Columns=2**31, Colors=1, BitsPerComponent=8)
    pdf.pages[0].Contents = pdf.make_indirect(content)
    return _save(pdf)


def every_bomb() -> dict[str, bytes]:
    """Each class of hostile upload, by what the benchmark prints for it."""
    return {
        "stream inflating to 1 GiB": stream_bomb(),
        "200 pages sharing 5 MiB": shared_stream_bomb(),
        "attachment inflating to 3 GiB": attachment_bomb(),
        "forms 40 x 5 levels deep": built.nested_forms(levels=5, fanout=40),
        "240 MB of q Q on two pages": built.save_restore_stream(size=240 << 20, pages=2),
        "3 million objects": built.many_objects(3_000_000),
        "inline image of 400 M pixels": built.inline_image(20_000, 20_000),
        "8 images just under the limit": built.many_images(count=8, width=7_900, height=8_000),
        "headerless PDF attachment with JavaScript": headerless_attachment(),
        "predictor row of 2^31 columns": predictor_row(),
        "outline 60,000 levels deep": built.deep_outline(60_000),
        "2 million objects behind a broken xref": built.packed_behind_broken_xref(2_000_000),
        "pattern cell painting forms 40 x 5": built.pattern_fan_out(),
        "soft mask group painting forms 40 x 5": built.soft_mask_fan_out(),
        "Type 3 glyphs painting forms": built.type3_fan_out(),
        "mesh of 100,000 triangles painted 20,000 times": built.mesh_shading(),
        "tiling pattern of 0.05 pt cells": built.tiny_pattern_step(),
    }


def long_scan(pages: int = 12) -> bytes:
    """A valid scanned contract of ``pages`` image-only pages (150 dpi): slow to read, not hostile."""
    import pymupdf

    text = pymupdf.open(
        stream=pdf_from_paragraphs(
            [f"Článek {n}. Zhotovitel provede dílo podle projektové dokumentace a výkazu výměr." for n in range(40)]
        ),
        filetype="pdf",
    )
    scan = pymupdf.open()
    for n in range(pages):
        source = text[n % len(text)]
        page = scan.new_page(width=source.rect.width, height=source.rect.height)
        page.insert_image(page.rect, pixmap=source.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY))
    return scan.tobytes(garbage=3, deflate=True)


def measure(paths: list[str]) -> None:
    """Print the largest loads (:func:`redactor.pdf.pdf_limits.drawing_load`) of the PDFs under
    ``paths``: what :class:`~redactor.pdf.pdf_limits.PdfLimits`' defaults are several times."""
    from redactor.pdf.pdf_limits import _packed_objects, drawing_load

    files = [f for p in map(Path, paths) for f in (sorted(p.rglob("*.pdf")) if p.is_dir() else [p])]
    rows = []
    for f in files:
        with pikepdf.open(f) as pdf:
            load = drawing_load(pdf)
        pages = load.pages or []
        rows.append(
            {
                "file": f.name,
                "objects": load.objects,
                "operators on a page": max((p.operators for p in pages), default=0),
                "operators in the document": load.operators,
                "pixels of one image": max((p.largest_image for p in pages), default=0),
                "pixels on a page": max((p.pixels for p in pages), default=0),
                "pixels in the document": load.pixels,
                "levels of its trees": load.depth,
                "objects in object streams": _packed_objects(f.read_bytes()),
            }
        )
    print(f"{len(rows)} PDFs")
    for key in rows[0] if rows else []:
        if key != "file":
            top = max(rows, key=lambda r: r[key])
            print(f"largest {key}: {top[key]:,} ({top['file']})")


def process_rss(word: str) -> int:
    """The largest resident size (bytes) now of a process on this machine whose command line holds ``word``."""
    largest = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            if word not in (status.parent / "cmdline").read_bytes().decode(errors="replace"):
                continue
            text = status.read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("VmRSS:"):
                largest = max(largest, int(line.split()[1]) * 1024)
    return largest


def upload(base: str, token: str, data: bytes, name: str) -> tuple[int, float, int | None]:
    """(status, seconds, contract id) of one API upload."""
    started = time.perf_counter()
    try:
        answer = requests.post(
            base + "api/v1/contracts/",
            headers={"Authorization": f"Bearer {token}"},
            files={"file": (name, data, "application/pdf")},
            timeout=600,
        )
    except requests.RequestException:
        return 0, time.perf_counter() - started, None
    seconds = time.perf_counter() - started
    contract = answer.json().get("id") if answer.status_code == 201 else None
    return answer.status_code, seconds, contract


def processed_after(base: str, token: str, contract: int, limit: float = 900) -> float | None:
    """Seconds until ``contract`` leaves the queue (processed, needs review or failed), or None."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        body = requests.get(
            f"{base}api/v1/contracts/{contract}/", headers={"Authorization": f"Bearer {token}"}, timeout=30
        ).json()
        if body.get("status") not in ("uploaded", "processing"):
            return time.perf_counter() - started
        time.sleep(0.25)
    return None


def contract_count(base: str, token: str) -> int:
    body = requests.get(base + "api/v1/contracts/", headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
    return int(body.get("count", len(body.get("results", []))))


def victim_round(base: str, token: str, count: int) -> tuple[list[float], list[float], list[int]]:
    """``count`` ordinary uploads one after another: upload seconds, processing delays, statuses."""
    latencies, delays, statuses = [], [], []
    contract = pdf_from_paragraphs(["Smlouva o dílo č. 7/2026", "Objednatel: Obec Obětní, IČO: 00000027"])
    for i in range(count):
        status, seconds, created = upload(base, token, contract, f"smlouva-{i}.pdf")
        statuses.append(status)
        latencies.append(seconds)
        if created is not None:
            delay = processed_after(base, token, created)
            if delay is not None:
                delays.append(seconds + delay)
    return latencies, delays, statuses


def _p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)] if values else float("nan")


def _line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: none"
    return f"{name}: median {statistics.median(values):.2f} s, p95 {_p95(values):.2f} s, max {max(values):.2f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", nargs="?")
    parser.add_argument("--measure", nargs="+", metavar="PDF_OR_DIR", help="print the largest loads and stop")
    parser.add_argument("--setup", action="store_true")
    parser.add_argument("--attacker-token")
    parser.add_argument("--victim-token")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-docs", action="store_true", help="do not write the figures into the docs")
    parser.add_argument(
        "--during-audit", action="store_true",
        help="an agency's registry audit runs meanwhile (benchmarks/registry_audit.py): figures in their own row",
    )  # fmt: skip
    args = parser.parse_args()
    if args.measure:
        measure(args.measure)
        return 0
    if not args.url:
        parser.error("give the service's URL")
    base = args.url.rstrip("/") + "/"
    if args.setup:
        out = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", SETUP], cwd=ROOT, capture_output=True, text=True, check=True
        )
        args.attacker_token, args.victim_token = out.stdout.split()[-2:]
    if not (args.attacker_token and args.victim_token):
        parser.error("give --setup or both tokens")
    alone = victim_round(base, args.victim_token, args.rounds)
    print(_line("victim upload alone", alone[0]))
    print(_line("victim processing alone", alone[1]))

    bombs = every_bomb()
    ordinary = pdf_from_paragraphs(["Kupní smlouva č. 1/2026", "Prodávající: Obec Útočná, IČO: 00000019"])
    scan = long_scan()
    stored_before = contract_count(base, args.attacker_token)
    answers: dict[str, list[int]] = {}
    slowest: dict[str, float] = {}
    peak = [process_rss("gunicorn"), process_rss("rqworker"), process_rss("multiprocessing.forkserver")]
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], process_rss("gunicorn"))
            peak[1] = max(peak[1], process_rss("rqworker"))
            peak[2] = max(peak[2], process_rss("multiprocessing.forkserver"))
            stop.wait(0.2)

    def send(kind: str, data: bytes) -> None:
        status, seconds, _created = upload(base, args.attacker_token, data, "bomba.pdf")
        answers.setdefault(kind, []).append(status)
        slowest[kind] = max(slowest.get(kind, 0.0), seconds)

    threads = [threading.Thread(target=watch)]
    threads += [threading.Thread(target=send, args=(kind, data)) for kind, data in bombs.items()]
    threads += [threading.Thread(target=send, args=("ordinary, 8 at once", ordinary)) for _ in range(8)]
    threads += [threading.Thread(target=send, args=("12-page scan, 3 at once", scan)) for _ in range(3)]
    for thread in threads:
        thread.start()
    during = victim_round(base, args.victim_token, args.rounds)
    for thread in threads[1:]:
        thread.join()
    stop.set()
    threads[0].join()
    stored = contract_count(base, args.attacker_token) - stored_before
    print(_line("victim upload during the attack", during[0]))
    print(_line("victim processing during the attack", during[1]))
    for kind, statuses in answers.items():
        print(f"attacker {kind}: {sorted(statuses)}, slowest answer {slowest[kind]:.2f} s")
    print(f"contracts stored for the attacker: {stored} (8 ordinary and 3 scans expected, 0 of the bombs)")
    fives = sum(s >= 500 for s in during[2]) + sum(s >= 500 for ss in answers.values() for s in ss)
    print(f"answers of 500 or more: {fives}")
    print(
        f"web workers' peak memory: {peak[0] / 2**20:.0f} MB; their upload checks' (fork server and children): "
        f"{peak[2] / 2**20:.0f} MB; job processes' peak: {peak[1] / 2**20:.0f} MB"
    )
    refused = all(s == 400 for kind in bombs for s in answers.get(kind, []))
    if not args.no_docs:
        write_row(
            "bombs_during_audit" if args.during_audit else "bombs",
            f"hostile uploads against the running quick start{_AUDIT if args.during_audit else ''}: "
            f"{len(bombs)} classes of bomb (inflation, shared "
            "streams, attachments, forms painting forms, millions of operators or objects, inline and many "
            "images, a headerless attached PDF with a script, a predictor of 2^31 columns, a 60,000-level outline, "
            "2 million objects behind a broken xref, form fan-outs through a pattern, a soft mask and Type 3 "
            "glyphs, a mesh painted 20,000 times, 0.05-pt pattern cells), eight ordinary "
            "uploads and three valid 12-page scans at once from one agency while another uploads one-page "
            "contracts",
            f"bombs {'**refused at the upload (400)**' if refused else '**not all refused**'}, the slowest "
            f"answer {max(slowest[k] for k in bombs if k in slowest):.1f} s, "
            f"{stored - 11 if stored >= 11 else 0} of them stored; **{fives} answers of 500 or more**; peak RSS: "
            f"web workers **{peak[0] / 2**20:.0f} MB**, their upload checks **{peak[2] / 2**20:.0f} MB**, job "
            f"processes **{peak[1] / 2**20:.0f} MB**; "
            f"the other agency's upload p95 {_p95(alone[0]):.2f} s alone → "
            f"**{_p95(during[0]):.2f} s** during the attack, its processing p95 {_p95(alone[1]):.2f} s → "
            f"**{_p95(during[1]):.2f} s**",
            "benchmarks/bombs.py URL --setup" + (" --during-audit" if args.during_audit else ""),
        )
    return 0 if fives == 0 and stored == 11 else 1


if __name__ == "__main__":
    sys.exit(main())
