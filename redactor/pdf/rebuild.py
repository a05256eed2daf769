"""Rebuild a PDF from an allowlist: the document that is analysed, reviewed and published.

Burn-in used to remove what the engine detected and scrub a list of known hiding places;
whatever the engine never saw stayed in the file. Here every upload is first rebuilt into a
new document that holds only what a reader sees on the pages, and the engine analyses, shows
and redacts **that** document, so the published file can hold nothing the analysis did not read.

Kept (each with its reason):

- pages with their MediaBox (cut to the CropBox: nothing outside the visible area is shown),
  /Rotate (how the page is displayed) and /Group (its transparency look);
- the page content and the resources it draws with: fonts, images (with their /SMask and
  /Mask), form XObjects, patterns, shadings, colour spaces and graphics states;
- annotations and form fields **as they look**: their appearance streams are flattened into
  the page content (qpdf's ``flattenAnnotations``, screen appearance), so the values a reader
  sees are analysed and can be redacted like any text; redaction annotations a clerk left
  unapplied are applied first (they express an intent to redact).

Dropped, because no reader sees them on a page: the document catalog and everything hanging
from it (structure tree with /Alt and /ActualText, outlines, page labels, named destinations,
JavaScript, open actions, AcroForm with orphan fields and XFA, embedded files, metadata/XMP,
/PieceInfo, optional-content configuration, custom keys); on pages: annotations (after
flattening), /PieceInfo, /Thumb, /StructParents, /AA, boxes other than Media/Crop; the
``/Metadata``, ``/PieceInfo``, ``/OPI`` and structure keys of XObjects.

The content streams are normalised (pikepdf's content parser):

- marked content (BDC/BMC/EMC, MP/DP) is unwrapped: an /ActualText or /Alt that replaces the
  drawn glyphs in extraction goes, the glyphs stay;
- content in an optional-content group that is OFF in the default configuration (ISO 32000-1
  §8.11.4) is removed, as is a form or image XObject whose /OC is OFF; ON content is kept as
  ordinary content;
- the ``'`` and ``"`` text operators become ``T*`` + ``Tj`` (with ``Tw``/``Tc`` for ``"``),
  which MuPDF's redaction filter keeps line by line;
- text inside tiling patterns (decoration that extractors do not read) is removed;
- the page's origin moves to (0, 0) and /UserUnit is folded into its geometry (content
  translated and scaled): MuPDF drew redaction fills of a rotated page with an offset MediaBox
  in the wrong place, and viewers that ignore /UserUnit showed another size than those that
  honour it; every box is now in PDF points from the page's corner.

Finally, text that lies outside the visible page (beyond the CropBox, where pdftotext still
reads it) is removed with MuPDF redaction, and a page whose visible text cannot be read from
its text layer (fonts without a Unicode mapping, Type3 fonts with opaque glyph names, text
drawn as outlines) is turned into a picture of itself, which OCR then reads like a scan.
Coordinates of what stays are unchanged: PyMuPDF's page space (points from the top-left corner
of the CropBox) is the same before and after.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

import pikepdf
import pymupdf

from redactor.errors import InvalidPdfError
from redactor.pdf.active_content import refuse_active_content
from redactor.pdf.optional_content import OptionalContent
from redactor.pdf.page_repair import apply_redaction_marks, finish_pages
from redactor.pdf.pdf_limits import check_declared_objects, check_pdf_limits
from redactor.pdf.pdf_pages import open_pdf
from redactor.pdf.rebuilt import Rebuilt

_N = pikepdf.Name
#: Keys a rebuilt page keeps (ISO 32000-1 Table 30); everything else is dropped.
PAGE_KEYS = {"/Type", "/Parent", "/MediaBox", "/CropBox", "/Rotate", "/Resources", "/Contents", "/Group"}
#: Resource categories a content stream can draw with (Table 33, without /Properties, whose
#: only use is marked content, which is unwrapped).
RESOURCE_KEYS = {"/Font", "/XObject", "/ExtGState", "/ColorSpace", "/Pattern", "/Shading", "/ProcSet"}
_STREAM_KEYS = {"/Length", "/Filter", "/DecodeParms"}
#: Keys of a form XObject that change how it is drawn (Table 95).
FORM_KEYS = _STREAM_KEYS | {"/Type", "/Subtype", "/FormType", "/BBox", "/Matrix", "/Resources", "/Group"}
#: Keys of an image XObject that change how it is drawn (Table 89).
IMAGE_KEYS = _STREAM_KEYS | {
    "/Type",
    "/Subtype",
    "/Width",
    "/Height",
    "/ColorSpace",
    "/BitsPerComponent",
    "/ImageMask",
    "/Mask",
    "/Decode",
    "/Interpolate",
    "/SMask",
    "/SMaskInData",
    "/Intent",
    "/Matte",
}
_MARKED = {"BDC", "BMC", "MP", "DP", "EMC"}
#: Inline marked-content properties that carry no text: names, numbers, arrays of names and a
#: language tag (what tagged PDFs from word processors write: ``<</MCID 3>>``,
#: ``<</Lang (en-US)/MCID 4>>``, ``<</Type/Pagination/Attached [/Top ]>>``).
_PLAIN_PROPERTIES = re.compile(
    rb"<<(?:\s*/[A-Za-z]+\s*(?:/[A-Za-z]+|\d+|\[[\s/A-Za-z]*\]|\([A-Za-z]{2,3}(?:-[A-Za-z]{2,4})?\)))*\s*>>\s*(?:BDC|DP)\b"
)
_PROPERTY_LIST = re.compile(rb">>\s*(?:BDC|DP)\b|/[^\s/<>\[\]()]+\s+(?:BDC|DP)\b")
#: A ' or " operator after its string operand.
_QUOTE_OPERATOR = re.compile(rb"[)>]\s*['\"]")
_TEXT_SHOW = {"Tj", "TJ", "'", '"'}


class _Rebuilder:
    def __init__(self, src: pikepdf.Pdf, result: Rebuilt):
        self.src = src
        self.result = result
        self.oc = OptionalContent(src)
        self.done: dict[tuple[int, int], bool] = {}  # objgen of a rewritten stream -> hidden?
        self.forms_done: set[tuple[int, int]] = set()  # objgen of a form whose content was normalised

    # -- content streams ------------------------------------------------------------------
    def content(
        self,
        instructions: Iterable[pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage],
        resources: object,
        props: pikepdf.Dictionary | None,
        *,
        in_pattern: bool = False,
    ) -> bytes | None:
        """Normalised ``instructions`` drawn with ``resources`` (marked-content property lists
        ``props``, read before :meth:`resources` dropped them); None when nothing changed."""
        xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
        out: list[pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage] = []
        changed = False
        stack: list[bool] = []  # per open marked-content section: hidden?
        hidden_depth = 0
        for inst in instructions:
            if isinstance(inst, pikepdf.ContentStreamInlineImage):
                if not hidden_depth:
                    out.append(inst)
                else:
                    changed = True
                continue
            op = str(inst.operator)
            operands = list(inst.operands)
            if op in _MARKED:
                changed = True
                hidden_depth += self._marked(op, operands, props, stack)
                continue
            if hidden_depth:
                self.result.note("hidden layer content")
                continue
            replaced = self._replaced(op, operands, xobjects, in_pattern)
            if replaced is None:
                out.append(inst)
            else:
                out += replaced
                changed = True
        if hidden_depth:
            self.result.note("hidden layer content")
        return pikepdf.unparse_content_stream(out) if changed else None

    def _marked(
        self, op: str, operands: list[pikepdf.Object], props: pikepdf.Dictionary | None, stack: list[bool]
    ) -> int:
        """How a marked-content operator changes the depth of hidden sections: +1 opening one of
        an optional-content group that is OFF, -1 closing one, else 0 (``stack`` keeps the open
        sections)."""
        if op in ("BDC", "BMC"):
            hide = op == "BDC" and len(operands) == 2 and operands[0] == _N.OC and self._oc_hidden(operands[1], props)
            stack.append(hide)
            return int(hide)
        if op == "EMC" and stack:
            return -int(stack.pop())
        return 0

    def _replaced(
        self, op: str, operands: list[pikepdf.Object], xobjects: pikepdf.Object | None, in_pattern: bool
    ) -> list[pikepdf.ContentStreamInstruction] | None:
        """What a visible instruction becomes: None to keep it, [] to drop it (a form that draws
        only hidden content, text in a pattern), or the plain operators a ' or " stands for."""
        if op == "Do" and operands and isinstance(operands[0], pikepdf.Name) and xobjects is not None:
            xobj = xobjects.get(operands[0])
            if isinstance(xobj, pikepdf.Stream) and self.xobject(xobj):
                self.result.note("hidden layer content")
                return []
            return None
        if in_pattern and op in _TEXT_SHOW:
            self.result.note("text in a pattern")
            return []
        if op == "'":
            return [
                pikepdf.ContentStreamInstruction([], pikepdf.Operator("T*")),
                pikepdf.ContentStreamInstruction(operands, pikepdf.Operator("Tj")),
            ]
        if op == '"' and len(operands) == 3:
            aw, ac, text = operands
            return [
                pikepdf.ContentStreamInstruction([aw], pikepdf.Operator("Tw")),
                pikepdf.ContentStreamInstruction([ac], pikepdf.Operator("Tc")),
                pikepdf.ContentStreamInstruction([], pikepdf.Operator("T*")),
                pikepdf.ContentStreamInstruction([text], pikepdf.Operator("Tj")),
            ]
        return None

    def needs_parsing(self, raw: bytes) -> bool:
        """Whether content ``raw`` (decoded bytes) may hold anything the normalisation changes:
        optional content when some group is OFF, marked-content properties other than a bare
        marked-content id (a named property list may hold /ActualText), ' or " operators. The
        test errs towards parsing: a false alarm costs time, never safety."""
        if self.oc.off and b"/OC" in raw:
            return True
        if _QUOTE_OPERATOR.search(raw):
            return True
        return len(_PROPERTY_LIST.findall(raw)) > len(_PLAIN_PROPERTIES.findall(raw))

    def _oc_hidden(self, operand: object, props: pikepdf.Dictionary | None) -> bool:
        if isinstance(operand, pikepdf.Dictionary):
            return self.oc.hidden(operand)
        if props is None or not isinstance(operand, pikepdf.Name):
            return False
        return self.oc.hidden(props.get(operand))

    # -- resources --------------------------------------------------------------------------
    def resources(self, res: object) -> None:
        """Keep the drawing categories of ``res`` and normalise every stream they reach."""
        if not isinstance(res, pikepdf.Dictionary):
            return
        for key in list(res.keys()):
            if key not in RESOURCE_KEYS:
                del res[key]
        for xobj in (res.get("/XObject") or {}).values() if isinstance(res.get("/XObject"), pikepdf.Dictionary) else ():
            if isinstance(xobj, pikepdf.Stream):
                self.xobject(xobj)
        patterns = res.get("/Pattern")
        if isinstance(patterns, pikepdf.Dictionary):
            for pattern in patterns.values():
                if isinstance(pattern, pikepdf.Stream) and pattern.get("/PatternType") == 1:
                    self.form(pattern, in_pattern=True)
        states = res.get("/ExtGState")
        if isinstance(states, pikepdf.Dictionary):
            for gs in states.values():
                smask = gs.get("/SMask") if isinstance(gs, pikepdf.Dictionary) else None
                group = smask.get("/G") if isinstance(smask, pikepdf.Dictionary) else None
                if isinstance(group, pikepdf.Stream):
                    self.form(group)

    def xobject(self, xobj: pikepdf.Stream) -> bool:
        """Normalise a form or image XObject; True when it is hidden (its /OC is OFF)."""
        key = xobj.objgen
        if key != (0, 0) and key in self.done:
            return self.done[key]
        hidden = self.oc.hidden(xobj.get("/OC"))
        self.done[key] = hidden
        subtype = xobj.get("/Subtype")
        if subtype == _N.Form:
            self.form(xobj)
        elif subtype == _N.Image:
            _keep_keys(xobj, IMAGE_KEYS)
            for mask_key in ("/SMask", "/Mask"):
                mask = xobj.get(mask_key)
                if isinstance(mask, pikepdf.Stream):
                    _keep_keys(mask, IMAGE_KEYS)
        return hidden

    def form(self, xobj: pikepdf.Stream, *, in_pattern: bool = False) -> None:
        """Normalise a form XObject (or tiling pattern) and what it draws with."""
        key = xobj.objgen
        if key != (0, 0) and key in self.forms_done:
            return
        self.forms_done.add(key)
        if not in_pattern:
            _keep_keys(xobj, FORM_KEYS)
        for drop in ("/Metadata", "/PieceInfo", "/StructParent", "/StructParents", "/OPI", "/OC"):
            if drop in xobj:
                del xobj[drop]
        res = xobj.get("/Resources")
        props = _properties(res)
        self.resources(res)
        if not in_pattern and not self.needs_parsing(xobj.read_bytes()):
            return
        try:
            data = self.content(pikepdf.parse_content_stream(xobj), res, props, in_pattern=in_pattern)
        except pikepdf.PdfError:
            return
        if data is not None:
            xobj.write(data)

    def page(self, page: pikepdf.Page) -> None:
        """Normalise one page of the new document."""
        obj = page.obj
        unit = float(obj.get("/UserUnit", 1) or 1)
        media = _rectangle(obj.get("/MediaBox"))
        crop = _rectangle(obj.get("/CropBox")) & media if "/CropBox" in obj else media
        if crop.width <= 0 or crop.height <= 0:
            crop = media
        for key in list(obj.keys()):
            if key not in PAGE_KEYS:
                del obj[key]
        res = obj.get("/Resources")
        if res is None:
            res = obj.Resources = pikepdf.Dictionary()
        props = _properties(res)
        self.resources(res)
        data = (
            self.content(pikepdf.parse_content_stream(obj), res, props)
            if self.needs_parsing(_page_bytes(obj))
            else None
        )
        # the page's origin moves to (0, 0) and /UserUnit becomes points: MuPDF draws redaction
        # fills on a rotated page as if the MediaBox started at the origin, and viewers that
        # ignore /UserUnit show another size than those that honour it
        unit = unit if unit > 0 else 1.0
        if unit != 1 or crop.llx or crop.lly:
            head = b"q "
            if unit != 1:
                head += f"{unit:g} 0 0 {unit:g} 0 0 cm ".encode()
                self.result.note("user unit folded into the page size")
            if crop.llx or crop.lly:
                head += f"1 0 0 1 {-crop.llx:g} {-crop.lly:g} cm".encode()
            data = head + b"\n" + (data if data is not None else _page_bytes(obj)) + b"\nQ"
            crop = pikepdf.Rectangle(0, 0, crop.width * unit, crop.height * unit)
        if data is not None:
            obj.Contents = self.src.make_stream(data)
        obj.MediaBox = crop.as_array()
        if "/CropBox" in obj:
            del obj["/CropBox"]


def _has_redaction_marks(pdf: pikepdf.Pdf) -> bool:
    return any(
        isinstance(a, pikepdf.Dictionary) and a.get("/Subtype") == _N.Redact
        for page in pdf.pages
        for a in page.obj.get("/Annots", [])
    )


def _rectangle(box: object) -> pikepdf.Rectangle:
    """A page box (/MediaBox, /CropBox) as a rectangle. Raises ``TypeError`` when it is not an
    array (as ``pikepdf.Rectangle`` does)."""
    if not isinstance(box, pikepdf.Array):
        raise TypeError(f"a page box is not an array: {box!r}")
    return pikepdf.Rectangle(box)


def _properties(res: object) -> pikepdf.Dictionary | None:
    props = res.get("/Properties") if isinstance(res, pikepdf.Dictionary) else None
    return props if isinstance(props, pikepdf.Dictionary) else None


def _keep_keys(obj: pikepdf.Dictionary | pikepdf.Stream, keys: set[str]) -> None:
    for key in list(obj.keys()):
        if key not in keys:
            del obj[key]


def _page_bytes(obj: pikepdf.Dictionary) -> bytes:
    contents = obj.get("/Contents")
    if isinstance(contents, pikepdf.Array):
        return b"\n".join(c.read_bytes() for c in contents)
    return contents.read_bytes() if isinstance(contents, pikepdf.Stream) else b""


def rebuild(data: bytes) -> Rebuilt:
    """The allowlist rebuild of PDF ``data`` (see the module docstring), as new bytes.

    Page count, order and PyMuPDF page coordinates are unchanged except for /UserUnit pages,
    whose coordinates are multiplied by the unit (so that they are PDF points). Raises
    :class:`InvalidPdfError` when qpdf cannot read the file. The input is not modified.
    """
    return _rebuild(data, keep_open=False)[0]


def _rebuild(data: bytes, *, keep_open: bool) -> tuple[Rebuilt, pymupdf.Document | None]:
    """:func:`rebuild`; with ``keep_open``, also the MuPDF document of the result when the last
    step left it as it read it (the caller closes it): its fonts are loaded already."""
    result = Rebuilt(b"")
    try:
        src = pikepdf.open(io.BytesIO(data))
    except pikepdf.PasswordError as exc:
        raise InvalidPdfError("the PDF is password-protected; upload it without a password") from exc
    except pikepdf.PdfError as exc:
        raise InvalidPdfError(f"the PDF is damaged and cannot be opened ({exc})") from exc
    if _has_redaction_marks(src):
        src.close()
        data = apply_redaction_marks(data, result)
        src = pikepdf.open(io.BytesIO(data))
    with src:
        annotated = sum(len(p.obj.get("/Annots", [])) for p in src.pages)
        if annotated:
            try:
                src.generate_appearance_streams()
            except pikepdf.PdfError:
                pass
            src.flatten_annotations(mode="screen")
            result.note("annotations flattened or dropped", annotated)
        rebuilder = _Rebuilder(src, result)
        out = pikepdf.new()
        for page in src.pages:
            rebuilder.page(page)
            out.pages.append(page)
        buffer = io.BytesIO()
        out.save(buffer, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    result.pdf, doc = finish_pages(buffer.getvalue(), result, keep_open=keep_open)
    return result, doc


def rebuilt(data: bytes, *, max_pages: int | None = None) -> Rebuilt:
    """:func:`rebuild` after the checks of :func:`~redactor.pdf.pdf_pages.open_pdf` (same
    errors) and :func:`~redactor.pdf.active_content.refuse_active_content` (``ActiveContentError``):
    how every door reads an upload (the analysis keeps the result in its stored document, which
    review and publishing read instead)."""
    _check(data, max_pages)
    return rebuild(data)


def _check(data: bytes, max_pages: int | None) -> None:
    """The checks of :func:`rebuilt`. The limits on what the file inflates to
    (:func:`~redactor.pdf.pdf_limits.check_pdf_limits`) come first, so no renderer meets a bomb."""
    check_declared_objects(data)  # before qpdf builds its tables of them
    try:
        opened = pikepdf.open(io.BytesIO(data))  # one reading for both checks
    except (pikepdf.PdfError, pikepdf.PasswordError):
        opened = None  # qpdf cannot read it: open_pdf reports the damage
    try:
        if opened is not None:
            try:
                check_pdf_limits(data, opened=opened)
            except pikepdf.PdfError:
                pass  # an object qpdf cannot read: open_pdf or the active-content check reports it
        open_pdf(data, max_pages=max_pages).close()
        refuse_active_content(data, opened=opened)
    finally:
        if opened is not None:
            opened.close()


def open_rebuilt(data: bytes, *, max_pages: int | None = None) -> tuple[pymupdf.Document, Rebuilt]:
    """Check ``data`` like :func:`~redactor.pdf.pdf_pages.open_pdf` (same errors), rebuild it
    and open the rebuilt document: what analysis reads, and what review pictures and burn-in
    work on once it is stored, so that their coordinates and text agree. The caller closes the
    document."""
    _check(data, max_pages)
    # the rebuild hands over the document its last step read (fonts loaded once, not twice)
    result, doc = _rebuild(data, keep_open=True)
    return (doc if doc is not None else open_pdf(result.pdf)), result
