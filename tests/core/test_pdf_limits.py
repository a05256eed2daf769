"""Decompression and parse bombs are refused by what their streams inflate to, measured in chunks
before any renderer meets them; a contract as Word, LibreOffice or a scanner writes it passes."""

from __future__ import annotations

import io
import resource
import time
import zlib

import pikepdf
import pytest

from redactor.pdf.pdf_limits import PdfBombError, PdfLimits, check_pdf_limits
from tests.pdfs import pdf_from_paragraphs

SMALL = PdfLimits(
    stream_bytes=8 << 20, document_bytes=16 << 20, drawn_bytes=32 << 20, image_pixels=10**7, attachment_bytes=4 << 20
)


def _save(pdf: pikepdf.Pdf) -> bytes:
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _refused_by(pdf: pikepdf.Pdf) -> str:
    """The limit of :data:`SMALL` that refuses ``pdf`` (saved)."""
    with pytest.raises(PdfBombError) as refused:
        check_pdf_limits(_save(pdf), SMALL)
    return refused.value.limit


def _zeros(size: int) -> bytes:
    """``size`` zero bytes, Flate-compressed (about a thousand to one), compressed in pieces."""
    packer = zlib.compressobj(9)
    piece = bytes(1 << 20)
    parts = [packer.compress(piece) for _ in range(size >> 20)]
    return b"".join(parts) + packer.flush()


def _with_content(deflated: bytes, pages: int = 1) -> bytes:
    """A PDF whose ``pages`` pages all draw one content stream of ``deflated`` Flate data."""
    pdf = pikepdf.new()
    content = pikepdf.Stream(pdf, deflated)
    content.Filter = pikepdf.Name.FlateDecode
    shared = pdf.make_indirect(content)
    for _ in range(pages):
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page, MediaBox=[0, 0, 595, 842], Contents=shared, Resources=pikepdf.Dictionary()
        )
        pdf.pages.append(pikepdf.Page(page))
    return _save(pdf)


def test_a_stream_that_inflates_past_the_limit_is_refused_without_being_held():
    data = _with_content(_zeros(64 << 20))  # 64 MiB of zeros in ~65 KB
    assert len(data) < 200_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    with pytest.raises(PdfBombError) as refused:
        check_pdf_limits(data, SMALL)
    assert refused.value.limit == "stream"
    assert time.perf_counter() - started < 5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 32 * 1024  # KiB: chunks, not the whole


def test_one_stream_drawn_on_many_pages_is_counted_on_each():
    data = _with_content(_zeros(1 << 20), pages=40)  # 1 MiB, under every per-stream limit, drawn 40 times
    with pytest.raises(PdfBombError) as refused:
        check_pdf_limits(data, SMALL)
    assert refused.value.limit == "drawn" and refused.value.page == 33


def test_an_image_declaring_too_many_pixels_is_refused_whatever_its_compression():
    pdf = pikepdf.new()
    pdf.add_blank_page()
    image = pikepdf.Stream(pdf, b"\xff\xd8\xff\xd9")  # a JPEG of nothing that says it is 100,000 px square
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.Width, image.Height, image.BitsPerComponent = 100_000, 100_000, 8
    image.ColorSpace, image.Filter = pikepdf.Name.DeviceGray, pikepdf.Name.DCTDecode
    pdf.pages[0].Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=pdf.make_indirect(image)))
    assert _refused_by(pdf) == "image"


def test_an_attachment_that_inflates_past_its_limit_is_refused():
    pdf = pikepdf.new()
    pdf.add_blank_page()
    spec = pikepdf.AttachedFileSpec(pdf, b"x", filename="priloha.txt")
    pdf.attachments["priloha.txt"] = spec
    stream = spec.get_file().obj
    stream.write(_zeros(8 << 20), filter=pikepdf.Name.FlateDecode)
    assert _refused_by(pdf) == "attachment"


def test_a_chain_of_filters_that_could_grow_past_the_limit_is_refused():
    pdf = pikepdf.new()
    pdf.add_blank_page()
    content = pikepdf.Stream(pdf, b"0" * 20_000)  # LZW may make ~3,600 bytes of each byte
    content.Filter = pikepdf.Array([pikepdf.Name.ASCIIHexDecode, pikepdf.Name.LZWDecode])
    pdf.pages[0].Contents = pdf.make_indirect(content)
    with pytest.raises(PdfBombError):
        check_pdf_limits(_save(pdf), SMALL)


def test_the_whole_document_is_limited_too():
    pdf = pikepdf.new()
    for _ in range(3):  # three pages of 7 MiB: each under the stream limit, 21 MiB together
        pdf.add_blank_page()
        content = pikepdf.Stream(pdf, _zeros(7 << 20))
        content.Filter = pikepdf.Name.FlateDecode
        pdf.pages[-1].Contents = pdf.make_indirect(content)
    assert _refused_by(pdf) == "document"


def test_an_ordinary_contract_passes():
    check_pdf_limits(pdf_from_paragraphs(["Kupní smlouva", "Prodávající: Obec Horní Lhota"] * 50))
