"""Active content: what makes a PDF act when it is opened or clicked, found so that an upload
carrying it is refused at the door and nothing of it is stored.

A contract has no reason to run code, open other files or call home; a file that does is more
likely an attack than a contract, and the original is offered to every member of the agency as
a download. The check is an **allowlist**: an original is accepted only when every action,
annotation, name tree and attached file is of a kind a contract needs (below, with the reason);
anything else is refused and named (:func:`find_active_content`'s kinds). The kinds follow the
PDF 1.7 specification (ISO 32000-1: 12.6.4 *Action types*, table 198; 12.5.6 *Annotation
types*, table 169; 7.7.4 *Name dictionary*, table 31; 7.11 *File specifications*).

What a contract may carry:

- actions (:data:`ALLOWED_ACTIONS`): ``GoTo`` (a link or bookmark to a page of the document),
  ``URI`` followed on a click to a web or e-mail address (:data:`ALLOWED_URI_SCHEMES`; Word
  and LibreOffice export links so; ``javascript:``, ``file:`` and UNC paths are refused),
  ``Named`` page turns (:data:`ALLOWED_NAMED`) and ``ResetForm``. A ``URI`` run by itself (the
  document's open action, a page's or field's additional actions ``/AA``, down their ``/Next``
  chains) is refused as ``URI (automatic)``: it calls home when the file is opened;
- annotations (:data:`ALLOWED_ANNOTATIONS`): links, form widgets, comments and markup, stamps,
  popups, file attachments (whose files are checked as below), printer's marks and redaction
  marks. 3D, sound, movie, screen and rich-media annotations play or run content: refused;
- name trees (:data:`ALLOWED_NAME_TREES`): destinations, embedded files (checked) and appearance
  streams; a ``JavaScript`` tree, renditions, templates or web-capture trees are refused;
- attached files (:data:`ALLOWED_ATTACHMENTS`), judged by every name a reader may save them under
  (``/UF``, ``/F`` and the platform names, after Windows' own normalisation: trailing dots and
  spaces dropped, an alternate data stream cut off) **and** by their first bytes: a PDF (checked
  like the file itself, :data:`MAX_DEPTH` deep), images, text, XML, CSV, Office Open XML and
  OpenDocument files without macros, embedded objects or links to outside templates, signatures
  and certificates, and data-box messages. A program's or a script's bytes (``MZ``, ``ELF``,
  ``#!``, HTML or SVG with a script anywhere in the file) are refused whatever the name says, as
  is a PDF whose header does not open the file (a polyglot, or a file without a header that a
  reader still opens by its objects); related files (``/RF``) are checked like the others, and a
  specification of a file the PDF does not carry (a bare string, no ``/EF``) is refused;
- besides: any ``/JS`` or ``/JavaScript`` key, and an XFA form (its XML carries scripts).

The whole file is walked: every indirect object (qpdf's list, so nothing hides outside the page
tree) and the direct objects inside each, iteratively, with no depth that a nesting can outrun;
action chains (``/Next``) are followed with a set of the objects already seen.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator

import pikepdf

from redactor.errors import ActiveContentError, InvalidPdfError

#: Every action type of ISO 32000-1, table 198 (and ``RichMediaExecute``, its extension level 3).
ACTION_TYPES = frozenset(
    {
        "/GoTo", "/GoToR", "/GoToE", "/Launch", "/Thread", "/URI", "/Sound", "/Movie", "/Hide", "/Named",
        "/SubmitForm", "/ResetForm", "/ImportData", "/JavaScript", "/SetOCGState", "/Rendition", "/Trans",
        "/GoTo3DView", "/RichMediaExecute",
    }
)  # fmt: skip
#: Actions a contract may carry (see the module's description).
ALLOWED_ACTIONS = frozenset({"/GoTo", "/URI", "/Named", "/ResetForm"})
#: Named actions that only turn pages (ISO 32000-1, table 212).
ALLOWED_NAMED = frozenset({"/NextPage", "/PrevPage", "/FirstPage", "/LastPage"})
#: How a refused action is named to the clerk (kept from the earlier, denylist check).
ACTION_KINDS = {"/RichMediaExecute": "RichMedia"}
#: Annotation subtypes a contract may carry (ISO 32000-1, table 169).
ALLOWED_ANNOTATIONS = frozenset(
    {
        "/Link", "/Widget", "/Text", "/FreeText", "/Line", "/Square", "/Circle", "/Polygon", "/PolyLine",
        "/Highlight", "/Underline", "/Squiggly", "/StrikeOut", "/Stamp", "/Caret", "/Ink", "/Popup",
        "/FileAttachment", "/PrinterMark", "/Redact", "/Watermark",
    }
)  # fmt: skip
#: Entries of the document's name dictionary a contract may carry (ISO 32000-1, table 31).
ALLOWED_NAME_TREES = frozenset({"/Dests", "/EmbeddedFiles", "/AP"})
#: Attached files a contract may carry, by the ending of the name a reader saves them under.
ALLOWED_ATTACHMENTS = frozenset(
    {
        "pdf", "txt", "xml", "csv", "json", "png", "jpg", "jpeg", "gif", "tif", "tiff", "bmp",
        "docx", "xlsx", "pptx", "odt", "ods", "odp", "isdoc", "isdocx", "p7s", "p7m", "sig", "cer", "crt",
        "pem", "der", "zfo", "xades", "asice",
    }
)  # fmt: skip
#: Allowed endings whose files are ZIP packages (checked for macros).
_PACKAGES = frozenset({"docx", "xlsx", "pptx", "odt", "ods", "odp", "isdocx", "asice"})
#: Embedded PDFs are checked to this depth; one nested deeper is refused as unchecked.
MAX_DEPTH = 3
#: First bytes of programs and scripts, whatever the file is called.
_PROGRAM = re.compile(rb"^(?:MZ|\x7fELF|#!|\xca\xfe\xba\xbe|\xcf\xfa\xed\xfe|\xfe\xed\xfa)")
#: Markup that runs or fetches something when a viewer opens the file: a script, HTML or SVG element
#: (with a namespace prefix too: ``<h:script>`` in XHTML inside XML), an event handler attribute
#: (``onerror=``), ``javascript:``, and an XML style sheet (``<?xml-stylesheet?>``: a browser
#: fetches it, and XSLT may run script).
_MARKUP_SCRIPT = re.compile(
    rb"<\s*(?:[\w.-]{1,40}:)?(?:script|html|svg|!doctype\s+html)\b|javascript:"
    rb"|<[a-z][^<>]{0,2000}?\son[a-z]{3,30}\s*=|<\?xml-stylesheet\b",
    re.I,
)
#: The most parts a package attachment may have: a contract's Word or Excel file has tens.
MAX_PACKAGE_PARTS = 2_000
#: A dynamic data exchange field (Word ``DDE``/``DDEAUTO``, ECMA-376 part 1, 17.16.5) or link
#: (Excel ``ddeLink``, 18.14.4; a formula calling a program, ``=cmd|' /C …'!A0``): each starts a
#: program when the document is opened or updated.
_DDE = re.compile(
    rb"<w:instrText\b[^>]{0,200}>\s*DDE(?:AUTO)?\b|\binstr\s*=\s*[\"']\s*DDE(?:AUTO)?\b"
    rb"|<(?:\w+:)?ddeLink\b|<(?:\w+:)?f\b[^>]{0,200}>[^<]{0,200}\w\|'",
    re.I,
)
#: Names of program endings, for the clerk's sentence (an ending outside the allowlist is refused either way).
_PROGRAM_ENDINGS = frozenset(
    {
        "exe", "com", "bat", "cmd", "scr", "pif", "msi", "dll", "js", "jse", "vbs", "vbe", "wsf", "ps1", "hta",
        "html", "htm", "svg", "jar", "lnk", "sh", "py", "swf", "url", "docm", "xlsm", "pptm", "dotm", "xlam",
    }
)  # fmt: skip


#: URI schemes a link may open (RFC 9110 http/https, RFC 6068 mailto); ``javascript:``, ``file:``,
#: UNC paths and relative names (which resolve to files beside the PDF) are refused.
ALLOWED_URI_SCHEMES = frozenset({"http", "https", "mailto"})
#: An indirect object's header ("12 0 obj"): what a reader rebuilds a PDF from without a header.
_PDF_OBJECT = re.compile(rb"\d+\s+\d+\s+obj\b")


def uri_scheme(value: object) -> str:
    """The scheme of a ``/URI`` action's address, lower case, without ASCII control characters
    and spaces that readers skip; "" when it has none (a relative name or a UNC path)."""
    text = bytes(value).decode("latin-1") if isinstance(value, pikepdf.String) else str(value or "")
    text = re.sub(r"[\x00-\x20\x7f]", "", text)
    match = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", text)
    return match.group(1).lower() if match else ""


def windows_name(name: str) -> str:
    """The file name a Windows reader saves ``name`` under: the last path part, an alternate data
    stream (``skript.vbs::$DATA``, ``a.txt:b.exe``) cut off, trailing dots and spaces dropped
    (``payload.exe.`` is ``payload.exe``), lower case."""
    base = re.split(r"[\\/]", name.replace("\x00", ""))[-1]
    base = base.split(":", 1)[0]
    return base.rstrip(". ").strip().lower()


def _ending(name: str) -> str:
    return name.rsplit(".", 1)[1] if "." in name else ""


def find_active_content(data: bytes, _depth: int = 0, *, opened: pikepdf.Pdf | None = None) -> list[str]:
    """The kinds of active content in the PDF ``data`` (see the module's description), sorted;
    empty for a file a contract may be. ``opened``: ``data`` already opened by qpdf (read only,
    left open). Raises ``pikepdf.PdfError`` for a file qpdf cannot open (the caller has opened it
    with PyMuPDF first, which reports damage in the clerk's words)."""
    appended = _appended(data)
    if opened is None:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            return sorted(set(_find(pdf, _depth)) | appended)
    return sorted(set(_find(opened, _depth)) | appended)


def _appended(data: bytes) -> set[str]:
    """What follows the file's last ``%%EOF`` when it is an archive, a program or a script (a
    polyglot: a PDF reader ignores it, an unpacker or a browser given the file does not)."""
    end = data.rfind(b"%%EOF")
    tail = data[end + 5 :].lstrip(b"\x00\t\n\f\r ") if end >= 0 else b""
    if not tail:
        return set()
    if b"PK\x03\x04" in tail or _PROGRAM.match(tail) or _MARKUP_SCRIPT.search(tail):
        return {"data appended after the end of the PDF"}
    return set()


def _find(pdf: pikepdf.Pdf, _depth: int) -> list[str]:
    """:func:`find_active_content` of an open document."""
    found: set[str] = set()
    root = pdf.Root
    names = root.get("/Names")
    if isinstance(names, pikepdf.Dictionary):
        for key in names.keys():
            if key not in ALLOWED_NAME_TREES:
                found.add("JavaScript" if key == "/JavaScript" else f"name tree {key[1:]}")
        if not _well_formed_tree(names.get("/EmbeddedFiles")):
            found.add("damaged attachment")
    triggers: list[object] = []
    files: dict[tuple[int, int], set[str]] = {}  # embedded file streams and the names they are saved under
    for obj in pdf.objects:
        for item in _inside(obj):
            _look(item, found, triggers, files)
    for item in _inside(root):  # the catalog's direct objects (its /OpenAction, /AA)
        _look(item, found, triggers, files)
    _automatic(triggers, found)
    for obj in pdf.objects:  # embedded files reached by no file specification (a bare stream)
        if isinstance(obj, pikepdf.Stream) and obj.get("/Type") == "/EmbeddedFile":
            files.setdefault(obj.objgen, set())
    for objgen, saved_as in sorted(files.items()):
        stream = pdf.get_object(objgen)
        if isinstance(stream, pikepdf.Stream):
            _attachment(saved_as, stream, found, _depth)
    return sorted(found)


def _once(first: list[object]) -> Iterator[tuple[object, list[object]]]:
    """Items of a stack seeded with ``first``, each indirect object once (references may form
    cycles), with the stack, onto which the caller pushes what to visit next: a walk without
    recursion, so no nesting outruns it."""
    seen: set[tuple[int, int]] = set()
    stack = list(first)
    while stack:
        item = stack.pop()
        if isinstance(item, pikepdf.Object) and item.is_indirect:
            if item.objgen in seen:
                continue
            seen.add(item.objgen)
        yield item, stack


def _well_formed_tree(tree: object) -> bool:
    """Whether an embedded-files name tree (ISO 32000-1, 7.9.6) holds only pairs of a string and
    a file specification (a dictionary), through its ``/Kids``; an absent tree is well formed.
    Readers and renderers disagree on a broken one (a number where a file should be)."""
    if tree is None:
        return True
    for node, stack in _once([tree]):
        if not isinstance(node, pikepdf.Dictionary):
            return False
        pairs = node.get("/Names")
        if pairs is not None:
            if not isinstance(pairs, pikepdf.Array) or len(pairs) % 2:
                return False
            for i in range(0, len(pairs), 2):
                if not isinstance(pairs[i], pikepdf.String) or not isinstance(pairs[i + 1], pikepdf.Dictionary):
                    return False
        kids = node.get("/Kids")
        if kids is not None:
            if not isinstance(kids, pikepdf.Array):
                return False
            stack.extend(kids)
    return True


def _inside(obj: object) -> Iterator[pikepdf.Dictionary]:
    """``obj`` (a stream's dictionary for a stream) and every dictionary directly inside it, at any
    depth, without recursion (direct objects nest as a tree: only references make cycles, and
    references are visited as objects of their own)."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, pikepdf.Stream):
            item = item.stream_dict
        if isinstance(item, pikepdf.Dictionary):
            yield item
            values: object = (item.get(k) for k in item.keys())
        elif isinstance(item, pikepdf.Array):
            values = iter(item)
        else:
            continue
        for value in values:  # type: ignore[attr-defined]  # a generator or an Array: both iterate
            if isinstance(value, pikepdf.Dictionary | pikepdf.Array) and not value.is_indirect:
                stack.append(value)


def _look(
    d: pikepdf.Dictionary, found: set[str], triggers: list[object], files: dict[tuple[int, int], set[str]]
) -> None:
    """Judge one dictionary: scripts, XFA, an action, an annotation, a file specification."""
    keys = set(d.keys())
    if keys & {"/JS", "/JavaScript"}:
        found.add("JavaScript")
    if "/XFA" in keys:
        found.add("XFA")
    action = d.get("/S")
    if isinstance(action, pikepdf.Name) and (str(action) in ACTION_TYPES or d.get("/Type") == "/Action"):
        kind = str(action)
        if kind not in ALLOWED_ACTIONS:
            found.add(ACTION_KINDS.get(kind, kind[1:]))
        elif kind == "/URI" and (scheme := uri_scheme(d.get("/URI"))) not in ALLOWED_URI_SCHEMES:
            found.add(f"URI {scheme}:" if scheme else "URI without http, https or mailto")
        elif kind == "/Named" and str(d.get("/N", "")) not in ALLOWED_NAMED:
            found.add(f"Named {str(d.get('/N', ''))[1:]}".strip())
    subtype = d.get("/Subtype")
    if isinstance(subtype, pikepdf.Name) and (d.get("/Type") == "/Annot" or "/Rect" in keys):
        if str(subtype) not in ALLOWED_ANNOTATIONS and subtype not in ("/Image", "/Form"):
            found.add("RichMedia" if subtype == "/RichMedia" else f"{str(subtype)[1:]} annotation")
    if "/OpenAction" in keys:
        triggers.append(d.get("/OpenAction"))
    if "/AA" in keys:
        aa = d.get("/AA")
        if isinstance(aa, pikepdf.Dictionary):
            triggers.extend(aa.get(k) for k in aa.keys())
    _files(d, found, files)


def _files(d: pikepdf.Dictionary, found: set[str], files: dict[tuple[int, int], set[str]]) -> None:
    """A file specification's embedded and related files, and one naming a file outside the PDF."""
    if d.get("/Subtype") == "/FileAttachment" and isinstance(d.get("/FS"), pikepdf.String):
        found.add("external file")  # a file specification as a bare string names a file outside the PDF
    embedded = d.get("/EF")
    if d.get("/Type") == "/Filespec" and not isinstance(embedded, pikepdf.Dictionary):
        found.add("external file")  # a specification of a file it does not carry
    related = d.get("/RF")
    if isinstance(related, pikepdf.Dictionary):  # related files: [name stream name stream …] per key
        for key in related.keys():
            pairs = related.get(key)
            if isinstance(pairs, pikepdf.Array):
                for name, part in zip(list(pairs)[0::2], list(pairs)[1::2], strict=False):
                    if isinstance(part, pikepdf.Stream):
                        files.setdefault(part.objgen, set()).add(windows_name(str(name)))
    if isinstance(embedded, pikepdf.Dictionary):
        saved_as = {
            windows_name(str(d.get(k)))
            for k in ("/UF", "/F", "/DOS", "/Mac", "/Unix")
            if isinstance(d.get(k), pikepdf.String)
        }
        for key in embedded.keys():
            stream = embedded.get(key)
            if isinstance(stream, pikepdf.Stream):
                files.setdefault(stream.objgen, set()).update(saved_as)


def _automatic(triggers: list[object], found: set[str]) -> None:
    """Actions run without a click (open actions, additional actions) and their ``/Next``
    chains, followed iteratively with a set of the objects seen: a web address among them
    calls home when the file is opened."""
    for action, stack in _once(triggers):
        if isinstance(action, pikepdf.Array):
            stack.extend(action)
            continue
        if not isinstance(action, pikepdf.Dictionary):
            continue  # a destination opens nothing
        if action.get("/S") == "/URI":
            found.add("URI (automatic)")
        if "/Next" in action:
            stack.append(action.get("/Next"))


def _attachment(saved_as: set[str], stream: pikepdf.Stream, found: set[str], depth: int) -> None:
    """An attached file, by every name it is saved under and by its first bytes."""
    try:
        data = stream.read_bytes()
    except pikepdf.PdfError:
        found.add("damaged attachment")
        return
    endings = {_ending(name) for name in saved_as}
    if _PROGRAM.match(data) or _MARKUP_SCRIPT.search(data) or endings & _PROGRAM_ENDINGS:
        found.add("embedded program")
        return
    refused = sorted(e or "(none)" for e in endings if e not in ALLOWED_ATTACHMENTS)
    if refused and not (data.startswith(b"%PDF-") and endings <= {""}):
        found.add("attachment type " + ", ".join(f".{e}" if e != "(none)" else e for e in refused))
    if b"%PDF-" in data or "pdf" in endings or _PDF_OBJECT.search(data):
        _embedded_pdf(data, found, depth)  # whatever its header says: MuPDF opens a file by its objects
        return
    if data.startswith(b"PK\x03\x04"):
        _package(data, endings, found)
    elif data.startswith(b"\xd0\xcf\x11\xe0"):
        found.add("embedded Office 97-2003 document")  # may carry macros no check here can read


def _embedded_pdf(data: bytes, found: set[str], depth: int) -> None:
    """A PDF inside the file (by its ending, a ``%PDF-`` anywhere, or an ``N G obj`` a reader
    rebuilds a document from), checked like the file itself; one whose header does not open it
    (a polyglot or a file without a header), nested too deep or unreadable is refused as
    ``embedded PDF``."""
    if not data.startswith(b"%PDF-") or depth + 1 > MAX_DEPTH:
        found.add("embedded PDF")
        return
    try:
        found.update(find_active_content(data, depth + 1))
    except (pikepdf.PdfError, pikepdf.PasswordError):
        found.add("embedded PDF")


def _package(data: bytes, endings: set[str], found: set[str]) -> None:
    """An Office Open XML or OpenDocument file or a signature container (ASiC-E): refused with
    macros (a VBA project, ActiveX, Excel 4 macro sheets, an OpenDocument ``Basic``/``Scripts``
    folder), embedded objects (OLE packages and documents inside), relationships to outside
    files other than hyperlinks (a remote template is fetched and run when opened; ECMA-376
    part 2, 9.3: ``TargetMode="External"``), a program among its parts (by name or first bytes),
    and a ZIP that claims no such type."""
    if not endings & _PACKAGES:
        found.add("embedded archive")
        return
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            members = [m for m in package.infolist() if not m.is_dir()]
            if len(members) > MAX_PACKAGE_PARTS:
                found.add("embedded archive of too many parts")
                return
            parts = [m.filename.lower() for m in members]
            if any(_program_part(package, m) for m in members):
                found.add("embedded program")
            if any(_dde_part(package, m) for m in members):
                found.add("embedded document with DDE")
            relationships = [m for m in members if m.filename.lower().endswith(".rels")]
            if any(_external_relationship(package, m) for m in relationships):
                found.add("embedded document with external links")
    except (zipfile.BadZipFile, ValueError, OSError, NotImplementedError, RuntimeError):
        found.add("damaged attachment")
        return
    if any(
        p.endswith(("vbaproject.bin", "vbadata.xml")) or "/activex/" in p or "/macrosheets/" in p
        or p.startswith(("basic/", "scripts/"))
        for p in parts
    ):  # fmt: skip
        found.add("embedded document with macros")
    if any("/embeddings/" in p or p.startswith("object ") or p.endswith(".bin") for p in parts):
        found.add("embedded object in a document")


#: The most bytes of one package part read for its first bytes or its relationships.
_PART_READ = 1 << 20
_EXTERNAL = re.compile(rb"<Relationship\b[^>]*>", re.I)


def _program_part(package: zipfile.ZipFile, member: zipfile.ZipInfo) -> bool:
    """Whether a part of a package is a program: by the ending of its name or its first bytes."""
    if _ending(windows_name(member.filename)) in _PROGRAM_ENDINGS:
        return True
    with package.open(member) as part:
        return bool(_PROGRAM.match(part.read(16)))


def _dde_part(package: zipfile.ZipFile, member: zipfile.ZipInfo) -> bool:
    """Whether an XML part of a document or a spreadsheet holds a DDE field, link or formula."""
    name = member.filename.lower()
    if not name.endswith(".xml") or not name.startswith(("word/", "xl/", "content", "ppt/")):
        return False
    with package.open(member) as part:
        return bool(_DDE.search(part.read(_PART_READ)))


def _external_relationship(package: zipfile.ZipFile, member: zipfile.ZipInfo) -> bool:
    """Whether a ``.rels`` part points outside the package other than by a hyperlink."""
    with package.open(member) as part:
        text = part.read(_PART_READ)
    for tag in _EXTERNAL.findall(text):
        if re.search(rb"TargetMode\s*=\s*[\"']External", tag, re.I) and not re.search(
            rb"Type\s*=\s*[\"'][^\"']*/hyperlink[\"']", tag, re.I
        ):
            return True
    return False


def refuse_active_content(data: bytes, *, opened: pikepdf.Pdf | None = None) -> None:
    """Raise :class:`~redactor.errors.ActiveContentError` (its ``kinds`` from
    :func:`find_active_content`) when the PDF ``data`` carries anything outside the allowlist:
    the one check that uploads (web and API), jobs and the CLI apply, before anything is stored.
    ``opened``: ``data`` already opened by qpdf. A file qpdf cannot open at all raises
    :class:`~redactor.errors.InvalidPdfError`."""
    try:
        kinds = find_active_content(data, opened=opened)
    except (pikepdf.PdfError, pikepdf.PasswordError) as exc:
        raise InvalidPdfError("the PDF is damaged and cannot be checked for active content") from exc
    if kinds:
        raise ActiveContentError(kinds)
