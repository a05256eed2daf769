"""The command-line interface: manage.py redact and manage.py evaluate."""

from __future__ import annotations

import json
import shutil

import pytest
from django.core.management import call_command

from tests.pdfs import pdf_from_paragraphs


def _run(capsys, *args):
    code = 0
    try:
        call_command(*args)
    except SystemExit as exc:
        code = exc.code
    return code, capsys.readouterr().out


def test_redact_writes_pdf_and_json_per_file_and_one_line_each(tmp_path, capsys, data_dir):
    sources = [data_dir / "dev" / "pacht_1.pdf", data_dir / "dev" / "kupni_auto_2.pdf"]
    code, out = _run(capsys, "redact", *map(str, sources), "--out-dir", str(tmp_path / "out"))
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) == 2 and all(": ok, " in line for line in lines)
    report = json.loads((tmp_path / "out" / "pacht_1.json").read_text(encoding="utf-8"))
    assert report["verification"]["ok"] is True
    assert {"page", "boxes", "text", "category", "category_name", "category_type", "action", "score", "reason"} <= set(
        report["proposals"][0]
    )
    assert (tmp_path / "out" / "kupni_auto_2.pdf").read_bytes().startswith(b"%PDF")
    # every reason is a code with parameters and a sentence in Czech and in English
    reason = next(p["reason"] for p in report["proposals"] if p["category"] == 17)
    assert reason["code"] == "linked_holder" and reason["params"]["who"]["code"] == "who_party_how"
    assert reason["text"]["en"].startswith("Redact: Bank account number – belongs to natural person party 1")
    assert reason["text"]["cs"].startswith("Znečitelnit: Číslo bankovního účtu – patří: smluvní strana 1")


def test_bad_files_get_one_line_each_and_do_not_stop_the_batch(tmp_path, capsys, data_dir):
    (tmp_path / "notes.pdf").write_text("this is not a PDF")
    (tmp_path / "empty.pdf").write_bytes(b"")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj garbage")
    good = data_dir / "dev" / "dotace_spolek_1.pdf"
    files = [tmp_path / "notes.pdf", tmp_path / "empty.pdf", tmp_path / "broken.pdf", good, tmp_path / "nope.pdf"]
    code, out = _run(capsys, "redact", *map(str, files), "--out-dir", str(tmp_path / "out"))
    assert code == 1
    lines = out.strip().splitlines()
    assert len(lines) == 5
    assert "notes.pdf: error: the file is not a PDF" in lines[0]
    assert "empty.pdf: error: the file is empty" in lines[1]
    assert "broken.pdf: error: the PDF is damaged" in lines[2]
    assert "dotace_spolek_1.pdf: ok" in lines[3]
    assert "nope.pdf: error: cannot read the file" in lines[4]
    out_dir = tmp_path / "out"
    names = ["dotace_spolek_1.json", "dotace_spolek_1.pdf", "dotace_spolek_1.txt"]
    assert sorted(p.name for p in out_dir.iterdir()) == names
    # the published text beside the PDF holds none of the redacted values
    report = json.loads((out_dir / "dotace_spolek_1.json").read_text(encoding="utf-8"))
    published = (out_dir / "dotace_spolek_1.txt").read_text(encoding="utf-8")
    redacted = [p["text"] for p in report["proposals"] if p["action"] == "redact"]
    assert redacted and "[…]" in published and not [t for t in redacted if t in published]


def test_encrypted_pdf_is_named_with_its_reason(tmp_path, capsys):
    import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Jan Novak")
    (tmp_path / "locked.pdf").write_bytes(
        doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")
    )
    code, out = _run(capsys, "redact", str(tmp_path / "locked.pdf"), "--out-dir", str(tmp_path / "out"))
    assert code == 1
    assert "locked.pdf: error: the PDF is password-protected" in out


def test_an_input_is_never_overwritten(tmp_path, capsys, data_dir):
    source = tmp_path / "pacht_1.pdf"
    shutil.copy(data_dir / "dev" / "pacht_1.pdf", source)
    before = source.read_bytes()
    code, out = _run(capsys, "redact", str(source), "--out-dir", str(tmp_path))
    assert code == 1
    assert "would overwrite the input" in out
    assert source.read_bytes() == before


def test_policy_file_changes_decisions(tmp_path, capsys):
    from redactor.decide.category_map import CategoryMap

    data = CategoryMap.default().to_dict()
    for exception in data["role_exceptions"]:
        exception["enabled"] = False  # this agency redacts its officials too
    policy = tmp_path / "map.json"
    policy.write_text(json.dumps(data), encoding="utf-8")
    source = tmp_path / "c.pdf"
    source.write_bytes(
        pdf_from_paragraphs(
            [
                "Kupující: Město Holešov, IČO 00287172, zastoupené Ing. Janem Dvořákem, starostou.",
                "Prodávající: Petr Svoboda, bytem Polní 5, 602 00 Brno.",
            ]
        )
    )
    _, out_default = _run(capsys, "redact", str(source), "--out-dir", str(tmp_path / "a"), "--report")
    _, out_policy = _run(
        capsys, "redact", str(source), "--out-dir", str(tmp_path / "b"), "--report", "--policy", str(policy)
    )
    assert "keep   p.1 [4 Given name and surname] 'Janem Dvořákem'" in out_default
    assert "redact p.1 [4 Given name and surname] 'Janem Dvořákem'" in out_policy


def test_malformed_policy_is_refused(tmp_path, capsys):
    policy = tmp_path / "map.json"
    policy.write_text('{"format": "redactor-category-map/1", "categories": [{"id": 1}]}', encoding="utf-8")
    with pytest.raises(Exception, match="malformed category map"):
        call_command("redact", "x.pdf", "--out-dir", str(tmp_path), "--policy", str(policy))


def test_evaluate_prints_rates_per_category(capsys, data_dir, tmp_path):
    gold = tmp_path / "gold"
    gold.mkdir()
    for name in ("pacht_2", "najem_nebytovy_1"):
        shutil.copy(data_dir / "dev" / f"{name}.pdf", gold)
        shutil.copy(data_dir / "dev" / f"{name}.json", gold)
    code, out = _run(capsys, "evaluate", str(gold))
    assert code == 0
    assert "IDENTIFIER / bank account number" in out
    assert out.strip().splitlines()[-1].startswith("documents=2 missing=0 leak_rate=0.00%")


@pytest.mark.django_db
def test_registry_xml_writes_a_package_per_contract_or_says_what_is_missing(tmp_path, capsys, data_dir):
    from registry import isrs

    sources = [data_dir / "dev" / "dilo_firma_1.pdf", data_dir / "dev" / "pacht_1.pdf"]
    code, out = _run(
        capsys, "registry_xml", *map(str, sources), "--out-dir", str(tmp_path),
        "--publisher-box", "abc2def", "--publisher-name", "Město Mnichovo Hradiště", "--unit", "odbor investic",
    )  # fmt: skip
    assert code == 1  # the lease gives no date of conclusion
    done, missing = out.strip().splitlines()
    assert ": ok, " in done and "datumUzavreni" in missing and "no zverejneni.xml" in missing
    package = tmp_path / "dilo_firma_1"
    xml = (package / "zverejneni.xml").read_bytes()
    assert isrs.validate(xml) == "zverejneni"
    assert sorted(p.name for p in package.iterdir()) == [
        "dilo_firma_1.pdf", "dilo_firma_1.txt", "metadata.json", "zverejneni.xml"]  # fmt: skip
    for name in ("dilo_firma_1.pdf", "dilo_firma_1.txt"):  # the files it names, exactly so named
        assert f"<nazevSouboru>{name}</nazevSouboru>".encode() in xml
    assert b"<utvar>odbor investic</utvar>" in xml and b"<ico>40039021</ico>" in xml
    assert (tmp_path / "dilo_firma_1.json").exists()  # the redaction report, outside the package
    gold = json.loads((data_dir / "dev" / "dilo_firma_1.json").read_text(encoding="utf-8"))
    for item in gold["items"]:
        if item["expected"] == "redact":
            assert item["text"].encode() not in xml
    assert json.loads((tmp_path / "pacht_1" / "metadata.json").read_text(encoding="utf-8"))["parties"]


def test_several_processes_give_the_same_lines_and_reports_in_the_same_order(tmp_path, capsys, data_dir):
    sources = [data_dir / "dev" / name for name in ("pacht_1.pdf", "kupni_auto_2.pdf", "dilo_firma_1.pdf")]
    outputs = {}
    for jobs in ("1", "3"):
        code, out = _run(capsys, "redact", *map(str, sources), "--out-dir", str(tmp_path / jobs), "--jobs", jobs)
        assert code == 0
        reports = [json.loads((tmp_path / jobs / f"{s.stem}.json").read_text(encoding="utf-8")) for s in sources]
        outputs[jobs] = (out.replace(str(tmp_path / jobs), "OUT").splitlines(), [r["proposals"] for r in reports])
    assert outputs["1"] == outputs["3"]
    assert [line.split(":")[0] for line in outputs["3"][0]] == list(map(str, sources))


def test_jobs_below_one_are_refused(tmp_path, data_dir):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--jobs"):
        call_command("redact", str(data_dir / "dev" / "pacht_1.pdf"), "--out-dir", str(tmp_path), "--jobs", "0")


def test_the_cores_are_divided_between_files_and_each_files_ocr():
    from policy.management.cli_batch import plan

    assert plan(5, None, cores=4) == (4, 1)  # one file per core
    assert plan(1, None, cores=4) == (1, 4)  # one long scan: its pages four at a time
    assert plan(3, 2, cores=4) == (2, 2)
    assert plan(2, 8, cores=2) == (2, 1)  # never more processes than files


def test_the_batch_shows_its_files_and_pages_on_standard_error(tmp_path, capsys, data_dir):
    from policy.management.cli_batch import redact_batch

    sources = [str(data_dir / "dev" / "pacht_1.pdf"), str(data_dir / "dev" / "kupni_auto_2.pdf")]
    lines = list(redact_batch(sources, tmp_path, category_map=None, profile=None, max_bytes=None, report=False,
                              jobs=2, bars=True))  # fmt: skip
    assert [line.ok for line in lines] == [True, True]
    bars = capsys.readouterr().err
    assert "files: 100%" in bars and "2/2" in bars and "pages: 100%" in bars, bars[-400:]
