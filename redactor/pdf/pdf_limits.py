"""Decompression and parse bombs: a PDF refused by what its streams inflate to, before any renderer
or text extractor meets them.

A small PDF can declare a content stream that inflates to gigabytes (Flate compresses a run of
zeros about a thousand to one), draw one large stream on hundreds of pages, or attach a file
that fills the memory when read. Such a file is measured here, stream by stream, by inflating
each in chunks of :data:`CHUNK` bytes and counting (never holding a stream's inflated bytes in
memory whole), and refused by one of :class:`PdfLimits`' limits:

- ``stream``: one stream inflating to more than :attr:`PdfLimits.stream_bytes`;
- ``document``: all streams together inflating to more than :attr:`PdfLimits.document_bytes`;
- ``drawn``: the content streams of all pages, a stream shared by several pages counted on each
  page that draws it (and the form XObjects a page names counted there too), more than
  :attr:`PdfLimits.drawn_bytes`;
- ``image``: an image declaring more than :attr:`PdfLimits.image_pixels` pixels (its decoded
  size, whatever its compression: a JPEG of 100,000 × 100,000 pixels is a few kilobytes);
- ``attachment``: an embedded file inflating to more than :attr:`PdfLimits.attachment_bytes`;
- ``structure``: a tree of the document (outline, page tree, name trees, form fields) nested
  deeper than :attr:`PdfLimits.structure_depth` levels, walked without recursion;
- ``objects``: more objects than :attr:`PdfLimits.objects`, declared, written out or packed in
  object streams.

The filters counted are those PDF defines for general data (ISO 32000-1, 7.4, table 6):
Flate alone, by far the most common, is inflated here chunk by chunk; any other chain of
``FlateDecode``, ``LZWDecode``, ``RunLengthDecode`` and the ASCII filters is decoded by qpdf only
when the most it can grow keeps it under the limit, and refused otherwise (as is a filter that is
none of these). Image filters (DCT, JPX, CCITT, JBIG2) are measured by the image's declared size.
"""

from __future__ import annotations

import io
import re
import zlib
from collections import Counter
from dataclasses import dataclass

import pikepdf

from redactor.errors import InvalidPdfError, PdfBombError

#: Inflated bytes produced per step.
CHUNK = 1 << 20
#: The most each general filter can grow its input, per input byte: Flate (deflate's longest
#: match, 258 bytes, costs at least 2 bits: ~1,032), LZW (a code of at least 9 bits stands for at
#: most 4,096 bytes: ~3,641), run-length (128 bytes from 2), the ASCII filters shrink.
_GROWTH = {
    "/FlateDecode": 1032, "/Fl": 1032, "/LZWDecode": 3641, "/LZW": 3641, "/RunLengthDecode": 64, "/RL": 64,
    "/ASCIIHexDecode": 1, "/AHx": 1, "/ASCII85Decode": 1, "/A85": 1,
}  # fmt: skip
_IMAGE_FILTERS = {"/DCTDecode", "/JPXDecode", "/CCITTFaxDecode", "/JBIG2Decode", "/DCT", "/CCF"}


@dataclass(frozen=True)
class PdfLimits:
    """What a contract's PDF may inflate to and draw (bytes, operators, pixels, objects).

    The defaults are several times what the largest contracts of the real sets need, measured by
    :func:`drawing_load` (``benchmarks/bombs.py --measure`` prints them): at most 610 objects, 9,866
    operators on a page and 516,979 in a document (a 73-page scanned inventory), 9.5 M pixels in
    one image and on one page, 71 M pixels in a document. Streams of text contracts inflate to a
    few MB."""

    stream_bytes: int = 256 * 1024 * 1024
    document_bytes: int = 1024 * 1024 * 1024
    drawn_bytes: int = 512 * 1024 * 1024
    #: Pixels one image declares (its soft mask's included): 64 M, an A1 sheet scanned at 250 dpi.
    image_pixels: int = 64_000_000
    attachment_bytes: int = 64 * 1024 * 1024
    #: Operators a page's drawing executes (counted from above: :data:`_KINDS`), a form
    #: counted each time it is painted, through every level of forms painting forms; and the same
    #: summed over the document.
    page_operators: int = 1_000_000
    document_operators: int = 10_000_000
    #: Image pixels one page decodes (each image once, inline images each time they are painted)
    #: and all the document's images together: 4 G, 450 A4 pages scanned in colour at 300 dpi.
    page_pixels: int = 100_000_000
    document_pixels: int = 4_000_000_000
    #: Objects the file declares (its cross-reference table's size) or its page tree counts.
    objects: int = 200_000
    #: How many levels of forms may paint forms (ISO 32000-1, 8.10; MuPDF stops at its own depth).
    form_depth: int = 12
    #: How deep the document's trees may nest: the outline (bookmarks through ``/First``), the
    #: page tree, name trees and the form fields (``/Kids``). Readers walk them recursively, and
    #: sixty thousand levels overflow MuPDF's C stack; the data sets nest at most a few levels.
    structure_depth: int = 256


def _filters(stream: pikepdf.Stream) -> list[str]:
    value = stream.get("/Filter")
    if value is None:
        return []
    if isinstance(value, pikepdf.Array):
        return [str(v) for v in value]
    return [str(value)]


def _inflate_flate(data: bytes, limit: int, what: str, read: _Drawing | None = None) -> int:
    """The length ``data`` inflates to, counted in chunks (each handed to ``read`` when given);
    raises :class:`PdfBombError` past ``limit``. A damaged stream counts what inflated before the
    damage (the renderer does the same)."""
    inflater = zlib.decompressobj()
    total = 0
    pending = data
    try:
        while pending:
            out = inflater.decompress(pending, CHUNK)
            total += len(out)
            if total > limit:
                raise PdfBombError("stream", f"{what} inflates to more than {limit} bytes")
            if read is not None:
                read.feed(out)
            pending = inflater.unconsumed_tail
            if not out and not pending:
                break
            if inflater.eof:
                break
    except zlib.error:
        pass
    return total


def _stream_size(stream: pikepdf.Stream, limit: int, what: str, read: _Drawing | None = None) -> int:
    """How many bytes ``stream`` decodes to (images: 0, they are measured by pixels). A stream
    of Flate alone is inflated in chunks; another chain is decoded whole only when its bounded
    growth (:data:`_GROWTH`) keeps it under ``limit``, else refused as unmeasurable. ``read``
    (a content stream's) is given the decoded bytes."""
    filters = _filters(stream)
    if stream.get("/Subtype") == "/Image" or any(f in _IMAGE_FILTERS for f in filters):
        return 0
    raw = stream.read_raw_bytes()
    if not filters:
        if read is not None:
            read.feed(raw)
        return len(raw)
    if filters in (["/FlateDecode"], ["/Fl"]):
        return _inflate_flate(raw, limit, what, read)
    growth = 1
    for f in filters:
        growth *= _GROWTH.get(f, 0)
    if not growth or len(raw) * growth > limit:
        raise PdfBombError("stream", f"{what} ({' '.join(filters)}) may inflate to more than {limit} bytes")
    try:
        decoded = stream.read_bytes()
    except pikepdf.PdfError:
        return 0  # damaged: the renderer draws nothing of it either
    if read is not None:
        read.feed(decoded)
    return len(decoded)


#: The widest row a predictor may declare (``/Columns``): 262,144 samples, over ten times an A0
#: sheet scanned at 600 dpi. A row of 2³¹ columns makes a decoder allocate gigabytes for one row.
MAX_COLUMNS = 1 << 18
_PREDICTORS = {1, 2, 10, 11, 12, 13, 14, 15}


def _check_predictors(stream: pikepdf.Stream, what: str) -> None:
    """Raise :class:`~redactor.errors.InvalidPdfError` when a stream's decode parameters
    (ISO 32000-1, 7.4.4.4, table 8) are outside what the filters define: a predictor other than
    1, 2 or 10–15, ``/Colors`` outside 1–32, ``/BitsPerComponent`` other than 1, 2, 4, 8, 16, or
    ``/Columns`` outside 1–:data:`MAX_COLUMNS`. Such a stream is damaged or built to exhaust a
    decoder; nothing decodes it."""
    parms = stream.get("/DecodeParms")
    for parm in parms if isinstance(parms, pikepdf.Array) else [parms]:
        if not isinstance(parm, pikepdf.Dictionary):
            continue
        try:
            predictor = int(parm.get("/Predictor", 1))
            colors = int(parm.get("/Colors", 1))
            bits = int(parm.get("/BitsPerComponent", 8))
            columns = int(parm.get("/Columns", 1))
        except (TypeError, ValueError):
            raise InvalidPdfError(f"{what}: decode parameters that are no numbers") from None
        if predictor not in _PREDICTORS or not 1 <= colors <= 32 or bits not in (1, 2, 4, 8, 16):
            raise InvalidPdfError(f"{what}: decode parameters outside the specification")
        if not 1 <= columns <= MAX_COLUMNS:
            raise InvalidPdfError(f"{what}: a predictor row of {columns} columns")


def _pixels(stream: pikepdf.Stream) -> int:
    """The pixels an image declares, its soft mask's included."""
    try:
        pixels = max(0, int(stream.get("/Width", 0))) * max(0, int(stream.get("/Height", 0)))
    except (TypeError, ValueError):
        return 0
    mask = stream.get("/SMask")
    if isinstance(mask, pikepdf.Stream) and mask.objgen != stream.objgen:
        try:
            pixels += max(0, int(mask.get("/Width", 0))) * max(0, int(mask.get("/Height", 0)))
        except (TypeError, ValueError):
            pass
    return pixels


def check_pdf_limits(data: bytes, limits: PdfLimits | None = None, *, opened: pikepdf.Pdf | None = None) -> DrawingLoad:
    """Raise :class:`PdfBombError` when the PDF ``data`` passes one of ``limits`` (see the module),
    else return what it draws (:func:`drawing_load`);
    a file qpdf cannot open raises ``pikepdf.PdfError`` or ``pikepdf.PasswordError`` (the caller
    reports damage or the password). ``opened``: ``data`` already opened by qpdf (read only, left
    open), when the caller runs other checks on it too. Memory: the file and one chunk of
    inflated bytes at a time; time: one pass over the streams, nothing drawn or interpreted."""
    limits = limits or PdfLimits()
    check_declared_objects(data, limits)
    if opened is None:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            return drawing_load(pdf, limits)
    return drawing_load(opened, limits)


_SIZE = re.compile(rb"/Size[\x00\t\n\f\r ]*([0-9]{1,12})")
_INDEX = re.compile(rb"/Index[\x00\t\n\f\r ]*\[([0-9\x00\t\n\f\r ]{0,4000})\]")


def check_declared_objects(data: bytes, limits: PdfLimits | None = None) -> None:
    """Raise :class:`PdfBombError` (``objects``) when the file ``data`` declares more objects than
    ``limits`` allow, read from its bytes before qpdf builds its tables of them (3 million objects
    packed in object streams take qpdf a gigabyte just to open): the largest ``/Size`` of a
    trailer or cross-reference stream (ISO 32000-1, 7.5.5 and 7.5.8.2), the objects its ``/Index``
    ranges list, and the objects written out (``endobj``), which a damaged file is rebuilt from."""
    limit = (limits or PdfLimits()).objects
    declared = max((int(size) for size in _SIZE.findall(data)), default=0)
    for ranges in _INDEX.findall(data):
        numbers = [int(n) for n in ranges.split()]
        declared = max(declared, sum(numbers[1::2]))
    declared = max(declared, data.count(b"endobj"), _packed_objects(data))
    if declared > limit:
        raise PdfBombError("objects", f"the file declares {declared} objects")


#: ``/N count`` in a dictionary: the objects an object stream holds (ISO 32000-1, 7.5.7, table 16).
_PACKED = re.compile(rb"/N(?![^\x00\t\n\f\r \[\]()<>{}/%])[\x00\t\n\f\r ]*([0-9]{1,12})")


def _packed_objects(data: bytes) -> int:
    """The objects all the object streams of ``data`` say they hold (the sum of their ``/N``),
    read from the bytes: a damaged file's repair reads them all, whatever its cross-reference
    table declares. An object stream's dictionary is never inside another object stream (7.5.7),
    so each stands in the file's bytes, between its ``obj`` and its ``stream`` keywords."""
    total = 0
    at = data.find(b"/ObjStm")
    while at >= 0:
        begin = data.rfind(b"obj", max(0, at - 4096), at)
        end = data.find(b"stream", at, at + 4096)
        found = _PACKED.search(data, begin if begin >= 0 else max(0, at - 4096), end if end >= 0 else at + 4096)
        if found:
            total += int(found.group(1))
        at = data.find(b"/ObjStm", at + 7)
    return total


#: PDF's white-space and delimiter bytes (ISO 32000-1, 7.2.2): what ends a token.
_ENDS = rb"\x00\t\n\f\r \[\]()<>{}/%"
#: What can end an operator (ISO 32000-1, 7.2.2 and 8.2): a run of white space after a token, or a
#: delimiter that closes an operand. Every operator is followed by one of these or by the end of
#: the stream, so counting them bounds the operators from above. Counted on a copy of the bytes
#: translated to three kinds (white space " ", closing delimiter "|", anything else "a"), in C,
#: without a Python object per token.
_KINDS = bytes(32 if b in b"\x00\t\n\f\r " else 124 if b in b")]>}" else 97 for b in range(256))
#: ``/Name Do``: an XObject painted (ISO 32000-1, 8.8).
_PAINT = re.compile(rb"/([^" + _ENDS + rb"]{1,127})[\x00\t\n\f\r ]*Do(?![^" + _ENDS + rb"])")
#: The other ways a content stream names a resource that draws (ISO 32000-1): ``/GS gs`` (an
#: ExtGState, whose soft mask paints a transparency group, 11.6.5), ``/Sh sh`` (a shading, 8.7.4),
#: ``/P scn`` (a pattern as the colour, 8.7.3) and ``/F size Tf`` (a font: a Type 3 font's glyphs
#: are content streams, 9.6.5).
_USES = {
    kind: re.compile(rb"/([^" + _ENDS + rb"]{1,127})[\x00\t\n\f\r ]*" + op + rb"(?![^" + _ENDS + rb"])")
    for kind, op in (
        ("gs", rb"gs"),
        ("sh", rb"sh"),
        ("scn", rb"(?:scn|SCN)"),
        ("Tf", rb"[-+0-9.]{1,32}[\x00\t\n\f\r ]*Tf"),
    )
}
#: ``BI … ID``: an inline image's dictionary (ISO 32000-1, 8.9.7), read for its size.
_INLINE = re.compile(rb"(?<![^" + _ENDS + rb"])BI[\x00\t\n\f\r ](.{0,4000}?)[\x00\t\n\f\r ]ID[\x00\t\n\f\r ]", re.S)
_INLINE_SIZE = re.compile(rb"/(W|Width|H|Height)[\x00\t\n\f\r ]*([0-9]{1,12})")
#: Bytes of an unfinished token or inline-image dictionary carried into the next chunk.
_CARRY = 4096


class _Drawing:
    """What one content stream (a page's or a form's) draws, read from its decoded bytes chunk
    by chunk without holding them: operators, the XObjects it paints (name → times) and the
    pixels of its inline images. A count from above, not an interpretation (see
    :data:`_KINDS`); raises :class:`PdfBombError` once they pass ``limit``."""

    def __init__(self, limit: int, what: str) -> None:
        self.limit, self.what = limit, what
        self.operators = 0
        self.paints: Counter[str] = Counter()
        #: The names each of :data:`_USES`' operators set (kind → name → times).
        self.uses: dict[str, Counter[str]] = {kind: Counter() for kind in _USES}
        self.inline_pixels = 0
        self._tail = b""

    def feed(self, chunk: bytes) -> None:
        data = self._tail + chunk
        cut = max(data.rfind(b" "), data.rfind(b"\n"), data.rfind(b"\r"), data.rfind(b"\t"))
        begun = data.rfind(b"BI", max(0, len(data) - _CARRY))
        if begun >= 0 and data.find(b"ID", begun) < 0:
            cut = min(cut, begun)  # an inline image's dictionary continues in the next chunk
        if cut < 0 or len(data) - cut > _CARRY:
            cut = len(data)
        self._read(data[:cut])
        self._tail = data[cut:]

    def close(self) -> None:
        self._read(self._tail)
        self._tail = b""

    def _read(self, data: bytes) -> None:
        kinds = data.translate(_KINDS)
        self.operators += kinds.count(b"a ") + kinds.count(b"|") + (1 if data else 0)
        if self.operators > self.limit:
            raise PdfBombError("operators", f"{self.what} executes more than {self.limit} operators")
        if b"Do" in data:
            self.paints.update(name.decode("latin-1") for name in _PAINT.findall(data))
        for kind, pattern in _USES.items():
            if kind.encode() in data or (kind == "scn" and b"SCN" in data):
                self.uses[kind].update(name.decode("latin-1") for name in pattern.findall(data))
        if b"BI" in data:
            for header in _INLINE.findall(data):
                size = {k: int(v) for k, v in _INLINE_SIZE.findall(header)}
                self.inline_pixels += (size.get(b"W") or size.get(b"Width") or 0) * (
                    size.get(b"H") or size.get(b"Height") or 0
                )


@dataclass(frozen=True)
class PageLoad:
    """What one page makes a renderer do: ``operators`` executed (forms each time painted),
    ``pixels`` decoded (each image once, inline images each time), ``content_bytes`` of content
    drawn (a form each time), ``largest_image`` (pixels), and its ``area`` (PDF points²)."""

    operators: int
    pixels: int
    content_bytes: int
    largest_image: int
    area: float

    @property
    def looks_scanned(self) -> bool:
        """Whether the page's images hold at least half its area's pixels at 100 dpi: a scanned
        page (a scanner's 150–600 dpi fill the page), not a logo. Read from the structure alone,
        for choosing the job queue before anything is drawn; extraction decides what OCR reads."""
        return self.area > 0 and self.pixels >= self.area * (100 / 72) ** 2 / 2


@dataclass(frozen=True)
class DrawingLoad:
    """:func:`drawing_load` of a document: its declared ``objects``, each page's load (page 1
    first) and the pixels of all its images together (each image once)."""

    objects: int
    pages: list[PageLoad]
    pixels: int
    #: The deepest level of its trees (:func:`structure_depth`).
    depth: int = 0

    @property
    def operators(self) -> int:
        return sum(page.operators for page in self.pages)


@dataclass
class _Load:
    operators: int = 0
    inline_pixels: int = 0
    content_bytes: int = 0
    images: frozenset[tuple[int, int]] = frozenset()


def _declared_objects(pdf: pikepdf.Pdf) -> int:
    try:
        return int(pdf.trailer.get("/Size", 0))
    except (TypeError, ValueError):
        return 0


def drawing_load(pdf: pikepdf.Pdf, limits: PdfLimits | None = None) -> DrawingLoad:
    """Measure an open document without drawing it and raise :class:`PdfBombError` at the first
    of ``limits`` it passes (none: measure only). The objects it declares and its page count are
    checked before any object is read; then every stream once (decoded in chunks), then each page
    through every level of forms it draws, each form multiplied by the times it is painted.
    Time and memory: linear in the decoded bytes, bounded by the byte limits before the counts."""
    limits = limits or _UNLIMITED
    objects = _declared_objects(pdf)
    try:
        count = int(pdf.Root.Pages.get("/Count", 0))
    except (AttributeError, TypeError, ValueError, pikepdf.PdfError):
        count = 0
    if max(objects, count) > limits.objects:
        raise PdfBombError("objects", f"the file declares {max(objects, count)} objects or pages")
    depth = structure_depth(pdf, limits.structure_depth)
    streams = _Streams(pdf, limits)
    loads = _Loads(streams, limits)
    pages = []
    drawn = operators = inline = images = 0
    everything: set[tuple[int, int]] = set()
    pixels = streams.pixels
    for number, page in enumerate(pdf.pages, start=1):
        load = loads.page(page.obj, number)
        drawn += load.content_bytes
        operators += load.operators
        page_pixels = sum(pixels.get(image, 0) for image in load.images) + load.inline_pixels
        images += sum(pixels.get(image, 0) for image in load.images - everything)
        everything |= load.images
        inline += load.inline_pixels
        if drawn > limits.drawn_bytes:
            raise PdfBombError("drawn", f"the pages draw more than {limits.drawn_bytes} bytes of content", page=number)
        if load.operators > limits.page_operators or operators > limits.document_operators:
            raise PdfBombError("operators", f"the pages execute more than {operators} operators", page=number)
        if page_pixels > limits.page_pixels:
            raise PdfBombError("page_pixels", f"page {number} decodes {page_pixels} pixels", page=number)
        if images + inline > limits.document_pixels:
            raise PdfBombError("pixels", f"the pages decode more than {limits.document_pixels} pixels", page=number)
        pages.append(
            PageLoad(
                operators=load.operators,
                pixels=page_pixels,
                content_bytes=load.content_bytes,
                largest_image=max((pixels.get(image, 0) for image in load.images), default=0),
                area=_area(page.obj),
            )
        )
    return DrawingLoad(objects=max(objects, streams.objects), pages=pages, pixels=images + inline, depth=depth)


#: The trees of a document (ISO 32000-1): where each starts from the catalog, the keys that go a
#: level down and those that go to a sibling. Outline (12.3.3), page tree (7.7.3), name trees
#: (7.9.6; each entry of the catalog's ``/Names``), interactive form fields (12.7.3).
_TREES = (
    ("outline", ("/Outlines",), ("/First",), ("/Next",)),
    ("page tree", ("/Pages",), ("/Kids",), ()),
    ("name tree", ("/Names", "*"), ("/Kids",), ()),
    ("form fields", ("/AcroForm", "/Fields"), ("/Kids",), ()),
)


def structure_depth(pdf: pikepdf.Pdf, limit: int | None = None) -> int:
    """The deepest level of the document's trees (:data:`_TREES`), walked with a stack of our own
    (never recursion), each object once; raises :class:`PdfBombError` (``structure``) as soon as
    one passes ``limit`` levels. Time: linear in the trees' nodes."""
    deepest = 0
    for what, path, down, across in _TREES:
        starts: list[pikepdf.Object | None] = [pdf.Root]
        for key in path:
            nxt: list[pikepdf.Object | None] = []
            for node in starts:
                if not isinstance(node, pikepdf.Dictionary):
                    continue
                if key == "*":
                    nxt += [value for _key, value in node.items()]
                elif isinstance(node.get(key), pikepdf.Array):
                    nxt += list(node[key])
                elif key in node:
                    nxt.append(node.get(key))
            starts = nxt
        deepest = max(deepest, _tree_depth(starts, down, across, limit, what))
    return deepest


def _tree_depth(
    roots: list[pikepdf.Object | None], down: tuple[str, ...], across: tuple[str, ...], limit: int | None, what: str
) -> int:
    stack: list[tuple[pikepdf.Object | None, int]] = [(root, 1) for root in roots]
    seen: set[tuple[int, int]] = set()
    deepest = 0
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, pikepdf.Dictionary):
            continue
        if node.is_indirect:
            if node.objgen in seen:
                continue  # a loop or a shared node: walked once
            seen.add(node.objgen)
        if limit is not None and depth > limit:
            raise PdfBombError("structure", f"the {what} nests more than {limit} levels deep")
        deepest = max(deepest, depth)
        for key in across:
            stack.append((node.get(key), depth))
        for key in down:
            child = node.get(key)
            for item in child if isinstance(child, pikepdf.Array) else [child]:
                stack.append((item, depth + 1))
    return deepest


class _Streams:
    """Every stream of a document read once: its decoded ``sizes``, the :class:`_Drawing` of each
    content stream (a page's or a form's) and the ``pixels`` of each image; raises
    :class:`PdfBombError` at the first limit of ``stream``, ``document``, ``attachment``,
    ``image``, ``objects`` or a stream's own ``operators`` it passes."""

    def __init__(self, pdf: pikepdf.Pdf, limits: PdfLimits) -> None:
        self.sizes: dict[tuple[int, int], int] = {}
        self.drawings: dict[tuple[int, int], _Drawing] = {}
        self.pixels: dict[tuple[int, int], int] = {}
        self.objects = 0
        embedded = set()
        for _name, spec in pdf.attachments.items():
            try:
                embedded.add(spec.get_file().obj.objgen)
            except (pikepdf.PdfError, AttributeError, KeyError, TypeError):
                continue
        contents = set()
        for page in pdf.pages:
            item = page.obj.get("/Contents")
            for part in item if isinstance(item, pikepdf.Array) else [item]:
                if isinstance(part, pikepdf.Stream):
                    contents.add(part.objgen)
        total = 0
        for obj in pdf.objects:
            self.objects += 1
            if self.objects > limits.objects:
                raise PdfBombError("objects", f"the file holds more than {limits.objects} objects")
            if isinstance(obj, pikepdf.Stream):
                total += self._read(obj, limits, obj.objgen in embedded, obj.objgen in contents)
                if total > limits.document_bytes:
                    raise PdfBombError("document", f"the streams inflate to more than {limits.document_bytes} bytes")

    def _read(self, obj: pikepdf.Stream, limits: PdfLimits, embedded: bool, content: bool) -> int:
        what = f"object {obj.objgen[0]}"
        _check_predictors(obj, what)
        if obj.get("/Subtype") == "/Image":
            self.pixels[obj.objgen] = _pixels(obj)
            if self.pixels[obj.objgen] > limits.image_pixels:
                raise PdfBombError("image", f"an image of {self.pixels[obj.objgen]} pixels")
        attachment = embedded or obj.get("/Type") == "/EmbeddedFile"
        read = None
        if not attachment and (content or obj.get("/Subtype") == "/Form"):
            read = self.drawings[obj.objgen] = _Drawing(limits.page_operators, what)
        try:
            size = _stream_size(obj, limits.attachment_bytes if attachment else limits.stream_bytes, what, read)
        except PdfBombError as exc:
            raise PdfBombError("attachment", str(exc)) if attachment else exc from None
        if read is not None:
            read.close()
        self.sizes[obj.objgen] = size
        return size


class _Loads:
    """The load of pages and forms, a form's computed once per resource dictionary it reads
    its names from, so forms drawing forms forty times on five levels cost five steps, not 40⁵."""

    def __init__(self, streams: _Streams, limits: PdfLimits) -> None:
        self.sizes, self.drawings = streams.sizes, streams.drawings
        self.limits = limits
        self.memo: dict[tuple[tuple[int, int], int], _Load] = {}
        self.glyphs: dict[tuple[int, int], _Load] = {}
        self.area = 0.0

    def page(self, page: pikepdf.Dictionary, number: int) -> _Load:
        out = _Load()
        self.area = _area(page)
        resources = _resources(page)
        contents = page.get("/Contents")
        for part in contents if isinstance(contents, pikepdf.Array) else [contents]:
            if isinstance(part, pikepdf.Stream):
                out = _plus(out, self._stream(part, resources, id(page), 0, number), 1)
        for annotation in page.get("/Annots") or []:  # what a viewer draws of each annotation
            if not isinstance(annotation, pikepdf.Dictionary):
                continue
            appearance = annotation.get("/AP")
            normal = appearance.get("/N") if isinstance(appearance, pikepdf.Dictionary) else None
            states = (
                [normal]
                if isinstance(normal, pikepdf.Stream)
                else (list(normal.values()) if isinstance(normal, pikepdf.Dictionary) else [])
            )
            for state in states:
                if isinstance(state, pikepdf.Stream):
                    out = _plus(out, self._form(state, resources, id(page), 1, number), 1)
        return out

    def _stream(
        self, stream: pikepdf.Stream, resources: pikepdf.Object | None, owner: int, depth: int, number: int
    ) -> _Load:
        """A content stream's own load plus what it paints, read by ``resources``' names: forms
        and images (``Do``), soft-mask groups (``gs``), shadings (``sh``), patterns (``scn``) and
        Type 3 glyphs (``Tf``)."""
        drawing = self._drawing(stream)
        out = _Load(content_bytes=self.sizes.get(stream.objgen, 0))
        if drawing is None:
            return out
        out.operators, out.inline_pixels = drawing.operators, drawing.inline_pixels
        if not isinstance(resources, pikepdf.Dictionary):
            return out
        xobjects = resources.get("/XObject")
        if isinstance(xobjects, pikepdf.Dictionary):
            for name, times in drawing.paints.items():
                painted = xobjects.get("/" + name)
                if not isinstance(painted, pikepdf.Stream):
                    continue
                if painted.get("/Subtype") == "/Image":
                    out = _plus(out, _Load(images=frozenset([painted.objgen])), times)
                elif painted.get("/Subtype") == "/Form":
                    out = _plus(out, self._form(painted, resources, owner, depth + 1, number), times)
                self._check(out, number)
        if any(drawing.uses.values()):
            out = self._used(out, drawing, stream, resources, owner, depth, number)
        return out

    def _check(self, out: _Load, number: int) -> None:
        if out.operators > self.limits.page_operators:
            raise PdfBombError("operators", f"page {number} executes {out.operators} operators", page=number)

    def _drawing(self, stream: pikepdf.Stream) -> _Drawing | None:
        """The drawing of a content stream, read now when the stream was read once only for its
        size (a pattern's cell, a Type 3 glyph, a soft mask's group are content only where named)."""
        drawing = self.drawings.get(stream.objgen)
        if drawing is None and self.sizes.get(stream.objgen):
            drawing = _Drawing(self.limits.page_operators, f"object {stream.objgen[0]}")
            _stream_size(stream, self.limits.stream_bytes, f"object {stream.objgen[0]}", drawing)
            drawing.close()
            self.drawings[stream.objgen] = drawing
        return drawing

    def _used(
        self,
        out: _Load,
        drawing: _Drawing,
        stream: pikepdf.Stream,
        resources: pikepdf.Dictionary,
        owner: int,
        depth: int,
        number: int,
    ) -> _Load:
        """What the other drawing operators of a stream add (:data:`_USES`), counted from above:
        a soft mask's group each time its ExtGState is set; a shading's data each time it is
        painted or set as a pattern; a tiling pattern's cell once per cell on the page's area
        (ISO 32000-1, 8.7.3.3: ``/XStep``, ``/YStep`` through its ``/Matrix``) each time it is set
        as the colour; the costliest glyph of the Type 3 fonts it sets once per byte of the stream
        (every glyph shown takes at least one)."""
        states, shadings = _named(resources, "/ExtGState"), _named(resources, "/Shading")
        patterns, fonts = _named(resources, "/Pattern"), _named(resources, "/Font")
        for name, times in drawing.uses["gs"].items():
            state = states.get("/" + name)
            mask = state.get("/SMask") if isinstance(state, pikepdf.Dictionary) else None
            group = mask.get("/G") if isinstance(mask, pikepdf.Dictionary) else None
            if isinstance(group, pikepdf.Stream):
                out = _plus(out, self._form(group, resources, owner, depth + 1, number), times)
        for name, times in drawing.uses["sh"].items():
            out = _plus(out, self._shading(shadings.get("/" + name)), times)
        for name, times in drawing.uses["scn"].items():
            pattern = patterns.get("/" + name)
            if isinstance(pattern, pikepdf.Stream):  # a tiling pattern: its cell is a content stream
                cell = self._form(pattern, resources, owner, depth + 1, number)
                out = _plus(out, cell, times * _cells(pattern, self.area))
            elif isinstance(pattern, pikepdf.Dictionary):  # a shading pattern
                out = _plus(out, self._shading(pattern.get("/Shading")), times)
            self._check(out, number)
        glyph = _Load()
        for name in drawing.uses["Tf"]:
            font = fonts.get("/" + name)
            if isinstance(font, pikepdf.Dictionary) and font.get("/Subtype") == "/Type3":
                glyph = _most(glyph, self._type3(font, resources, owner, depth + 1, number))
        out = _plus(out, glyph, self.sizes.get(stream.objgen, 0))
        self._check(out, number)
        return out

    def _shading(self, shading: pikepdf.Object | None) -> _Load:
        """One painting of a shading: an operator, and a mesh's data (types 4–7 are streams)."""
        if isinstance(shading, pikepdf.Stream):
            return _Load(operators=1, content_bytes=self.sizes.get(shading.objgen, 0))
        return _Load(operators=1)

    def _type3(
        self, font: pikepdf.Dictionary, inherited: pikepdf.Object | None, owner: int, depth: int, number: int
    ) -> _Load:
        """The costliest glyph of a Type 3 font (each glyph a content stream, ISO 32000-1, 9.6.5),
        with the font's resources (else the page's)."""
        key = font.objgen if font.is_indirect else (id(font), 0)
        if key in self.glyphs:
            return self.glyphs[key]
        self.glyphs[key] = _Load()  # a glyph showing its own font draws nothing more
        procs = font.get("/CharProcs")
        own = font.get("/Resources")
        resources = own if isinstance(own, pikepdf.Dictionary) else inherited
        most = _Load()
        if isinstance(procs, pikepdf.Dictionary):
            for _name, proc in procs.items():
                if isinstance(proc, pikepdf.Stream):
                    most = _most(most, self._form(proc, resources, owner, depth, number))
        self.glyphs[key] = most
        return most

    def _form(
        self, form: pikepdf.Stream, inherited: pikepdf.Object | None, owner: int, depth: int, number: int
    ) -> _Load:
        if depth > self.limits.form_depth:
            raise PdfBombError("operators", f"forms drawn {depth} levels deep on page {number}", page=number)
        own = form.get("/Resources")
        resources, key_owner = (own, 0) if isinstance(own, pikepdf.Dictionary) else (inherited, owner)
        key = (form.objgen, key_owner)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = _Load()  # a form drawing itself draws nothing more (renderers stop the loop)
        load = self._stream(form, resources, key_owner, depth, number)
        self.memo[key] = load
        return load


def _area(page: pikepdf.Dictionary) -> float:
    """A page's media box area (PDF points²), inherited from the page tree; 0 when unreadable."""
    node: pikepdf.Object | None = page
    for _ in range(64):
        if not isinstance(node, pikepdf.Dictionary):
            return 0.0
        box = node.get("/MediaBox")
        if isinstance(box, pikepdf.Array) and len(box) == 4:
            try:
                x0, y0, x1, y1 = (float(v) for v in box)
            except (TypeError, ValueError):
                return 0.0
            return abs(x1 - x0) * abs(y1 - y0)
        node = node.get("/Parent")
    return 0.0


def _resources(page: pikepdf.Dictionary) -> pikepdf.Object | None:
    """A page's resources, inherited from the page tree when the page has none (ISO 32000-1, 7.7.3.4)."""
    node: pikepdf.Object | None = page
    for _ in range(64):
        if not isinstance(node, pikepdf.Dictionary):
            return None
        if "/Resources" in node:
            return node.get("/Resources")
        node = node.get("/Parent")
    return None


def _named(resources: pikepdf.Dictionary, kind: str) -> pikepdf.Dictionary:
    """A resource dictionary's sub-dictionary ``kind`` (``/Pattern``, ``/Font``…), empty if none."""
    named = resources.get(kind)
    return named if isinstance(named, pikepdf.Dictionary) else pikepdf.Dictionary()


#: The most cells of a tiling pattern counted on one page (past it the count is this), so that
#: a step of 10⁻³⁰⁰ stays a number; far above every limit.
_MOST_CELLS = 1 << 40


def _cells(pattern: pikepdf.Stream, area: float) -> int:
    """How many cells of a tiling pattern cover a page of ``area`` points² (at least one): the
    cell is ``/XStep`` × ``/YStep`` in pattern space, scaled by its ``/Matrix`` (ISO 32000-1,
    8.7.3.3, table 75)."""
    try:
        step = abs(float(pattern.get("/XStep", 0)) * float(pattern.get("/YStep", 0)))
        matrix = pattern.get("/Matrix")
        a, b, c, d = (float(v) for v in list(matrix)[:4]) if isinstance(matrix, pikepdf.Array) else (1, 0, 0, 1)
    except (TypeError, ValueError):
        return _MOST_CELLS
    cell = step * abs(a * d - b * c)
    if cell <= 0:
        return _MOST_CELLS  # no step: the renderer's own guess, counted as the worst
    return max(1, min(_MOST_CELLS, int(area / cell) + 1))


def _most(one: _Load, other: _Load) -> _Load:
    """The costlier of two loads, each measure on its own (an upper bound of either)."""
    return _Load(
        operators=max(one.operators, other.operators),
        inline_pixels=max(one.inline_pixels, other.inline_pixels),
        content_bytes=max(one.content_bytes, other.content_bytes),
        images=one.images | other.images,
    )


def _plus(out: _Load, add: _Load, times: int) -> _Load:
    return _Load(
        operators=out.operators + times * add.operators,
        inline_pixels=out.inline_pixels + times * add.inline_pixels,
        content_bytes=out.content_bytes + times * add.content_bytes,
        images=out.images | add.images,
    )


_UNLIMITED = PdfLimits(
    stream_bytes=1 << 62, document_bytes=1 << 62, drawn_bytes=1 << 62, image_pixels=1 << 62, attachment_bytes=1 << 62,
    page_operators=1 << 62, document_operators=1 << 62, page_pixels=1 << 62, document_pixels=1 << 62,
    objects=1 << 62, form_depth=1 << 30, structure_depth=1 << 30,
)  # fmt: skip
