"""Disguised contract PDFs: a private person's data written so that the text layer says something
other than the page shows, drawn through a picture the check might not read, or written the way
people write values rather than the way forms do. Each builder returns an
:class:`~tests.adversarial.Adversarial` (the PDF and the strings no published output may show
unless a review item names them). All names and numbers are invented; the birth numbers pass
their checksum.

Three families:

- **codes that are not the letters shown**: a ToUnicode map shifted by one (all letters, or only
  the digits), format characters (zero-width space, word joiner, soft hyphen) inside a name and a
  number, Cyrillic look-alike letters in a Latin name, decomposed accents, a name drawn one glyph
  per text-showing operator, a word split over text objects, a value split across content streams;
- **pictures painted through another path**: a bilevel CCITT G4 scan, a scan painted as a tiling
  pattern, glyphs used as a clipping path filled by an image, text filled by a shading;
- **values as people write them**: a spaced birth number, a date of birth in words, obfuscated
  e-mails, an account with unusual separators, a surname alone in other cases after one full
  mention.
"""

from __future__ import annotations

import io
import re
import unicodedata
import zlib
from collections.abc import Callable

import pikepdf
import pymupdf

from tests.adversarial import BODY, Adversarial, _edit, _latin
from tests.adversarial import _append_content as _append
from tests.pdfs import pdf_from_paragraphs

#: The contract without its contractor: each builder writes the contractor its own way.
OTHERS = [p for p in BODY if not p.startswith("Zhotovitel")]
#: A font with Latin, Czech, Cyrillic and the format characters (drawn with zero width).
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#: Where the contractor's line is written (points from the top left), below the contract's text.
LINE_AT = (56, 420)


def _with_line(text: str, body: list[str] | None = None, size: float = 11) -> bytes:
    """The contract ``body`` (default :data:`OTHERS`) with ``text`` written by PyMuPDF in DejaVu
    Sans at :data:`LINE_AT`: the code points go into the text layer as they are."""
    doc = pymupdf.open(stream=pdf_from_paragraphs(body if body is not None else OTHERS), filetype="pdf")
    doc[0].insert_text(LINE_AT, text, fontname="dj", fontfile=DEJAVU, fontsize=size)
    return doc.tobytes()


def _append_content(pdf: pikepdf.Pdf, page: pikepdf.Page, content: bytes, **resources) -> None:
    """:func:`tests.adversarial._append_content` in the page's default space."""
    _append(pdf, page, content, default_space=True, **resources)


# -- codes that are not the letters shown ---------------------------------------------------
def _shift_to_unicode(cmap: str, shifted: Callable[[str], bool]) -> str:
    """``cmap`` (a ToUnicode CMap) with each destination character for which ``shifted`` holds
    replaced by the next code point: the layer says other letters than the glyphs show."""
    pairs: dict[int, int] = {}
    for block in re.findall(r"beginbfrange(.*?)endbfrange", cmap, re.S):
        for a, b, dest in re.findall(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>", block):
            for i in range(int(a, 16), int(b, 16) + 1):
                pairs[i] = int(dest, 16) + i - int(a, 16)
    for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
        for code, dest in re.findall(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]{4})>", block):
            pairs[int(code, 16)] = int(dest, 16)
    head = cmap[: cmap.index("endcodespacerange") + len("endcodespacerange")]
    lines = [f"<{code:04x}> <{(dest + 1 if shifted(chr(dest)) else dest):04x}>" for code, dest in sorted(pairs.items())]
    chunks = [lines[i : i + 100] for i in range(0, len(lines), 100)]
    body = "".join(f"\n{len(c)} beginbfchar\n" + "\n".join(c) + "\nendbfchar" for c in chunks)
    return head + body + "\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"


def _lying_map(name: str, shifted: Callable[[str], bool], secrets: list[str]) -> Adversarial:
    def change(pdf):
        for font in pdf.pages[0].Resources.Font.values():
            if "/ToUnicode" in font:
                font.ToUnicode = pdf.make_stream(
                    _shift_to_unicode(font.ToUnicode.read_bytes().decode(), shifted).encode()
                )

    return Adversarial(name, _edit(pdf_from_paragraphs(BODY), change), secrets, pictured=True)


def to_unicode_shifted() -> Adversarial:
    """Every letter and digit of the text layer one code point after the glyph shown ("Kbo Opwâl")."""
    return _lying_map("to_unicode_shifted", lambda c: c.isalnum(), ["Novák", "Lipová 12", "12. 3. 1980"])


def to_unicode_digits_shifted() -> Adversarial:
    """Only the digits lie: the layer's words read well, its numbers are not those shown."""
    body = [*OTHERS[:2], "Zhotovitel: Jan Novák, r. č. 780101/1229, č. účtu 2000145399/0800", *OTHERS[2:]]

    def change(pdf):
        for font in pdf.pages[0].Resources.Font.values():
            if "/ToUnicode" in font:
                cmap = _shift_to_unicode(font.ToUnicode.read_bytes().decode(), lambda c: "0" <= c <= "8")
                font.ToUnicode = pdf.make_stream(cmap.encode())

    return Adversarial(
        "to_unicode_digits_shifted",
        _edit(pdf_from_paragraphs(body), change),
        ["Novák", "780101/1229", "2000145399/0800"],
        pictured=True,
    )


def format_characters() -> Adversarial:
    """A zero-width space inside the surname, a word joiner inside the birth number, a soft
    hyphen inside the street: invisible, yet each splits the value for a recognizer."""
    line = "Zhotovitel: Jan No\u200bvák, r. č. 780101/12\u206029, bytem Lipo\u00advá 12, 602 00 Brno"
    return Adversarial("format_characters", _with_line(line), ["Novák", "780101/1229"], pictured=True)


def cyrillic_look_alikes() -> Adversarial:
    """Cyrillic а, о, е, р inside the Latin name: the page shows "Jan Novák", the layer holds
    code points no Czech gazetteer lists."""
    line = "Zhotovitel: J\u0430n N\u043evák, nar. 12. 3. 1980, bytem Lip\u043evá 12, 602 00 Brno"
    return Adversarial("cyrillic_look_alikes", _with_line(line), ["Novák", "Lipová 12", "12. 3. 1980"], pictured=True)


def decomposed_accents() -> Adversarial:
    """The contractor's line in Unicode NFD: "a" and a combining acute for "á"."""
    line = unicodedata.normalize("NFD", "Zhotovitel: Tomáš Řezníček, nar. 12. 3. 1980, bytem Lipová 12, 602 00 Brno")
    return Adversarial("decomposed_accents", _with_line(line), ["Řezníček", "Lipová 12"], pictured=True)


def one_glyph_per_show() -> Adversarial:
    """The contractor's name drawn one glyph per ``Tj``, each placed by its own ``Td``: no
    space and no gap says where a word ends but the geometry."""
    font = pymupdf.Font("helv")
    x, parts = 56.0, []
    text = "Zhotovitel: Karel Vomacka, bytem Lipova 12, Brno"
    for ch in text:
        parts.append(f"BT /FAdv 11 Tf {x:.2f} 400 Td (".encode() + _latin(ch) + b") Tj ET")
        x += font.text_length(ch, fontsize=11) + (1.5 if ch != " " else 3)

    def change(pdf):
        _append_content(pdf, pdf.pages[0], b"\n".join(parts))

    return Adversarial("one_glyph_per_show", _edit(pdf_from_paragraphs(OTHERS), change), ["Vomacka", "Lipova 12"])


def word_split_over_objects() -> Adversarial:
    """The surname and the birth number each split over two text objects drawn side by side."""
    font = pymupdf.Font("helv")
    pieces = ["Zhotovitel: Karel Vom", "acka, r. c. 7801", "01/1229, bytem Lipova 12, Brno"]
    x, parts = 56.0, []
    for piece in pieces:
        parts.append(f"BT /FAdv 11 Tf {x:.2f} 400 Td (".encode() + _latin(piece) + b") Tj ET")
        x += font.text_length(piece, fontsize=11)

    def change(pdf):
        _append_content(pdf, pdf.pages[0], b"\n".join(parts))

    return Adversarial(
        "word_split_over_objects", _edit(pdf_from_paragraphs(OTHERS), change), ["Vomacka", "780101/1229"]
    )


def value_split_over_streams() -> Adversarial:
    """The surname and the birth number each cut in two, the halves in two content streams of
    the page (the page's ``/Contents`` array), drawn at adjacent places."""
    font = pymupdf.Font("helv")
    first, second = "Zhotovitel: Karel Vom", "acka, r. c. 780101/1229, bytem Lipova 12"
    x = 56 + font.text_length(first, fontsize=11)

    def change(pdf):
        _append_content(pdf, pdf.pages[0], b"BT /FAdv 11 Tf 56 400 Td (" + _latin(first) + b") Tj ET")
        content = f"q BT /FAdv 11 Tf {x:.2f} 400 Td (".encode() + _latin(second) + b") Tj ET Q"
        pdf.pages[0].contents_add(pdf.make_stream(content), prepend=False)

    return Adversarial(
        "value_split_over_streams", _edit(pdf_from_paragraphs(OTHERS), change), ["Vomacka", "780101/1229"]
    )


# -- pictures painted through another path --------------------------------------------------
#: The contractor as a pasted scan shows him (ASCII: the scans are printed in a base font).
SCANNED = ["Zhotovitel: Karel Vomacka", "r. c. 780101/1229, tel. 603 181 272", "bytem Lipova 12, 602 00 Brno"]


def _picture(lines: list[str], width: int = 420, height: int = 80, dpi: int = 200) -> pymupdf.Pixmap:
    card = pymupdf.open()
    page = card.new_page(width=width, height=height)
    for i, line in enumerate(lines):
        page.insert_text((8, 20 + 22 * i), line, fontsize=13)
    return page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)


def _g4(pix: pymupdf.Pixmap) -> tuple[bytes, int, int]:
    """``pix`` as bilevel CCITT Group 4 data (Pillow's TIFF encoder, its one strip)."""
    from PIL import Image

    image = Image.frombytes("L", (pix.width, pix.height), pix.samples).point(lambda v: 255 if v > 128 else 0)
    out = io.BytesIO()
    image.convert("1").save(out, format="TIFF", compression="group4")
    tiff = Image.open(io.BytesIO(out.getvalue()))
    offsets, counts = tiff.tag_v2[273], tiff.tag_v2[279]
    data = out.getvalue()
    strip = b"".join(data[o : o + n] for o, n in zip(offsets, counts, strict=True))
    return strip, pix.width, pix.height


def ccitt_scan() -> Adversarial:
    """The contractor's details as a bilevel scan compressed with CCITT Group 4 (a fax, an old
    scanner's default), placed on the text page."""
    strip, w, h = _g4(_picture(SCANNED))

    def change(pdf):
        image = pdf.make_stream(strip)
        image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
        image.Width, image.Height, image.BitsPerComponent = w, h, 1
        image.ColorSpace = pikepdf.Name.DeviceGray
        image.Filter = pikepdf.Name.CCITTFaxDecode
        image.DecodeParms = pikepdf.Dictionary(K=-1, Columns=w, Rows=h, BlackIs1=True)
        _append_content(pdf, pdf.pages[0], b"q 420 0 0 80 56 340 cm /Scan Do Q", XObject={"Scan": image})

    return Adversarial(
        "ccitt_scan", _edit(pdf_from_paragraphs(OTHERS), change), ["Vomacka", "780101/1229"], pictured=True
    )


def _image_stream(pdf: pikepdf.Pdf, pix: pymupdf.Pixmap) -> pikepdf.Stream:
    image = pdf.make_stream(zlib.compress(pix.samples), Filter=pikepdf.Name.FlateDecode)
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.Width, image.Height, image.BitsPerComponent = pix.width, pix.height, 8
    image.ColorSpace = pikepdf.Name.DeviceGray
    return image


def pattern_scan() -> Adversarial:
    """The contractor's scan painted as a tiling pattern filling a rectangle (one tile, drawn
    once): no image is placed on the page, a pattern is."""
    pix = _picture(SCANNED)

    def change(pdf):
        cell = pdf.make_stream(b"q 420 0 0 80 0 0 cm /Im Do Q")
        cell.Type, cell.PatternType, cell.PaintType, cell.TilingType = pikepdf.Name.Pattern, 1, 1, 1
        cell.BBox, cell.XStep, cell.YStep = [0, 0, 420, 80], 1000, 1000
        cell.Matrix = [1, 0, 0, 1, 56, 340]
        cell.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im=_image_stream(pdf, pix)))
        _append_content(pdf, pdf.pages[0], b"/Pattern cs /P1 scn 56 340 420 80 re f", Pattern={"P1": cell})

    return Adversarial(
        "pattern_scan", _edit(pdf_from_paragraphs(OTHERS), change), ["Vomacka", "780101/1229"], pictured=True
    )


def glyphs_clip_an_image() -> Adversarial:
    """The contractor's line set in text render mode 7 (the glyphs only clip) and a dark image
    painted through that clip: the letters are the image's pixels, no text is drawn."""
    pix = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 64, 8), False)
    pix.set_rect(pix.irect, (20,))
    line = _latin("Zhotovitel: Karel Vomacka, r. c. 780101/1229, bytem Lipova 12")

    def change(pdf):
        content = b"BT 7 Tr /FAdv 12 Tf 56 400 Td (" + line + b") Tj ET 480 0 0 20 50 395 cm /Ink Do"
        _append_content(pdf, pdf.pages[0], content, XObject={"Ink": _image_stream(pdf, pix)})

    return Adversarial(
        "glyphs_clip_an_image", _edit(pdf_from_paragraphs(OTHERS), change), ["Vomacka", "780101/1229"], pictured=True
    )


def text_filled_by_shading() -> Adversarial:
    """The contractor's line as a clip (render mode 7) filled by an axial shading (``sh``)."""
    line = _latin("Zhotovitel: Karel Vomacka, r. c. 780101/1229, bytem Lipova 12")

    def change(pdf):
        function = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0.1], C1=[0.3], N=1)
        shading = pikepdf.Dictionary(
            ShadingType=2, ColorSpace=pikepdf.Name.DeviceGray, Coords=[50, 0, 540, 0], Function=function
        )
        content = b"BT 7 Tr /FAdv 12 Tf 56 400 Td (" + line + b") Tj ET /Sh1 sh"
        _append_content(pdf, pdf.pages[0], content, Shading={"Sh1": shading})

    return Adversarial(
        "text_filled_by_shading", _edit(pdf_from_paragraphs(OTHERS), change), ["Vomacka", "780101/1229"], pictured=True
    )


# -- values as people write them ------------------------------------------------------------
def _written(name: str, lines: list[str], secrets: list[str]) -> Adversarial:
    return Adversarial(name, pdf_from_paragraphs([*OTHERS[:2], *lines, *OTHERS[2:]]), secrets)


def spaced_birth_number() -> Adversarial:
    return _written(
        "spaced_birth_number",
        ["Zhotovitel: Jan Novák, rodné číslo 72 05 18 / 1038, bytem Lipová 12, 602 00 Brno"],
        ["72 05 18 / 1038", "Novák"],
    )


def birth_date_in_words() -> Adversarial:
    return _written(
        "birth_date_in_words",
        ["Zhotovitelka: Jana Nováková, narozena osmého června 1981, bytem Lipová 12, 602 00 Brno"],
        ["osmého června 1981", "Nováková"],
    )


def obfuscated_emails() -> Adversarial:
    return _written(
        "obfuscated_emails",
        [
            "Zhotovitel: Jan Novák, bytem Lipová 12, 602 00 Brno",
            "Kontakt zhotovitele: jan.novak(zavináč)post.cz, náhradní adresa novak.jan[at]email[dot]cz,"
            " mobil 6 0 3 1 8 1 2 7 2",
        ],
        ["jan.novak", "novak.jan", "6 0 3 1 8 1 2 7 2"],
    )


def account_separators() -> Adversarial:
    return _written(
        "account_separators",
        [
            "Zhotovitel: Jan Novák, bytem Lipová 12, 602 00 Brno",
            "Cena bude uhrazena na účet zhotovitele č. 19 – 2000145399 \\ 0800.",
            "Zálohy na účet 2000 1453 99 / 0800.",
        ],
        ["2000145399", "2000 1453 99"],
    )


def surname_alone_in_cases() -> Adversarial:
    return _written(
        "surname_alone_in_cases",
        [
            "Zhotovitel: Radomír Šťastný, nar. 12. 3. 1980, bytem Lipová 12, 602 00 Brno",
            "Objednatel předá Šťastnému staveniště do 5 dnů. Bez souhlasu Šťastného nelze dílo měnit; "
            "se Šťastným bude sepsán zápis.",
        ],
        ["Šťastný", "Šťastnému", "Šťastného", "Šťastným"],
    )


BUILDERS: list[Callable[[], Adversarial]] = [
    to_unicode_shifted,
    to_unicode_digits_shifted,
    format_characters,
    cyrillic_look_alikes,
    decomposed_accents,
    one_glyph_per_show,
    word_split_over_objects,
    value_split_over_streams,
    ccitt_scan,
    pattern_scan,
    glyphs_clip_an_image,
    text_filled_by_shading,
    spaced_birth_number,
    birth_date_in_words,
    obfuscated_emails,
    account_separators,
    surname_alone_in_cases,
]
