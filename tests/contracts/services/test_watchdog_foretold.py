"""The watchdog's figure a reviewer sees before approval is the one the published file gets: the
boxes counted as publishing blackens them (grown over a scan's pixels, and on a page published
as a picture of itself), and the black a scan already had (its dark edge) told apart from what
the redactions add, before and after publishing."""

from __future__ import annotations

import pymupdf
import pytest

from contracts.models import Proposal, Status
from contracts.services import publishing, reviewing, uploads
from contracts.services.watchdog import watchdog_flagged, watchdog_planned
from redactor import TesseractOcr
from tests.pdfs import pdf_from_paragraphs, scan_of
from tests.plugins.tenants import logged_in, run_latest_job

pytestmark = pytest.mark.skipif(not TesseractOcr().available(), reason="Tesseract with ces is not installed")

SELLER = [
    "Kupní smlouva",
    "Prodávající: Ing. Jan Novák, rodné číslo 750403/1238, bytem Lipová 12, 602 00 Brno",
    "Kupující: Obec Horní Lhota, IČO 00000001, Náměstí 1, 602 00 Horní Lhota",
    "Prodávající prodává kupujícímu osobní automobil Škoda Octavia za kupní cenu 120 000 Kč.",
    "Kupní cena je splatná na účet prodávajícího číslo 19-2000145399/0800 do deseti dnů.",
]
ANNEX = [
    "Příloha č. 1 – předávací protokol",
    "Předávající: Ing. Jan Novák, telefon 777 123 456, e-mail jan.novak@seznam.cz",
    "Přebírající: Obec Horní Lhota, zastoupená starostou obce.",
    "Vozidlo bylo předáno se dvěma klíči a servisní knížkou.",
]


def _with_dark_edge(pdf: bytes, width: float) -> bytes:
    """``pdf`` with a black band ``width`` points wide down each page's left edge, as a scanner's
    lid leaves it."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for page in doc:
            page.draw_rect(pymupdf.Rect(0, 0, width, page.rect.height), color=None, fill=(0, 0, 0))
        return doc.tobytes()


def _two_page_scan() -> bytes:
    """Page 1: a scanner's compact PDF whose visible text lost its diacritics (published as a
    picture of itself); page 2: a plain scan with a dark edge."""
    first = scan_of(pdf_from_paragraphs(SELLER), dpi=200, text_layer="unmarked")
    second = scan_of(_with_dark_edge(pdf_from_paragraphs(ANNEX), 6), dpi=200)
    with pymupdf.open(stream=first, filetype="pdf") as doc, pymupdf.open(stream=second, filetype="pdf") as annex:
        doc.insert_pdf(annex)
        return doc.tobytes()


def test_the_figure_before_approval_is_the_published_files_and_a_scans_own_black_is_told_apart(agency, reviewer):
    contract = uploads.contract_upload(
        agency=agency, user=reviewer, data=_two_page_scan(), filename="sken.pdf", title="Kupní smlouva"
    )
    run_latest_job(contract)
    assert contract.status == Status.NEEDS_REVIEW and contract.pages[0]["ocr"] and contract.pages[1]["ocr"]
    # the reviewer redacts what waits for a decision (the suggestions stand)
    waiting = list(Proposal.objects.filter(contract=contract, decision="pending", suggestion="review"))
    reviewing.proposals_decide(
        contract=contract, user=reviewer, proposal_ids=[p.pk for p in waiting], decision="accept"
    )
    planned = watchdog_planned(contract)
    # what the review page shows once its script has asked for the watchdog's figure
    review_page = logged_in(reviewer).get(f"/a/{agency.pk}/contracts/{contract.pk}/review/watchdog/").content.decode()

    publishing.contract_approve(contract=contract, user=reviewer)
    run_latest_job(contract)
    contract.refresh_from_db()
    assert contract.status == Status.PUBLISHED and contract.verification["checks"]["pages_as_pictures"] == {
        "1": contract.verification["checks"]["pages_as_pictures"]["1"]
    }
    published = contract.watchdog
    # the same figures: the boxes as burned (grown over the scan's pixels and on the page published
    # as a picture), the same black the scan had
    assert {k: planned[k] for k in ("pages", "own", "redacted", "heavy")} == {
        k: published[k] for k in ("pages", "own", "redacted", "heavy")
    }

    # the dark edge alone makes page 2 count: said apart, before and after
    assert planned["own"]["2"] >= 0.05
    assert "1" not in planned["own"] and "1" not in published["own"]
    second = next(r for r in watchdog_flagged(planned) if r["page"] == 2)
    assert second["own_only"] and second["own_percent"] >= 5
    assert 'id="watchdog-own"' in review_page and "vlastní černá souboru" in review_page
