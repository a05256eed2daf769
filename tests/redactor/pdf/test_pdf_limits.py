"""Decompression and parse bombs are refused by what their streams inflate to, measured in chunks
before any renderer meets them; a contract as Word, LibreOffice or a scanner writes it passes."""

from __future__ import annotations

import io
import resource
import time
import zlib

import pikepdf
import pytest

from redactor.errors import InvalidPdfError
from redactor.pdf.intake import check_upload
from redactor.pdf.pdf_limits import PdfBombError, PdfLimits, check_declared_objects, check_pdf_limits
from tests import bombs
from tests.conftest import DATA
from tests.pdfs import pdf_from_paragraphs, scan_of

SMALL = PdfLimits(
    stream_bytes=8 << 20, document_bytes=16 << 20, drawn_bytes=32 << 20, image_pixels=10**7, attachment_bytes=4 << 20,
    page_operators=100_000, document_operators=300_000, page_pixels=2 * 10**7, document_pixels=3 * 10**7,
    objects=2_000, form_depth=6,
)  # fmt: skip


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


def _limit(data: bytes, limits: PdfLimits | None = None) -> tuple[str, int | None]:
    with pytest.raises(PdfBombError) as refused:
        check_pdf_limits(data, limits)
    return refused.value.limit, refused.value.page


def test_forms_painting_forms_are_counted_with_their_multiplicity_through_every_level():
    data = bombs.nested_forms(levels=5, fanout=40)  # 40**5 strokes from ~2 KB
    assert len(data) < 4_000
    assert _limit(data) == ("operators", 1)
    assert _limit(bombs.nested_forms(levels=3, fanout=50), SMALL) == ("operators", 1)  # 125,000 strokes
    load = check_pdf_limits(bombs.nested_forms(levels=2, fanout=10))  # 100 strokes: a logo drawn as forms
    assert 100 <= load.pages[0].operators < 2_000  # counted from above: operands count too


def test_forms_nested_deeper_than_the_limit_are_refused():
    assert _limit(bombs.nested_forms(levels=8, fanout=1), SMALL)[0] == "operators"
    check_pdf_limits(bombs.nested_forms(levels=5, fanout=1), SMALL)


def test_a_stream_of_millions_of_operators_is_refused_while_it_is_read():
    data = bombs.save_restore_stream(size=64 << 20, pages=2)  # 64 MiB of "q Q", under every byte limit
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert _limit(data)[0] == "operators"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 64 * 1024  # KiB: chunks, not the stream


def test_the_objects_a_file_declares_are_counted_before_qpdf_reads_them():
    data = bombs.many_objects(5_000)
    with pytest.raises(PdfBombError) as refused:
        check_declared_objects(data, SMALL)
    assert refused.value.limit == "objects"
    assert _limit(data, SMALL)[0] == "objects"
    check_declared_objects(data)  # 5,000 objects: far under the default


def test_objects_written_out_count_though_the_file_declares_fewer():
    pdf = pikepdf.open(io.BytesIO(bombs.many_objects(3_000)))
    plain = _save(pdf)  # every object written out, not packed
    lying = plain.replace(b"/Size 300", b"/Size 9\x20\x20\x20")  # what a damaged table would say
    with pytest.raises(PdfBombError):
        check_declared_objects(lying, SMALL)


def test_an_inline_image_is_counted_by_the_pixels_it_declares():
    assert _limit(bombs.inline_image(20_000, 20_000)) == ("page_pixels", 1)
    check_pdf_limits(bombs.inline_image(100, 100))


def test_images_under_the_per_image_limit_are_limited_per_page_and_per_document():
    assert _limit(bombs.many_images(count=3, width=3_000, height=3_000), SMALL) == ("page_pixels", 1)
    assert _limit(bombs.many_images(count=4, width=3_000, height=3_000, pages=4), SMALL) == ("pixels", 4)
    load = check_pdf_limits(bombs.many_images(count=2, width=3_000, height=3_000, pages=2), SMALL)
    assert [page.pixels for page in load.pages] == [9_000_000, 9_000_000] and load.pixels == 18_000_000


def test_a_scan_looks_scanned_by_its_structure_and_a_text_contract_does_not():
    text = pdf_from_paragraphs(["Kupní smlouva", "Prodávající: Obec Horní Lhota"])
    assert [page.looks_scanned for page in check_pdf_limits(text).pages] == [False]
    assert [page.looks_scanned for page in check_pdf_limits(scan_of(text, dpi=150)).pages] == [True]


@pytest.mark.parametrize("folder", ["real", "dev", "twins", "twins2"])
def test_every_contract_of_the_data_sets_passes_the_limits(folder):
    pdfs = sorted((DATA / folder).rglob("*.pdf"))
    if not pdfs:
        pytest.skip(f"no {folder} contracts here")
    for pdf in pdfs:
        check_pdf_limits(pdf.read_bytes())


@pytest.mark.parametrize(
    "parms",
    [
        {"Predictor": 12, "Columns": 2**31},
        {"Predictor": 12, "Columns": 100, "Colors": 4096},
        {"Predictor": 99, "Columns": 100},
        {"Predictor": 12, "Columns": 100, "BitsPerComponent": 3},
    ],
    ids=["2**31 columns", "4096 colours", "predictor 99", "3 bits"],
)
def test_decode_parameters_outside_the_specification_are_damage_not_work(parms):
    from redactor.errors import InvalidPdfError

    pdf = pikepdf.new()
    pdf.add_blank_page()
    content = pikepdf.Stream(pdf, zlib.compress(b"\x02" + b"0 0 m 10 10 l S\n"))
    content.Filter = pikepdf.Name.FlateDecode
    content.DecodeParms = pikepdf.Dictionary({f"/{k}": v for k, v in parms.items()})
    pdf.pages[0].Contents = pdf.make_indirect(content)
    with pytest.raises(InvalidPdfError):
        check_pdf_limits(_save(pdf))
    content.DecodeParms = pikepdf.Dictionary(Predictor=12, Columns=16)  # what a writer uses
    check_pdf_limits(_save(pdf))


def test_a_deep_outline_is_refused_by_its_depth_walked_without_recursion():
    with pytest.raises(PdfBombError) as refused:
        check_pdf_limits(bombs.deep_outline(60_000))
    assert refused.value.limit == "structure" and "outline" in str(refused.value)
    # a hundred levels pass the default (the data sets nest at most four) and are measured
    assert check_pdf_limits(bombs.deep_outline(100)).depth == 101
    with pytest.raises(PdfBombError, match="outline nests more than 50"):
        check_pdf_limits(bombs.deep_outline(100), PdfLimits(structure_depth=50))


def _raw_pdf(objects: list[bytes]) -> bytes:
    """A PDF written byte by byte (qpdf refuses to write some of what a test needs): ``objects``
    numbered from 1, the first the catalog, with a cross-reference table."""
    out, offsets = bytearray(b"%PDF-1.7\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _page_tree(levels: int) -> bytes:
    """A one-page PDF whose page tree nests ``levels`` /Pages nodes, each the only kid of the last."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    for n in range(levels):
        parent = b" /Parent %d 0 R" % (n + 1) if n else b""
        objects.append(b"<< /Type /Pages /Kids [%d 0 R] /Count 1%s >>" % (n + 3, parent))
    objects.append(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] >>" % (levels + 1))
    return _raw_pdf(objects)


def test_a_deep_page_tree_is_refused_by_its_depth():
    # 300 levels: qpdf refuses to open it (its page walk stops far below MuPDF's stack), so the
    # upload refuses it as damaged
    with pytest.raises(pikepdf.PdfError, match="too deeply nested"):
        check_pdf_limits(_page_tree(300))
    with pytest.raises(InvalidPdfError):
        check_upload(_page_tree(300))
    assert check_pdf_limits(_page_tree(50)).depth == 51
    with pytest.raises(PdfBombError, match="page tree nests more than 40"):
        check_pdf_limits(_page_tree(50), PdfLimits(structure_depth=40))


def test_objects_packed_in_object_streams_count_whatever_the_trailer_declares():
    data = bombs.packed_behind_broken_xref(300_000)
    assert b"/Size 6 " in data  # the trailer declares six
    with pytest.raises(PdfBombError) as refused:
        check_declared_objects(data)
    assert refused.value.limit == "objects" and "300000" in str(refused.value)
    check_declared_objects(bombs.packed_behind_broken_xref(1_000))  # a few packed objects pass


@pytest.mark.parametrize(
    ("build", "mild", "limit"),
    [
        (bombs.pattern_fan_out, {"levels": 1, "fanout": 3}, "operators"),
        (bombs.tiny_pattern_step, {"step": 20}, "operators"),
        (bombs.soft_mask_fan_out, {"levels": 1, "fanout": 3}, "operators"),
        (bombs.type3_fan_out, {"glyphs": 50, "levels": 1, "fanout": 2}, "operators"),
        (bombs.mesh_shading, {"triangles": 100, "paints": 2}, "drawn"),
    ],
    ids=["pattern", "pattern step", "soft mask", "Type 3 glyphs", "mesh shading"],
)
def test_every_way_content_reaches_a_page_is_counted_before_it_is_drawn(build, mild, limit):
    """Forms reachable only through a tiling pattern's cell, a soft mask's group or a Type 3
    glyph, a pattern's cells over the page, a mesh painted over and over: each counted from the
    structure (nothing drawn), refused by the limit it passes; the same kinds at a contract's
    scale pass."""
    with pytest.raises(PdfBombError) as refused:
        check_pdf_limits(build())
    assert refused.value.limit == limit and refused.value.page == 1
    check_pdf_limits(build(**mild))
