"""Adversarial contract PDFs: a short Czech contract with a private person placed where a
redaction tool does not look (issue 14's classes). Each builder returns an :class:`Adversarial`:
the PDF and the strings that must not be readable in anything published from it.

Builders are our own (the hidden corpus is run separately); PyMuPDF draws the visible contract,
pikepdf plants the hiding places at the object level.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

import pikepdf
import pymupdf

from tests.pdfs import pdf_from_paragraphs

#: The contract every builder starts from: an agency, a contractor who is a private person.
BODY = [
    "SMLOUVA O DÍLO",
    "Objednatel: Město Kyjov, IČO: 00285030, se sídlem Masarykovo náměstí 30, 697 01 Kyjov, "
    "zastoupené starostou Mgr. Františkem Lukáškem",
    "Zhotovitel: Jan Novák, nar. 12. 3. 1980, bytem Lipová 12, 602 00 Brno",
    "Předmětem smlouvy je oprava střechy budovy radnice. Cena díla činí 80 000 Kč bez DPH.",
    "V Kyjově dne 1. 9. 2026",
]
#: What identifies the contractor in BODY (all of it must be redacted).
BODY_SECRETS = ["Novák", "Lipová 12", "12. 3. 1980"]
#: A second private person, planted only in a hiding place.
HIDDEN = "Karel Vomacka"
HIDDEN_NUMBER = "780101/1229"


@dataclass
class Adversarial:
    """One adversarial PDF: ``pdf`` and the ``secrets`` no published output may contain."""

    name: str
    pdf: bytes
    secrets: list[str]
    #: True when the secrets are only drawn (a picture, outlines, glyphs without meaning): no
    #: tool reads them as text, a reader (or OCR) does.
    pictured: bool = False


def _base(paragraphs: list[str] | None = None) -> bytes:
    return pdf_from_paragraphs(paragraphs if paragraphs is not None else BODY)


def _edit(data: bytes, change: Callable[[pikepdf.Pdf], None]) -> bytes:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        change(pdf)
        out = io.BytesIO()
        pdf.save(out)
    return out.getvalue()


def _helvetica(pdf: pikepdf.Pdf) -> pikepdf.Object:
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type1,
            BaseFont=pikepdf.Name.Helvetica,
            Encoding=pikepdf.Name.WinAnsiEncoding,
        )
    )


def _append_content(
    pdf: pikepdf.Pdf, page: pikepdf.Page, content: bytes, *, default_space: bool = False, **resources
) -> None:
    """Append ``content`` (drawing with font /FAdv = Helvetica) to ``page``. ``default_space``:
    in the page's default space (the page's own content wrapped in ``q … Q`` first: PyMuPDF's
    Story leaves a flipped matrix behind, under which the other builders draw)."""
    res = page.obj.Resources
    for category, entries in {"Font": {"FAdv": _helvetica(pdf)}, **resources}.items():
        if f"/{category}" not in res:
            res[f"/{category}"] = pikepdf.Dictionary()
        for key, value in entries.items():
            res[f"/{category}"][f"/{key}"] = value
    if default_space and not getattr(page, "_wrapped", False):
        page.contents_add(pdf.make_stream(b"q"), prepend=True)
        page.contents_add(pdf.make_stream(b"Q"), prepend=False)
        page._wrapped = True
    page.contents_add(pdf.make_stream(b"q " + content + b" Q"), prepend=False)


def _latin(text: str) -> bytes:
    return text.encode("cp1252")


# -- text the extractor clips or skips ------------------------------------------------------
def beyond_mediabox() -> Adversarial:
    def change(pdf):
        _append_content(pdf, pdf.pages[0], b"BT /FAdv 10 Tf 650 500 Td (" + _latin(HIDDEN) + b") Tj ET")

    return Adversarial("beyond_mediabox", _edit(_base(), change), [HIDDEN])


def outside_cropbox() -> Adversarial:
    def change(pdf):
        page = pdf.pages[0]
        _append_content(pdf, page, b"BT /FAdv 10 Tf 20 20 Td (" + _latin(f"{HIDDEN} {HIDDEN_NUMBER}") + b") Tj ET")
        page.obj.CropBox = [40, 40, 555, 802]

    return Adversarial("outside_cropbox", _edit(_base(), change), [HIDDEN, HIDDEN_NUMBER])


def optional_content_off() -> Adversarial:
    def change(pdf):
        ocg = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.OCG, Name=pikepdf.String(f"Vrstva {HIDDEN}")))
        pdf.Root.OCProperties = pikepdf.Dictionary(OCGs=[ocg], D=pikepdf.Dictionary(OFF=[ocg], Order=[ocg]))
        content = b"/OC /L1 BDC BT /FAdv 10 Tf 72 300 Td (" + _latin(f"{HIDDEN} r. c. {HIDDEN_NUMBER}") + b") Tj ET EMC"
        _append_content(pdf, pdf.pages[0], content, Properties={"L1": ocg})

    return Adversarial("optional_content_off", _edit(_base(), change), [HIDDEN, HIDDEN_NUMBER])


def tiling_pattern() -> Adversarial:
    def change(pdf):
        cell = pdf.make_stream(b"BT /FAdv 8 Tf 2 10 Td (" + _latin(HIDDEN) + b") Tj ET")
        cell.PatternType, cell.PaintType, cell.TilingType = 1, 1, 1
        cell.BBox, cell.XStep, cell.YStep = [0, 0, 200, 20], 200, 20
        cell.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(FAdv=_helvetica(pdf)))
        _append_content(pdf, pdf.pages[0], b"/Pattern cs /P1 scn 72 200 300 40 re f", Pattern={"P1": cell})

    return Adversarial("tiling_pattern", _edit(_base(), change), [HIDDEN])


# -- what the text says vs. what is drawn ---------------------------------------------------
def actual_text() -> Adversarial:
    """The contractor drawn in glyphs, but marked content says the line is something else."""
    body = [p for p in BODY if not p.startswith("Zhotovitel")]

    def change(pdf):
        line = _latin("Zhotovitel: Karel Vomacka, nar. 1. 1. 1978, bytem Lipova 12, 602 00 Brno")
        content = (
            b"/Span <</ActualText (Zhotovitel: viz priloha)>> BDC BT /FAdv 10 Tf 56 400 Td (" + line + b") Tj ET EMC"
        )
        _append_content(pdf, pdf.pages[0], content)

    return Adversarial("actual_text", _edit(_base(body), change), [HIDDEN, "1. 1. 1978"])


def structure_alt() -> Adversarial:
    def change(pdf):
        figure = pikepdf.Dictionary(
            Type=pikepdf.Name.StructElem,
            S=pikepdf.Name.Figure,
            Alt=pikepdf.String(f"Podpis {HIDDEN}"),
            ActualText=pikepdf.String(f"{HIDDEN} {HIDDEN_NUMBER}"),
        )
        pdf.Root.StructTreeRoot = pikepdf.Dictionary(Type=pikepdf.Name.StructTreeRoot, K=[pdf.make_indirect(figure)])
        pdf.Root.MarkInfo = pikepdf.Dictionary(Marked=True)

    return Adversarial("structure_alt", _edit(_base(), change), [HIDDEN, HIDDEN_NUMBER])


# -- document-level places -------------------------------------------------------------------
def page_labels() -> Adversarial:
    def change(pdf):
        pdf.Root.PageLabels = pikepdf.Dictionary(Nums=[0, pikepdf.Dictionary(P=pikepdf.String(f"{HIDDEN}-"))])

    return Adversarial("page_labels", _edit(_base(), change), [HIDDEN])


def bookmark_reformatted() -> Adversarial:
    """The body writes the birth number with a slash; a bookmark holds it without."""
    body = BODY[:2] + ["Zhotovitel: Jan Novák, r. č. 800312/1236, bytem Lipová 12, 602 00 Brno"] + BODY[3:]
    doc = pymupdf.open(stream=_base(body), filetype="pdf")
    doc.set_toc([[1, "Smlouva", 1], [2, "Zhotovitel Jan Novák 8003121236", 1]])
    return Adversarial("bookmark_reformatted", doc.tobytes(), ["8003121236", "800312/1236", "Novák"])


def open_action_uri() -> Adversarial:
    def change(pdf):
        pdf.Root.OpenAction = pikepdf.Dictionary(
            S=pikepdf.Name.URI, URI=pikepdf.String(f"https://example.org/?who={HIDDEN}")
        )
        pdf.pages[0].obj.AA = pikepdf.Dictionary(
            O=pikepdf.Dictionary(S=pikepdf.Name.GoToR, F=pikepdf.String(f"{HIDDEN}.pdf"), D=[0, pikepdf.Name.Fit])
        )

    return Adversarial("open_action_uri", _edit(_base(), change), [HIDDEN])


def document_javascript() -> Adversarial:
    def change(pdf):
        pdf.Root.OpenAction = pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=pikepdf.String(f"var who='{HIDDEN}';"))

    return Adversarial("document_javascript", _edit(_base(), change), [HIDDEN])


def orphan_form_field() -> Adversarial:
    def change(pdf):
        field = pdf.make_indirect(
            pikepdf.Dictionary(
                FT=pikepdf.Name.Tx,
                T=pikepdf.String("rodne_cislo"),
                V=pikepdf.String(HIDDEN_NUMBER),
                TU=pikepdf.String(f"Rodné číslo {HIDDEN}"),
            )
        )
        xfa = pdf.make_stream(_latin(f"<xfa:datasets><jmeno>{HIDDEN}</jmeno></xfa:datasets>"))
        pdf.Root.AcroForm = pikepdf.Dictionary(Fields=[field], XFA=xfa)

    return Adversarial("orphan_form_field", _edit(_base(), change), [HIDDEN, HIDDEN_NUMBER])


def piece_info_and_names() -> Adversarial:
    def change(pdf):
        private = pikepdf.Dictionary(Private=pikepdf.String(HIDDEN), LastModified=pikepdf.String("D:20260101"))
        pdf.pages[0].obj.PieceInfo = pikepdf.Dictionary(Editor=private)
        pdf.Root.PieceInfo = pikepdf.Dictionary(Editor=private)
        dest = [pdf.pages[0].obj, pikepdf.Name.Fit]
        pdf.Root.Names = pikepdf.Dictionary(Dests=pikepdf.Dictionary(Names=[pikepdf.String(HIDDEN), dest]))
        pdf.Root.Poznamka = pikepdf.String(f"{HIDDEN} {HIDDEN_NUMBER}")

    return Adversarial("piece_info_and_names", _edit(_base(), change), [HIDDEN, HIDDEN_NUMBER])


def metadata_and_attachment() -> Adversarial:
    doc = pymupdf.open(stream=_base(), filetype="pdf")
    doc.set_metadata({"author": HIDDEN, "subject": HIDDEN_NUMBER})
    doc.embfile_add("osoba.txt", _latin(f"{HIDDEN} {HIDDEN_NUMBER}"), filename="osoba.txt")
    page = doc[0]
    page.add_text_annot((300, 300), f"Poznámka: {HIDDEN}")
    return Adversarial("metadata_and_attachment", doc.tobytes(), [HIDDEN, HIDDEN_NUMBER])


# -- text layout ------------------------------------------------------------------------------
def quote_operators() -> Adversarial:
    """Lines shown with the ' and \" operators: after burn-in they must keep their places."""
    body = [p for p in BODY if not p.startswith("Zhotovitel")]

    def change(pdf):
        content = (
            b"BT /FAdv 10 Tf 14 TL 56 420 Td (Zhotovitel:) Tj "
            b"(" + _latin("Karel Vomacka, nar. 1. 1. 1978,") + b") ' "
            b'0 0 (bytem Lipova 12, 602 00 Brno) " '
            b"(Cena je splatna do 30 dnu od predani dila.) ' ET"
        )
        _append_content(pdf, pdf.pages[0], content)

    return Adversarial("quote_operators", _edit(_base(body), change), [HIDDEN, "1. 1. 1978", "Lipova 12"])


def email_across_lines() -> Adversarial:
    """An e-mail address broken after its "@" at a line end."""
    lines = BODY[:3] + ["Kontaktní e-mail zhotovitele: jan.novak@", "seznam.cz, tel. 603 123 456"] + BODY[3:]
    return Adversarial("email_across_lines", pdf_from_paragraphs(lines), ["jan.novak", "603 123 456", *BODY_SECRETS])


def letter_spaced() -> Adversarial:
    """The contractor's line set with wide letter spacing: "K a r e l   V o m a c k a"."""
    body = [p for p in BODY if not p.startswith("Zhotovitel")]

    def change(pdf):
        spaced = _latin("Zhotovitel: Karel Vomacka, bytem Lipova 12, Brno")
        content = b"BT /FAdv 10 Tf 4 Tc 56 400 Td (" + spaced + b") Tj ET"
        _append_content(pdf, pdf.pages[0], content)

    return Adversarial("letter_spaced", _edit(_base(body), change), ["Vomacka", "Lipova"])


def user_unit() -> Adversarial:
    def change(pdf):
        page = pdf.pages[0].obj
        page.UserUnit = 2
        page.MediaBox = [0, 0, 297.64, 420.95]
        page.Contents = pdf.make_stream(b"0.5 0 0 0.5 0 0 cm\n" + pdf.pages[0].obj.Contents.read_bytes())

    return Adversarial("user_unit", _edit(_base(), change), BODY_SECRETS)


# -- images ---------------------------------------------------------------------------------
def _png_with_alpha(width: int, height: int) -> bytes:
    """A transparent PNG with a dark diagonal stroke (a scanned signature)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGBA", (width, height), (255, 255, 255, 0))
    ImageDraw.Draw(image).line([(0, height - 1), (width - 1, 0)], fill=(20, 20, 120, 255), width=3)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def masked_image() -> Adversarial:
    """A picture drawn through its /SMask beside the text, and a transparent signature over kept
    text: burn-in must leave both looking as they did."""
    doc = pymupdf.open(stream=_base(), filetype="pdf")
    page = doc[0]
    page.insert_image(pymupdf.Rect(56, 420, 256, 520), stream=_png_with_alpha(200, 100))
    page.insert_image(pymupdf.Rect(300, 60, 500, 160), stream=_png_with_alpha(120, 60))
    return Adversarial("masked_image", doc.tobytes(), BODY_SECRETS)


def signature_over_name() -> Adversarial:
    """A transparent signature picture (/SMask) lying over the contractor's name and the kept
    text next to it: the box changes only the pixels under it, the rest keeps its look."""
    doc = pymupdf.open(stream=_base(), filetype="pdf")
    page = doc[0]
    (hit,) = [w for w in page.get_text("words") if w[4] == "Novák,"]
    page.insert_image(
        pymupdf.Rect(hit[0] - 80, hit[1] - 10, hit[2] + 120, hit[3] + 10), stream=_png_with_alpha(200, 40)
    )
    return Adversarial("signature_over_name", doc.tobytes(), BODY_SECRETS)


def picture_of_text() -> Adversarial:
    """An ID card pasted as a picture on a text page: visible, invisible to text extraction."""
    card = pymupdf.open()
    page = card.new_page(width=300, height=90)
    page.insert_text((10, 30), "OBCANSKY PRUKAZ", fontsize=12)
    page.insert_text((10, 55), f"{HIDDEN}  {HIDDEN_NUMBER}", fontsize=14)
    pix = page.get_pixmap(dpi=200)
    doc = pymupdf.open(stream=_base(), filetype="pdf")
    doc[0].insert_image(pymupdf.Rect(56, 450, 356, 540), pixmap=pix)
    return Adversarial("picture_of_text", doc.tobytes(), [HIDDEN, HIDDEN_NUMBER], pictured=True)


def picture_with_shifted_layer() -> Adversarial:
    """A pasted picture of the contractor's details with another tool's invisible OCR layer one
    line lower than the pixels: boxes must follow the pixels, not the layer."""
    card = pymupdf.open()
    page = card.new_page(width=360, height=80)
    page.insert_text((10, 25), "Zhotovitel: Karel Vomacka", fontsize=14)
    page.insert_text((10, 55), f"rodne cislo {HIDDEN_NUMBER}", fontsize=14)
    pix = page.get_pixmap(dpi=200)
    doc = pymupdf.open(stream=_base([p for p in BODY if not p.startswith("Zhotovitel")]), filetype="pdf")
    target = doc[0]
    where = pymupdf.Rect(56, 400, 416, 480)
    target.insert_image(where, pixmap=pix)
    writer = pymupdf.TextWriter(target.rect)
    font = pymupdf.Font("helv")
    for x0, _y0, _x1, y1, word, *_ in page.get_text("words"):
        writer.append((where.x0 + x0, where.y0 + y1 + 30), word, font=font, fontsize=14)  # a line off
    writer.write_text(target, render_mode=3)
    return Adversarial("picture_with_shifted_layer", doc.tobytes(), [HIDDEN, HIDDEN_NUMBER], pictured=True)


def vector_outline_text() -> Adversarial:
    """The contract with every glyph drawn as a vector outline (no text at all)."""
    src = pymupdf.open(stream=_base(), filetype="pdf")
    svg = src[0].get_svg_image(text_as_path=True)
    doc = pymupdf.open(stream=svg.encode(), filetype="svg")
    return Adversarial("vector_outline_text", doc.convert_to_pdf(), BODY_SECRETS, pictured=True)


def small_picture_with_shifted_layer() -> Adversarial:
    """A small pasted picture of one line (smaller than the pictures read for their own sake)
    with another tool's invisible OCR layer a line lower than its pixels."""
    card = pymupdf.open()
    page = card.new_page(width=260, height=24)
    page.insert_text((4, 17), f"Zhotovitel: {HIDDEN}", fontsize=14)
    pix = page.get_pixmap(dpi=200)
    doc = pymupdf.open(stream=_base([p for p in BODY if not p.startswith("Zhotovitel")]), filetype="pdf")
    target = doc[0]
    where = pymupdf.Rect(56, 420, 186, 432)  # 130 x 12 points
    target.insert_image(where, pixmap=pix)
    writer = pymupdf.TextWriter(target.rect)
    x = where.x0
    for word in ("Zhotovitel:", *HIDDEN.split()):
        writer.append((x, where.y1 + 12), word, font=pymupdf.Font("helv"), fontsize=7)  # a line off
        x += pymupdf.Font("helv").text_length(word + " ", fontsize=7)
    writer.write_text(target, render_mode=3)
    return Adversarial("small_picture_with_shifted_layer", doc.tobytes(), [HIDDEN], pictured=True)


def outline_party_block() -> Adversarial:
    """The contractor's line drawn as vector outlines on a page whose other text is ordinary
    text (a party block pasted from another program as graphics)."""
    line = pdf_from_paragraphs([f"Zhotovitel: {HIDDEN}, rodne cislo {HIDDEN_NUMBER}"])
    svg = pymupdf.open(stream=line, filetype="pdf")[0].get_svg_image(text_as_path=True)
    art = pymupdf.open(stream=pymupdf.open(stream=svg.encode(), filetype="svg").convert_to_pdf(), filetype="pdf")
    doc = pymupdf.open(stream=_base([p for p in BODY if not p.startswith("Zhotovitel")]), filetype="pdf")
    doc[0].show_pdf_page(pymupdf.Rect(0, 380, 595, 500), art, 0, clip=pymupdf.Rect(0, 0, 595, 120))
    return Adversarial("outline_party_block", doc.tobytes(), [HIDDEN, HIDDEN_NUMBER], pictured=True)


def _glyph_paths(paragraphs: list[str]) -> tuple[list[list[tuple[str, list[float]]]], tuple[float, float]]:
    """The glyphs of ``paragraphs`` set as a page (:func:`~tests.pdfs.pdf_from_paragraphs`) as
    vector outlines, each glyph a list of path operators with their points in the page's own
    coordinates (PDF user space, no ``cm`` left), and the page's size."""
    page_pdf = pdf_from_paragraphs(paragraphs)
    src = pymupdf.open(stream=page_pdf, filetype="pdf")
    size = (src[0].rect.width, src[0].rect.height)
    svg = src[0].get_svg_image(text_as_path=True)
    art = pymupdf.open(stream=svg.encode(), filetype="svg").convert_to_pdf()
    glyphs: list[list[tuple[str, list[float]]]] = []
    with pikepdf.open(io.BytesIO(art)) as pdf:
        ctm, stack, current = pymupdf.Matrix(1, 1), [], []
        for operands, op in pikepdf.parse_content_stream(pdf.pages[0]):
            name = str(op)
            values = [float(v) for v in operands] if name in ("cm", "m", "l", "c", "v", "y") else []
            if name == "q":
                stack.append(ctm)
            elif name == "Q":
                ctm = stack.pop()
            elif name == "cm":
                ctm = pymupdf.Matrix(*values) * ctm
            elif name in ("m", "l", "c", "v", "y"):
                points = []
                for i in range(0, len(values), 2):
                    point = pymupdf.Point(values[i], values[i + 1]) * ctm
                    points += [point.x, size[1] - point.y]  # the drawing's y runs down the page
                current.append((name, points))
            elif name == "h":
                current.append(("h", []))
            elif name in ("f", "f*", "S", "B"):
                glyphs.append(current)
                current = []
    return glyphs, size


def _path_ops(glyph: list[tuple[str, list[float]]]) -> bytes:
    return b" ".join(b" ".join(f"{v:.3f}".encode() for v in points) + b" " + op.encode() for op, points in glyph)


def _outlined(paragraphs: list[str], outlined: str, how: str) -> bytes:
    """A contract page whose paragraphs are ordinary text except ``outlined`` (one of them),
    drawn as vector outlines ``how``: ``"one path"`` (the whole line one filled path of many
    subpaths, no glyph-sized path on the page), ``"stroked"`` (each glyph's outline stroked, not
    filled) or ``"page one path"`` (every line of the page so, and no text at all)."""
    doc = pymupdf.open(
        stream=_base([p for p in paragraphs if p != outlined and how != "page one path"]), filetype="pdf"
    )
    if how == "page one path":
        glyphs, size = _glyph_paths(paragraphs)
        lines: dict[int, list] = {}
        for glyph in glyphs:
            baseline = round(min(pt for op, pts in glyph for pt in pts[1::2]) / 8) if glyph else 0
            lines.setdefault(baseline, []).extend(glyph)
        content = b"0 0 0 rg " + b" ".join(_path_ops(g) + b" f" for g in lines.values())
        doc[0].set_mediabox(pymupdf.Rect(0, 0, *size))
    else:
        glyphs, size = _glyph_paths([outlined])
        # the line lies at the top of its own page: moved down to where the party entry stands
        # (its top 420 points from the top of the page)
        top = max(v for g in glyphs for _op, pts in g for v in pts[1::2])
        shift = (size[1] - 420.0) - top
        moved = [[(op, [v + (shift if k % 2 else 0) for k, v in enumerate(pts)]) for op, pts in g] for g in glyphs]
        if how == "one path":
            content = b"0 0 0 rg " + b" ".join(_path_ops(g) for g in moved) + b" f"
        else:
            content = b"0 0 0 RG 0.6 w " + b" ".join(_path_ops(g) + b" S" for g in moved)
    data = doc.tobytes()

    def change(pdf):
        pdf.pages[0].contents_add(pdf.make_stream(b"q " + content + b" Q"), prepend=False)

    return _edit(data, change)


def outline_line_one_path() -> Adversarial:
    """The contractor's line drawn as one filled vector path with a subpath per glyph outline (no
    glyph-sized path to count), on a page whose other text is ordinary text."""
    line = f"Zhotovitel: {HIDDEN}, rodne cislo {HIDDEN_NUMBER}"
    pdf = _outlined([*[p for p in BODY if not p.startswith("Zhotovitel")], line], line, "one path")
    return Adversarial("outline_line_one_path", pdf, [HIDDEN, HIDDEN_NUMBER], pictured=True)


def outline_glyphs_stroked() -> Adversarial:
    """The contractor's line drawn as stroked glyph outlines (hollow letters, no filled path)."""
    line = f"Zhotovitel: {HIDDEN}, rodne cislo {HIDDEN_NUMBER}"
    pdf = _outlined([*[p for p in BODY if not p.startswith("Zhotovitel")], line], line, "stroked")
    return Adversarial("outline_glyphs_stroked", pdf, [HIDDEN, HIDDEN_NUMBER], pictured=True)


def outline_page_one_path_per_line() -> Adversarial:
    """The whole contract drawn as vector outlines, each line one filled path: no text and no
    glyph-sized path on the page."""
    pdf = _outlined(BODY, "", "page one path")
    return Adversarial("outline_page_one_path_per_line", pdf, BODY_SECRETS, pictured=True)


def _soft_masked(base: tuple[int, int] | None) -> bytes:
    """The contract as a page-sized black image whose letters exist only in its /SMask (200 dpi):
    the base image is ``base`` pixels (one black pixel stretched over the page, say) or, with
    None, as large as the mask."""
    import zlib

    src = pymupdf.open(stream=_base(), filetype="pdf")
    pix = src[0].get_pixmap(dpi=200, colorspace=pymupdf.csGRAY)
    alpha = bytes(255 - b for b in pix.samples)  # ink is opaque, paper transparent
    width, height = base or (pix.width, pix.height)
    doc = pymupdf.open()
    doc.new_page(width=src[0].rect.width, height=src[0].rect.height)

    def image(pdf: pikepdf.Pdf, data: bytes, w: int, h: int) -> pikepdf.Stream:
        stream = pikepdf.Stream(pdf, zlib.compress(data))
        stream.Type, stream.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
        stream.Width, stream.Height, stream.BitsPerComponent = w, h, 8
        stream.ColorSpace, stream.Filter = pikepdf.Name.DeviceGray, pikepdf.Name.FlateDecode
        return stream

    def change(pdf):
        picture = image(pdf, bytes(width * height), width, height)
        picture.SMask = image(pdf, alpha, pix.width, pix.height)
        page = pdf.pages[0]
        page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=picture))
        w, h = float(page.mediabox[2]), float(page.mediabox[3])
        page.obj.Contents = pdf.make_stream(f"q {w} 0 0 {h} 0 0 cm /Im0 Do Q".encode())

    return _edit(doc.tobytes(), change)


def soft_mask_scan() -> Adversarial:
    """A scan whose letters exist only through an image's soft mask: a one-pixel black image
    stretched over the page, the contract's glyphs in its full-resolution /SMask. Every viewer
    shows a clean contract."""
    return Adversarial("soft_mask_scan", _soft_masked((1, 1)), BODY_SECRETS, pictured=True)


def soft_mask_scan_full() -> Adversarial:
    """The same with a black base image as large as its /SMask."""
    return Adversarial("soft_mask_scan_full", _soft_masked(None), BODY_SECRETS, pictured=True)


def surname_in_own_email() -> Adversarial:
    """A private party whose surname is in no gazetteer and also stands, without diacritics, in
    the party's own e-mail address; a later sentence names the party by the surname alone."""
    body = [
        "SMLOUVA O NÁJMU",
        "Pronajímatel: Petr Kolbaba, nar. 12. 3. 1980, bytem Lipová 12, 602 00 Brno, e-mail: petr.kolbaba12@seznam.cz",
        "Nájemce: Město Kyjov, IČO: 00285030, zastoupené starostou Mgr. Františkem Lukáškem",
        "Pan Kolbaba souhlasí s podmínkami nájmu. Nájemné se platí panu Kolbabovi měsíčně.",
    ]
    return Adversarial("surname_in_own_email", _base(body), ["Kolbaba", "Kolbabovi", "kolbaba12"])


def font_without_unicode() -> Adversarial:
    """The contract's fonts stripped of their ToUnicode maps: glyphs without meaning."""

    def change(pdf):
        for page in pdf.pages:
            for font in (page.obj.Resources.get("/Font") or {}).values():
                for f in [font, *(font.get("/DescendantFonts") or [])]:
                    if "/ToUnicode" in f:
                        del f["/ToUnicode"]

    return Adversarial("font_without_unicode", _edit(_base(), change), BODY_SECRETS, pictured=True)


def type3_opaque_names() -> Adversarial:
    """The contractor's line set in a Type3 bitmap font whose glyphs are named /g1, /g2, ...
    without a ToUnicode map: drawn letters that no extractor can name."""
    line = "Zhotovitel: Karel Vomacka, rodne cislo " + HIDDEN_NUMBER
    chars = sorted(set(line))
    procs, widths = {}, []
    size = 40  # points of the cell each glyph is drawn in before it becomes a bitmap

    def change(pdf):
        helv = pymupdf.Font("helv")
        for i, ch in enumerate(chars, start=1):
            advance = max(1, round(helv.text_length(ch, fontsize=1000)))  # glyph units, as Helvetica
            cell = pymupdf.open()
            page = cell.new_page(width=size * advance / 1000, height=size)
            page.insert_text((0, size * 0.8), ch, fontsize=size)
            pix = page.get_pixmap(colorspace=pymupdf.csGRAY, dpi=144)
            bits = bytearray()
            for y in range(pix.height):
                row = 0
                for x in range(pix.width):
                    row = (row << 1) | (0 if pix.pixel(x, y)[0] < 128 else 1)  # 0 bits are painted
                pad = (-pix.width) % 8
                bits += ((row << pad) | ((1 << pad) - 1)).to_bytes((pix.width + pad) // 8, "big")
            head = f"{advance} 0 0 0 {advance} 1000 d1 q {advance} 0 0 -1000 0 800 cm "
            head += f"BI /W {pix.width} /H {pix.height} /IM true /BPC 1 ID "
            procs[f"/g{i}"] = pdf.make_stream(head.encode() + bytes(bits) + b" EI Q")
            widths.append(advance)
        font = pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.Font,
                Subtype=pikepdf.Name.Type3,
                FontBBox=[0, 0, 1000, 1000],
                FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
                CharProcs=pikepdf.Dictionary(procs),
                Encoding=pikepdf.Dictionary(
                    Type=pikepdf.Name.Encoding,
                    Differences=[1, *[pikepdf.Name(f"/g{i}") for i in range(1, len(chars) + 1)]],
                ),
                FirstChar=1,
                LastChar=len(chars),
                Widths=widths,
                Resources=pikepdf.Dictionary(),
            )
        )
        codes = bytes(chars.index(c) + 1 for c in line)
        content = b"BT /T3 12 Tf 56 400 Td <" + codes.hex().encode() + b"> Tj ET"
        _append_content(pdf, pdf.pages[0], content, Font={"T3": font})

    body = [p for p in BODY if not p.startswith("Zhotovitel")]
    return Adversarial("type3_opaque_names", _edit(_base(body), change), [HIDDEN, HIDDEN_NUMBER], pictured=True)


BUILDERS: list[Callable[[], Adversarial]] = [
    beyond_mediabox,
    outside_cropbox,
    optional_content_off,
    tiling_pattern,
    actual_text,
    structure_alt,
    page_labels,
    bookmark_reformatted,
    open_action_uri,
    document_javascript,
    orphan_form_field,
    piece_info_and_names,
    metadata_and_attachment,
    quote_operators,
    email_across_lines,
    letter_spaced,
    user_unit,
    masked_image,
    signature_over_name,
    picture_of_text,
    picture_with_shifted_layer,
    small_picture_with_shifted_layer,
    vector_outline_text,
    outline_party_block,
    font_without_unicode,
    type3_opaque_names,
    outline_line_one_path,
    outline_glyphs_stroked,
    outline_page_one_path_per_line,
    soft_mask_scan,
    soft_mask_scan_full,
    surname_in_own_email,
]


def readable_texts(data: bytes) -> dict[str, str]:
    """Everything a reader or a tool can get out of ``data`` as text: pdftotext, PDFium, and a
    pikepdf walk of every object and decoded stream (qpdf's view of the file)."""
    import subprocess

    import pypdfium2

    texts = {"pdftotext": subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True).stdout.decode()}
    pdf = pypdfium2.PdfDocument(data)
    texts["pdfium"] = " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    pdf.close()
    chunks = []
    with pikepdf.open(io.BytesIO(data)) as doc:
        for obj in doc.objects:
            if isinstance(obj, pikepdf.Stream):
                if obj.get("/Subtype") == pikepdf.Name.Image:
                    continue
                try:
                    raw = obj.read_bytes()
                except pikepdf.PdfError:
                    raw = obj.read_raw_bytes()
                chunks.append(raw.decode("latin-1"))
                chunks.append(repr(obj.stream_dict))
            else:
                try:
                    chunks.append(repr(obj))
                except Exception:  # an object pikepdf cannot print: the others are still searched
                    continue
    texts["objects"] = "\n".join(chunks)
    return texts


def ocr_text(data: bytes) -> str:
    """What Tesseract reads on the pages of ``data`` as a reader sees them (words joined by
    spaces): the check for secrets that are drawn, not written."""
    from redactor.read.ocr import TesseractOcr

    ocr = TesseractOcr()
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        return " ".join(w.text for page in doc for w in ocr.recognize(page).words)
