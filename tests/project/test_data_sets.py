"""The engine on the shared data: the development set's score and the real contracts."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from django.core.management import call_command

from tests.conftest import SCORER


def _score(gold_dir, out_dir) -> tuple[dict[str, str], str]:
    """The shared scorer's summary values (``leak_rate``, ``missing`` …) and its whole output."""
    run = subprocess.run(
        [sys.executable, str(SCORER), str(gold_dir), str(out_dir)], capture_output=True, text=True, check=True
    )
    summary = run.stdout.strip().splitlines()[-1]
    return dict(re.findall(r"(\w+)=([\d.]+)", summary)), run.stdout


def _redact(*args: str) -> int:
    """``manage.py redact``'s exit status: 0 when every file can be published as written, 3 when
    some still show personal data nobody decided (review items in their reports), 1 on an error."""
    try:
        call_command("redact", *args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


@pytest.mark.slow
def test_dev_set_meets_the_registry_targets(tmp_path, shared_data):
    """manage.py redact on ../shared/data/dev, scored by the independent shared scorer; the
    reader's check of the published pages finds nothing undecided."""
    sources = sorted((shared_data / "dev").glob("*.pdf"))
    assert _redact(*map(str, sources), "--out-dir", str(tmp_path)) == 0
    values, out = _score(shared_data / "dev", tmp_path)
    assert values["missing"] == "0", out
    assert float(values["leak_rate"]) == 0.0, out
    assert float(values["over_redaction"]) == 0.0, out
    assert values["hidden_leaks"] == values["raw_leaks"] == values["unsafe_saves"] == "0", out


@pytest.mark.slow
def test_scanned_dev_set_meets_the_scan_targets(tmp_path, shared_data):
    """The dev set as image-only scans: OCR, pixel redaction, an invisible text layer."""
    sources = sorted((shared_data / "dev" / "scanned").glob("*.pdf"))
    assert _redact(*map(str, sources), "--out-dir", str(tmp_path)) == 0
    values, out = _score(shared_data / "dev" / "scanned", tmp_path)
    assert values["missing"] == "0", out
    assert float(values["leak_rate"]) <= 1.0, out
    # over-redaction counts kept strings that cannot be found in the output's text: the OCR layer
    assert float(values["over_redaction"]) <= 2.0, out
    assert values["hidden_leaks"] == values["raw_leaks"] == values["unsafe_saves"] == "0", out


@pytest.mark.slow
def test_every_real_contract_is_processed(tmp_path, shared_data, capsys):
    # every real PDF, the ones without gold files (real/more: a 73-page scanned inventory, a scan
    # stored with /Rotate 270) included, is published and verified
    sources = sorted((shared_data / "real").glob("*.pdf"))
    more = sorted((shared_data / "real" / "more").glob("*.pdf"))
    # every file is written; some need review first (3): the reader's check still reads values
    # nobody decided, listed as review items
    # with the tagged text export of each, from the same decisions
    assert _redact(*map(str, sources), "--out-dir", str(tmp_path), "--text-export", "tagged") in (0, 3)
    assert _redact(*map(str, more), "--out-dir", str(tmp_path / "more"), "--text-export", "tagged") in (0, 3)
    out = capsys.readouterr().out
    assert out.count(": ok, ") == len(sources) + len(more), out
    for source in sources:
        exported = (tmp_path / f"{source.stem}.tagged.txt").read_text(encoding="utf-8")
        report = json.loads((tmp_path / f"{source.stem}.json").read_text(encoding="utf-8"))
        redacted = [p["text"] for p in report["proposals"] if p["action"] == "redact" and p["category"] == 12]
        assert not [value for value in redacted if value in exported], source.name  # birth numbers
        assert exported.strip() or not report["proposals"], source.name
    assert len(list((tmp_path / "more").glob("*.tagged.txt"))) == len(more)
    # the published text layers keep the words: the shared gold-free comparison (input layer
    # against output layer, by page kind) within its limits (born-digital pages 0.05 %, pages with
    # another tool's kept layer 0.5 %) and no glued word on either
    fidelity = shared_data.parent / "tools" / "fidelity_pages.py"
    if fidelity.is_file():
        run = subprocess.run(
            [sys.executable, str(fidelity), str(shared_data / "real"), str(tmp_path)], capture_output=True, text=True
        )
        assert run.returncode == 0, run.stdout + run.stderr
        for line in run.stdout.splitlines():
            if line.startswith(("born-digital", "foreign-layer")):
                assert line.split()[-1] == "0", line  # merged words
    reports = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in tmp_path.glob("*.json")}
    # an image-only scan (turned sideways) is read by OCR; its pages are flagged for a check by eye
    pages_668 = reports["TestData_668"]["pages"]
    assert [p["ocr"] for p in pages_668] == [True, True] and reports["TestData_668"]["pages_needing_ocr"] == []
    assert all(p["needs_check"] for p in pages_668)  # mean word confidence about 62 of 100
    # a partial text layer: the pages without one are read by OCR; the others' OCR layer agrees
    # with Tesseract's reading (same words at the same places), so it is kept as it is
    pages_622 = {p["number"]: p for p in reports["TestData_622"]["pages"]}
    assert pages_622[2]["ocr"] and not pages_622[2]["ocr_replaced"]
    assert pages_622[1]["scan_layer"] and not pages_622[1]["ocr"]
    assert any(p["text"] for p in reports["TestData_668"]["proposals"])
    # the registry's targets on real contracts (issue 13), by the independent shared scorer
    values, out = _score(shared_data / "real", tmp_path)
    assert values["missing"] == "0", out
    assert float(values["leak_rate"]) <= 2.0, out
    assert float(values["over_redaction"]) <= 2.0, out
    assert values["hidden_leaks"] == values["raw_leaks"] == values["unsafe_saves"] == "0", out
    # reviewers see only real doubts: at most three review items per contract on average
    scored = [reports[p.stem] for p in sorted((shared_data / "real").glob("*.json")) if p.stem in reports]
    review = sum(1 for r in scored for p in r["proposals"] if p["action"] == "review")
    assert review / len(scored) <= 3.0, review
    # of which the reader's check of the published pages asks at most one per contract
    checked = [p["text"] for r in scored for p in r["proposals"] if p["recognizer"] == "reader_check"]
    assert len(checked) <= len(scored), checked
    # the address in a table row belongs to a company owner named only in the page image: no
    # person or organisation is linked to it in the text, and the contract names no private person
    obranska = [p for p in reports["TestData_1306"]["proposals"] if p["text"] == "Obřanská 101a"]
    assert obranska and obranska[0]["action"] == "keep" and obranska[0]["reason"]["code"] == "address_place"
    # scans stored with /Rotate 270 are published like any other (every file above is "ok")
    assert {"TestData_581", "pdfs_577"} <= set(reports)
    assert all(p["ocr"] for p in reports["pdfs_577"]["pages"])


def test_a_third_of_the_synthetic_people_have_a_surname_in_no_gazetteer():
    """The synthetic set must not draw only the names the product's gazetteer loads: real people's
    surnames are often common words, rare or foreign, and their given names old or foreign."""
    from redactor.czech import NameGazetteer
    from tests.synthetic.generator import UNLISTED_GIVEN, UNLISTED_SURNAMES, Generator

    gazetteer = NameGazetteer.default()
    listed = [n for names in UNLISTED_SURNAMES.values() for n in names if gazetteer.surname_of(n)]
    listed += [n for names in UNLISTED_GIVEN.values() for n in names if gazetteer.given_name_of(n)]
    assert listed == []
    people = [gen.person() for gen in map(Generator, range(3)) for _ in range(300)]
    unknown = sum(1 for p in people if not gazetteer.surname_of(p.surname)) / len(people)
    unknown_given = sum(1 for p in people if not gazetteer.given_name_of(p.given)) / len(people)
    assert 0.28 <= unknown <= 0.40 and 0.10 <= unknown_given <= 0.20, (unknown, unknown_given)


@pytest.mark.slow
def test_synthetic_contracts_of_nine_kinds_in_six_layouts_meet_the_targets(tmp_path, capsys):
    """Random people and identifiers in nine contract kinds (three never seen in development),
    each field in the phrasings real contracts use, set in six layouts so that fields land at
    line ends: the engine is not tuned to the 18 development documents."""
    from tests.synthetic.generator import Generator, write_set

    gold = tmp_path / "gold"
    write_set(gold, seed=20261121, count=2 * len(Generator.KINDS))
    call_command("evaluate", str(gold), "--out-dir", str(tmp_path / "out"))
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    values = dict(re.findall(r"(\w+)=([\d.]+)%", summary))
    assert float(values["leak_rate"]) <= 0.5, summary
    assert float(values["over_redaction"]) <= 2.0, summary
