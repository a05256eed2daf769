"""Bounded resources and what a clerk reads when something fails (issue 16): page size and
rendered pixels limited, page images rendered once and never kept by the browser, sizes checked
before a body is read, polyglot files refused, job failures without exception text."""

from __future__ import annotations

import pymupdf
import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from accounts.models import Role
from contracts import jobs, selectors
from contracts.models import Run, Status
from contracts.services import publishing, uploads
from redactor.errors import PdfBombError
from redactor.pdf.intake import check_upload
from redactor.read.review import render_zoom
from tests import bombs
from tests.pdfs import pdf_from_paragraphs
from tests.plugins.tenants import logged_in
from tests.plugins.tokens import api, make_token

pytestmark = pytest.mark.django_db


def _one_page(width: float, height: float) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_text((72, 72), "Smlouva o dílo", fontsize=12)
    data = doc.tobytes()
    doc.close()
    return data


def _upload_api(agency, data: bytes, **extra):
    file = SimpleUploadedFile("smlouva.pdf", data, content_type="application/pdf")
    return api(make_token(agency, Role.CLERK)[1]).post(
        reverse("api:contracts"), {"title": "x", "file": file}, format="multipart", **extra
    )


def test_a_page_larger_than_the_limit_is_refused_at_both_doors(agency, clerk):
    huge = _one_page(9000, 9000)  # the review's probe: 3.4 s and 1.2 GB per page image before
    answer = _upload_api(agency, huge)
    assert answer.status_code == 400 and answer.json()["extra"]["code"] == "page_limit"
    assert "cm" in answer.json()["message"]
    form = logged_in(clerk).post(
        reverse("contracts:upload", kwargs={"agency_id": agency.pk}),
        {"title": "x", "file": SimpleUploadedFile("smlouva.pdf", huge, content_type="application/pdf")},
    )
    assert form.status_code == 400 and form.context["form"].errors["file"] == [answer.json()["message"]]
    assert not agency.contracts.exists()


def test_a_file_with_anything_before_the_pdf_header_is_refused(agency):
    polyglot = b"<html><script>alert(1)</script></html>\n" + pdf_from_paragraphs(["Smlouva."])
    answer = _upload_api(agency, polyglot)
    assert answer.status_code == 400 and answer.json()["extra"]["code"] == "not_pdf"
    with translation.override("cs"):  # the API answers in the default language without Accept-Language
        expected = translation.gettext(
            "The file has other content before the PDF begins. Export the contract again as a PDF file."
        )
    assert answer.json()["message"] == expected


def test_the_declared_size_is_refused_before_the_body_is_parsed(agency, settings):
    settings.REDACTOR_MAX_UPLOAD_BYTES = 100_000
    answer = _upload_api(agency, b"x", CONTENT_LENGTH="500000000")
    assert answer.status_code == 413 and answer.json()["extra"]["code"] == "too_large"
    # a file over the limit inside a body the header lets through (the form overhead allowance) is
    # stopped by the upload handler on its way in: stored nowhere, the same answer
    big = pdf_from_paragraphs(["Smlouva."]) + b"%" + b"0" * 150_000
    answer = _upload_api(agency, big)
    assert answer.status_code == 413 and answer.json()["extra"]["code"] == "too_large"
    assert "100 MB" not in answer.json()["message"] and "0 MB" in answer.json()["message"]


def test_the_web_form_refuses_an_oversized_file_with_the_same_limit(agency, clerk, settings):
    settings.REDACTOR_MAX_UPLOAD_BYTES = 100_000
    big = pdf_from_paragraphs(["Smlouva."]) + b"%" + b"0" * 150_000
    response = logged_in(clerk).post(
        reverse("contracts:upload", kwargs={"agency_id": agency.pk}),
        {"title": "x", "file": SimpleUploadedFile("smlouva.pdf", big, content_type="application/pdf")},
    )
    assert response.status_code == 400 and len(response.context["form"].errors["file"]) == 1
    assert not agency.contracts.exists()


def test_rendering_is_bounded_in_pixels():
    assert render_zoom(595, 842, 1.5) == 1.5
    zoom = render_zoom(9000, 9000, 1.5, max_pixels=20_000_000)
    assert zoom < 1.5 and 9000 * zoom * 9000 * zoom <= 20_000_000 * 1.0001


def test_page_images_are_rendered_once_never_stored_by_the_browser_and_dropped_with_the_contract(
    processed, clerk, reviewer
):
    url = reverse(
        "contracts:page_image", kwargs={"agency_id": processed.agency_id, "contract_id": processed.pk, "page": 1}
    )
    key = selectors.page_image_key(processed, 1)
    cache.delete(key)
    first = logged_in(clerk).get(url)
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    assert first["Cache-Control"] == "private, no-store"
    assert cache.get(key) == first.content
    preview = logged_in(clerk).get(url + "?preview=1")
    assert preview.status_code == 200 and preview.content != first.content  # burned-in boxes, not cached

    publishing.contract_delete(contract=processed, user=reviewer)
    assert cache.get(key) is None
    assert logged_in(clerk).get(url).status_code == 404


def test_a_page_mupdf_cannot_render_is_a_sentence_not_a_500(processed, clerk, settings):
    settings.REDACTOR_MAX_RENDER_PIXELS = 0  # no pixmap possible: MuPDF raises
    cache.delete(selectors.page_image_key(processed, 1))
    url = reverse(
        "contracts:page_image", kwargs={"agency_id": processed.agency_id, "contract_id": processed.pk, "page": 1}
    )
    response = logged_in(clerk).get(url)
    assert response.status_code == 422 and response["Content-Type"].startswith("text/plain")
    assert "Error" not in response.content.decode()


def test_a_failed_job_tells_the_clerk_a_sentence_and_the_log_the_details(uploaded, caplog):
    run = Run.objects.filter(contract=uploaded).latest("id")

    def boom(*, run):
        raise ValueError("MuPDF error: code=7: Jan Novák 750403/1238")

    jobs._guarded(boom, run.pk)

    uploaded.refresh_from_db()
    assert uploaded.status == Status.FAILED
    for text in (uploaded.error_message, Run.objects.get(pk=run.pk).error):
        assert str(run.pk) in text
        assert "ValueError" not in text and "MuPDF" not in text and "750403" not in text
    assert "ValueError" in caplog.text  # the operator's log keeps the traceback


def test_engine_errors_read_the_same_at_upload_and_in_a_job():
    from redactor.errors import EncryptedPdfError, InvalidPdfError

    assert uploads.pdf_problem(EncryptedPdfError("x"))[0] == "encrypted"
    code, sentence = uploads.pdf_problem(InvalidPdfError("the PDF is damaged (MuPDF: format error)"))
    assert code == "damaged" and "MuPDF" not in sentence


def test_words_and_originals_are_not_kept_by_the_browser(processed, clerk):
    kwargs = {"agency_id": processed.agency_id, "contract_id": processed.pk}
    words = logged_in(clerk).get(reverse("contracts:page_text", kwargs={**kwargs, "page": 1}))
    original = logged_in(clerk).get(reverse("contracts:original", kwargs=kwargs))
    assert words.status_code == original.status_code == 200
    assert words["Cache-Control"] == original["Cache-Control"] == "private, no-store"


def test_a_download_is_chosen_by_its_kind_and_only_the_original_is_private(published, clerk):
    """``contract_download`` takes a :class:`DownloadKind`; anything else is refused, never read
    as the original, and the service, not the door, says that the original is private."""
    from contracts.services.publishing import DownloadKind, contract_download

    files = {kind: contract_download(contract=published, user=clerk, which=kind) for kind in DownloadKind}
    assert [files[k].private for k in DownloadKind] == [False, False, True]
    assert files[DownloadKind.ORIGINAL].filename.endswith("-original.pdf")
    assert files[DownloadKind.TEXT].content_type.startswith("text/plain")
    for wrong in ("Original", "", "redacted.pdf"):
        with pytest.raises(ValueError):
            contract_download(contract=published, user=clerk, which=wrong)
    redacted = logged_in(clerk).get(
        reverse("contracts:download", kwargs={"agency_id": published.agency_id, "contract_id": published.pk})
    )
    assert redacted.status_code == 200 and "no-store" not in redacted.get("Cache-Control", "")


@pytest.mark.parametrize(
    ("build", "words"),
    [
        (lambda: bombs.nested_forms(levels=5, fanout=40), "million shapes"),
        (lambda: bombs.save_restore_stream(size=16 << 20, pages=2), "million shapes"),
        (lambda: bombs.inline_image(20_000, 20_000), "million pixels"),
        (lambda: bombs.many_images(count=2, width=8_000, height=8_000), "million pixels"),
        (lambda: bombs.many_objects(300_000), "thousand parts"),
        (bombs.pattern_fan_out, "million shapes"),
        (bombs.soft_mask_fan_out, "million shapes"),
        (bombs.type3_fan_out, "million shapes"),
        (bombs.mesh_shading, "draw the same large content"),
        (lambda: bombs.packed_behind_broken_xref(300_000), "thousand parts"),
    ],
    ids=[
        "nested forms", "save-restore stream", "inline image", "images on a page", "objects", "pattern", "soft mask",
        "Type 3 glyphs", "mesh shading", "packed objects",
    ],
)  # fmt: skip
def test_what_a_file_would_draw_is_refused_at_the_upload_without_drawing_it(agency, monkeypatch, build, words):
    data = build()

    def drawn(*args, **kwargs):
        raise AssertionError("the upload check drew a page")

    for method in ("get_bboxlog", "get_text", "get_pixmap", "get_images", "get_drawings"):
        monkeypatch.setattr(pymupdf.Page, method, drawn)
    # what the upload's own process runs (here, where the guard above sees any drawing) refuses it
    with pytest.raises(PdfBombError):
        check_upload(data)
    with translation.override("en"):
        answer = _upload_api(agency, data, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400 and answer.json()["extra"]["code"] == "too_complex"
    assert words in answer.json()["message"]
    assert not agency.contracts.exists()


def test_a_scan_is_sent_to_the_slow_queue_by_its_structure_without_drawing_it(agency, clerk, monkeypatch):
    from tests.pdfs import scan_of

    text = pdf_from_paragraphs(["Smlouva o dílo", "Objednatel: Obec Horní Lhota"])
    scan = scan_of(text)

    def drawn(*args, **kwargs):
        raise AssertionError("the upload check drew a page")

    for method in ("get_bboxlog", "get_text", "get_pixmap", "get_images", "get_drawings"):
        monkeypatch.setattr(pymupdf.Page, method, drawn)
    facts = uploads.pdf_check(scan)
    assert facts.scan_pages == [1] and uploads.pdf_check(text).scan_pages == []
