"""Contracts that arrive already (badly) redacted: a black rectangle (or a white-out) drawn over
live text hides it from the eye only. The engine finds it, proposes the text under it for redaction, and the
product reports it to the clerk, the reviewer, the audit trail and the API."""

from __future__ import annotations

import pymupdf
import pytest

from redactor.read.covered import covered_text


def _contract(*, bar_after_text: bool = True, fill=(0, 0, 0), heading_on_band: bool = False) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Kupní smlouva č. 2026/15", fontsize=14)
    if heading_on_band:  # a design: white heading drawn on a black band
        page.draw_rect(pymupdf.Rect(70, 40, 400, 60), color=(0, 0, 0), fill=(0, 0, 0))
        page.insert_text((75, 55), "ČLÁNEK I. PŘEDMĚT SMLOUVY", fontsize=12, color=(1, 1, 1))
    line = "Heslo k trezoru prodávajícího: KOLIBRI-4471, doručení osobně."
    scratch = pymupdf.open().new_page()
    scratch.insert_text((72, 160), line, fontsize=11)
    [where] = scratch.search_for("KOLIBRI-4471,")
    bar = pymupdf.Rect(round(where.x0) - 1, 150, round(where.x0) + 81, 164)  # over "KOLIBRI-4471,"
    if not bar_after_text:
        page.draw_rect(bar, color=fill, fill=fill)
    page.insert_text((72, 130), "Prodávající: Jan Novák, bytem Lipová 12, 602 00 Brno", fontsize=11)
    page.insert_text((72, 160), line, fontsize=11)
    if bar_after_text:
        page.draw_rect(bar, color=fill, fill=fill)
    page.insert_text((72, 190), "Kupní cena 120 000 Kč.", fontsize=11)
    return doc.tobytes()


def _found(data: bytes, find=covered_text):
    doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        return find(doc)
    finally:
        doc.close()


def _published_text(engine, analysis) -> str:
    """The text of the first page of ``analysis``'s document published with every redact proposal."""
    result = engine.redact(analysis.document, analysis.to_redact())
    with pymupdf.open(stream=result.pdf, filetype="pdf") as out:
        return out[0].get_text()


def _whited(
    *,
    after_text: bool = True,
    share: float = 0.6,
    over_text: bool = True,
    value: str = "kolibri.obchod@trezor-sluzby.cz",
) -> bytes:
    """A contract whose office e-mail got a white-out: a white box over the top ``share`` of its
    line (the lower part of the letters stays legible), drawn after the text or before it (a
    cell's background, under the text); ``over_text=False`` puts it in the margin."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Kupní smlouva č. 2026/15", fontsize=14)
    line = f"Kontaktní údaj prodávajícího: {value}, doručení osobně."
    scratch = pymupdf.open().new_page()
    scratch.insert_text((72, 160), line, fontsize=11)
    [where] = scratch.search_for(value)
    box = pymupdf.Rect(where.x0, where.y0, where.x1, where.y0 + share * where.height)
    if not over_text:
        box = pymupdf.Rect(400, 700, 500, 710)
    if not after_text:
        page.draw_rect(box, color=(1, 1, 1), fill=(1, 1, 1))
    page.insert_text((72, 130), "Prodávající: Jan Novák, bytem Lipová 12, 602 00 Brno", fontsize=11)
    page.insert_text((72, 160), line, fontsize=11)
    if after_text:
        page.draw_rect(box, color=(1, 1, 1), fill=(1, 1, 1))
    page.insert_text((72, 190), "Kupní cena 120 000 Kč.", fontsize=11)
    return doc.tobytes()


def test_a_white_out_over_part_of_the_letters_is_found_and_a_cells_background_is_not():
    from redactor.read.covered import whited_text

    [box] = _found(_whited(), whited_text)
    assert box.page == 1 and box.y1 < 160  # the top of the line only
    assert _found(_whited(), covered_text) == []  # not black
    assert _found(_whited(after_text=False), whited_text) == []  # drawn first: the text is on top of it
    assert _found(_whited(over_text=False), whited_text) == []  # white over blank paper hides nothing
    assert _found(_whited(share=0.15), whited_text) == []  # a hairline over the letters' tops is no white-out


def test_the_text_under_a_white_out_is_reported_blacked_out_and_taken_out_of_the_text(engine):
    # a value no recognizer proposes: the white-out alone says it was meant to be hidden
    analysis = engine.analyze(_whited(value="KOLIBRI-4471-TREZOR"))
    assert len(analysis.covered) == 1  # reported with the earlier redactions
    whited = [p for p in analysis.proposals if p.recognizer == "earlier_whiteout"]
    assert whited and all(p.action.value == "redact" for p in whited)
    assert "KOLIBRI-4471-TREZOR" in "".join(p.text for p in whited)
    text = _published_text(engine, analysis)
    assert "KOLIBRI" not in text and "TREZOR" not in text
    assert "Kupní cena 120 000" in text and "Kontaktní údaj" in text and "osobn" in text
    # the seller's e-mail under a white-out: reported, and redacted as the e-mail it is
    analysis = engine.analyze(_whited())
    assert len(analysis.covered) == 1
    assert [p.action.value for p in analysis.proposals if "trezor-sluzby" in p.text] == ["redact"]


def test_a_black_bar_over_live_text_is_found_and_nothing_else():
    [box] = _found(_contract())
    assert (box.page, box.y0, box.y1, box.x1 - box.x0) == (1, 150, 164, 82)
    assert _found(_contract(bar_after_text=False)) == []  # drawn first: the text is on top of it
    assert _found(_contract(fill=(0.8, 0.8, 0.8))) == []  # a grey shading hides nothing
    assert len(_found(_contract(heading_on_band=True))) == 1  # the white heading on its band is not covered


def test_the_text_under_it_is_redacted_and_the_file_reads_as_it_looks(engine):
    data = _contract()
    analysis = engine.analyze(data)
    [box] = analysis.covered
    assert analysis.to_dict()["covered"] == [[1, box.x0, 150.0, box.x1, 164.0]]
    covered = [p for p in analysis.proposals if p.recognizer == "earlier_redaction"]
    assert covered and all(p.action.value == "redact" for p in covered)
    assert "KOLIBRI-4471" in "".join(p.text for p in covered)
    text = _published_text(engine, analysis)
    assert "KOLIBRI" not in text and "Kupní cena 120 000" in text and "Heslo k trezoru" in text and "osobn" in text


@pytest.mark.django_db
def test_processing_reports_it_to_clerk_reviewer_audit_and_api(agency, clerk, reviewer, admin_user):
    from rest_framework.test import APIClient

    from accounts.services import api_token_create
    from contracts.models import AuditEvent
    from contracts.services import uploads
    from tests.plugins.tenants import logged_in, run_latest_job

    contract = uploads.contract_upload(agency=agency, user=clerk, data=_contract(), filename="k.pdf", title="Kupní")
    run_latest_job(contract)
    contract.refresh_from_db()
    [[page, x0, y0, x1, y1]] = contract.earlier_redactions
    assert (page, y0, y1, x1 - x0) == (1, 150, 164, 82)
    event = AuditEvent.objects.get(contract=contract, action="earlier_redaction_found")
    assert event.detail == {"pages": [1], "boxes": 1}
    detail = logged_in(clerk).get(f"/a/{agency.pk}/contracts/{contract.pk}/").content.decode()
    assert 'id="earlier-redactions"' in detail and "selhalo" in detail and 'class="page-link"' not in detail
    review = logged_in(reviewer).get(f"/a/{agency.pk}/contracts/{contract.pk}/review/").content.decode()
    assert 'href="#page-1" class="page-link"' in review.split('id="earlier-redactions"')[1].split("</div>")[0]
    _, raw = api_token_create(agency=agency, name="DMS", role="clerk", created_by=admin_user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert api.get(f"/api/v1/contracts/{contract.pk}/").json()["earlier_redactions"] == [[1, x0, 150, x1, 164]]


def test_with_the_text_layer_the_same_bars_are_found(engine):
    """The text layer only spares reading the drawing order of pages where no character of the
    page touches a dark rectangle: the bars found are the same, a bar over live text included."""
    margin = pymupdf.open(stream=_contract(), filetype="pdf")
    margin[0].draw_rect(pymupdf.Rect(500, 700, 560, 760), color=(0, 0, 0), fill=(0, 0, 0))  # over no text
    cases = [_contract(), _contract(bar_after_text=False), _contract(heading_on_band=True), margin.tobytes()]
    for data in cases:
        layer = engine.analyze(data).text_layer
        doc = pymupdf.open(stream=data, filetype="pdf")
        try:
            assert covered_text(doc, layer) == covered_text(doc)
        finally:
            doc.close()
    doc = pymupdf.open(stream=cases[-1], filetype="pdf")
    assert len(covered_text(doc, engine.analyze(cases[-1]).text_layer)) == 1  # the bar over the password only
