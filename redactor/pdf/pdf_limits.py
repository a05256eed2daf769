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
- ``attachment``: an embedded file inflating to more than :attr:`PdfLimits.attachment_bytes`.

The filters counted are those PDF defines for general data (ISO 32000-1, 7.4, table 6):
Flate alone, by far the most common, is inflated here chunk by chunk; any other chain of
``FlateDecode``, ``LZWDecode``, ``RunLengthDecode`` and the ASCII filters is decoded by qpdf only
when the most it can grow keeps it under the limit, and refused otherwise (as is a filter that is
none of these). Image filters (DCT, JPX, CCITT, JBIG2) are measured by the image's declared size.
"""

from __future__ import annotations

import io
import zlib
from dataclasses import dataclass

import pikepdf

from redactor.errors import InvalidPdfError

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


class PdfBombError(InvalidPdfError):
    """A PDF over one of :class:`PdfLimits` (``limit`` names which; ``page`` from 1 when a page's
    drawing passed it, else None)."""

    def __init__(self, limit: str, detail: str, page: int | None = None):
        super().__init__(f"{limit}: {detail}")
        self.limit = limit
        self.page = page


@dataclass(frozen=True)
class PdfLimits:
    """What a contract's PDF may inflate to (bytes, pixels). The defaults are far above any
    contract seen (the largest real contracts here: a 73-page scan inflating to ~300 MB of
    images is measured by pixels, not bytes; text contracts inflate to a few MB)."""

    stream_bytes: int = 256 * 1024 * 1024
    document_bytes: int = 1024 * 1024 * 1024
    drawn_bytes: int = 512 * 1024 * 1024
    image_pixels: int = 200_000_000
    attachment_bytes: int = 64 * 1024 * 1024


def _filters(stream: pikepdf.Stream) -> list[str]:
    value = stream.get("/Filter")
    if value is None:
        return []
    if isinstance(value, pikepdf.Array):
        return [str(v) for v in value]
    return [str(value)]


def _inflate_flate(data: bytes, limit: int, what: str) -> int:
    """The length ``data`` inflates to, counted in chunks; raises :class:`PdfBombError` past
    ``limit``. A damaged stream counts what inflated before the damage (the renderer does the
    same)."""
    inflater = zlib.decompressobj()
    total = 0
    pending = data
    try:
        while pending:
            out = inflater.decompress(pending, CHUNK)
            total += len(out)
            if total > limit:
                raise PdfBombError("stream", f"{what} inflates to more than {limit} bytes")
            pending = inflater.unconsumed_tail
            if not out and not pending:
                break
            if inflater.eof:
                break
    except zlib.error:
        pass
    return total


def _stream_size(stream: pikepdf.Stream, limit: int, what: str) -> int:
    """How many bytes ``stream`` decodes to (images: 0, they are measured by pixels). A stream
    of Flate alone is inflated in chunks; another chain is decoded whole only when its bounded
    growth (:data:`_GROWTH`) keeps it under ``limit``, else refused as unmeasurable."""
    filters = _filters(stream)
    if stream.get("/Subtype") == "/Image" or any(f in _IMAGE_FILTERS for f in filters):
        return 0
    raw = stream.read_raw_bytes()
    if not filters:
        return len(raw)
    if filters in (["/FlateDecode"], ["/Fl"]):
        return _inflate_flate(raw, limit, what)
    growth = 1
    for f in filters:
        growth *= _GROWTH.get(f, 0)
    if not growth or len(raw) * growth > limit:
        raise PdfBombError("stream", f"{what} ({' '.join(filters)}) may inflate to more than {limit} bytes")
    try:
        return len(stream.read_bytes())
    except pikepdf.PdfError:
        return 0  # damaged: the renderer draws nothing of it either


def _pixels(stream: pikepdf.Stream) -> int:
    try:
        return int(stream.get("/Width", 0)) * int(stream.get("/Height", 0))
    except (TypeError, ValueError):
        return 0


def check_pdf_limits(data: bytes, limits: PdfLimits | None = None, *, opened: pikepdf.Pdf | None = None) -> None:
    """Raise :class:`PdfBombError` when the PDF ``data`` passes one of ``limits`` (see the module);
    a file qpdf cannot open raises ``pikepdf.PdfError`` or ``pikepdf.PasswordError`` (the caller
    reports damage or the password). ``opened``: ``data`` already opened by qpdf (read only, left
    open), when the caller runs other checks on it too. Memory: the file and one chunk of
    inflated bytes at a time."""
    if opened is None:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            _check_limits(pdf, limits or PdfLimits())
    else:
        _check_limits(opened, limits or PdfLimits())


def _check_limits(pdf: pikepdf.Pdf, limits: PdfLimits) -> None:
    """:func:`check_pdf_limits` of an open document."""
    sizes: dict[tuple[int, int], int] = {}
    total = 0
    embedded = set()
    for _name, spec in pdf.attachments.items():
        try:
            embedded.add(spec.get_file().obj.objgen)
        except (pikepdf.PdfError, AttributeError, KeyError, TypeError):
            continue
    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Stream):
            continue
        what = f"object {obj.objgen[0]}"
        if obj.get("/Subtype") == "/Image" and _pixels(obj) > limits.image_pixels:
            raise PdfBombError("image", f"an image of {_pixels(obj)} pixels")
        attachment = obj.objgen in embedded or obj.get("/Type") == "/EmbeddedFile"
        limit = limits.attachment_bytes if attachment else limits.stream_bytes
        try:
            size = _stream_size(obj, limit, what)
        except PdfBombError as exc:
            raise PdfBombError("attachment", str(exc)) if attachment else exc from None
        sizes[obj.objgen] = size
        total += size
        if total > limits.document_bytes:
            raise PdfBombError("document", f"the streams inflate to more than {limits.document_bytes} bytes")
    drawn = 0
    for number, page in enumerate(pdf.pages, start=1):
        drawn += _page_drawing(page.obj, sizes)
        if drawn > limits.drawn_bytes:
            raise PdfBombError("drawn", f"the pages draw more than {limits.drawn_bytes} bytes of content", page=number)


def _page_drawing(page: pikepdf.Dictionary, sizes: dict[tuple[int, int], int]) -> int:
    """The inflated bytes a page draws: its content streams and the form XObjects its resources
    name (one level: a form drawn by a form is counted where it is defined)."""
    total = 0
    contents = page.get("/Contents")
    items = contents if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []
    for item in items:
        if isinstance(item, pikepdf.Stream):
            total += sizes.get(item.objgen, 0)
    resources = page.get("/Resources")
    xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
    if isinstance(xobjects, pikepdf.Dictionary):
        for key in xobjects.keys():
            form = xobjects.get(key)
            if isinstance(form, pikepdf.Stream) and form.get("/Subtype") == "/Form":
                total += sizes.get(form.objgen, 0)
    return total
