"""Active content: what makes a PDF act when it is opened or clicked, found so that an upload
carrying it is refused at the door and nothing of it is stored.

A contract has no reason to run code, open other files or call home; a file that does is more
likely an attack than a contract, and the original is offered to every member of the agency as
a download. What is refused (kinds as :func:`find_active_content` names them):

- ``JavaScript``: a script anywhere (a ``/JS`` or ``/JavaScript`` key: actions, the document's
  name tree, form fields), also inside a PDF embedded in the file, at any depth;
- ``XFA``: an XFA form (``/XFA`` in the AcroForm): its XML carries scripts readers run;
- ``Launch``, ``SubmitForm``, ``ImportData``: actions that start a program, send the form's
  data, or read a file into the form;
- ``GoToR``, ``GoToE``: actions that open another file or an embedded one (a ``GoToR`` to a
  network share makes a Windows reader send its login hash);
- ``RichMedia``: rich-media annotations and their actions (Flash, video with scripts);
- ``URI (automatic)``: a web address opened by itself, from the document's open action or from
  additional actions (``/AA``: on opening a page, on focusing a field...). A link that a reader
  follows only on a click stays: contracts exported from Word carry them for web and e-mail
  addresses, and the published PDF drops every action anyway;
- ``embedded program``: an embedded file named as a program or a script (``.exe``, ``.js``,
  ``.html``...); an embedded PDF that cannot be opened to be checked is refused as
  ``embedded PDF``.

Actions are found wherever they are defined (``/A``, ``/AA``, ``/OpenAction``, ``/Next`` chains,
outlines), in direct and indirect objects alike; the kinds follow the PDF 1.7 specification
(ISO 32000-1, 12.6.4 *Action types*, 12.6.3 *Trigger events*).
"""

from __future__ import annotations

import io

import pikepdf

from .errors import ActiveContentError, InvalidPdfError

#: Action types (``/S``) that are active wherever they are defined (ISO 32000-1, table 198).
ACTIVE_ACTIONS = {
    "/JavaScript": "JavaScript",
    "/Launch": "Launch",
    "/SubmitForm": "SubmitForm",
    "/ImportData": "ImportData",
    "/GoToR": "GoToR",
    "/GoToE": "GoToE",
    "/RichMediaExecute": "RichMedia",
}
#: File name endings of embedded programs and scripts.
PROGRAM_SUFFIXES = (
    ".exe", ".com", ".bat", ".cmd", ".scr", ".pif", ".msi", ".dll", ".js", ".jse", ".vbs", ".vbe",
    ".wsf", ".ps1", ".hta", ".html", ".htm", ".svg", ".jar", ".lnk", ".sh", ".py", ".swf",
)  # fmt: skip
#: Embedded PDFs are checked to this depth; one nested deeper is refused as unchecked.
MAX_DEPTH = 3


def find_active_content(data: bytes, _depth: int = 0) -> list[str]:
    """The kinds of active content in the PDF ``data`` (see the module's description), sorted;
    empty for a file without any. Raises ``pikepdf.PdfError`` for a file qpdf cannot open (the
    caller has opened it with PyMuPDF first, which reports damage in the clerk's words)."""
    found: set[str] = set()
    with pikepdf.open(io.BytesIO(data)) as pdf:
        root = pdf.Root
        if "/OpenAction" in root:
            _action(root.OpenAction, found, automatic=True)
        checked = set()  # the embedded files of the document's name tree, by object
        for name, spec in pdf.attachments.items():
            file = spec.get_file()
            checked.add(file.obj.objgen)
            _embedded(name, file.read_bytes(), found, _depth)
        for obj in pdf.objects:
            _walk(obj, found)
            # an embedded file outside the name tree (a GoToE target)
            if isinstance(obj, pikepdf.Stream) and obj.get("/Type") == "/EmbeddedFile" and obj.objgen not in checked:
                _embedded("", obj.read_bytes(), found, _depth)
    return sorted(found)


def _walk(obj: object, found: set[str], depth: int = 0) -> None:
    """Look at one object and the direct objects inside it (indirect ones are visited on their
    own by :func:`find_active_content`). Direct objects nest as a tree (only references make
    cycles), so no object is met twice; ``depth`` bounds a hostile nesting."""
    if depth > 100:
        return
    if isinstance(obj, pikepdf.Stream):
        obj = obj.stream_dict
    if isinstance(obj, pikepdf.Dictionary):
        keys = set(obj.keys())
        if keys & {"/JS", "/JavaScript"}:
            found.add("JavaScript")
        if "/XFA" in keys:
            found.add("XFA")
        if obj.get("/Subtype") == "/RichMedia":
            found.add("RichMedia")
        kind = ACTIVE_ACTIONS.get(str(obj.get("/S", "")))
        if kind:
            found.add(kind)
        if "/AA" in keys:
            triggers = obj.AA
            if isinstance(triggers, pikepdf.Dictionary):
                for key in triggers.keys():
                    _action(triggers[key], found, automatic=True)
        for key in keys:
            value = obj.get(key)
            if isinstance(value, pikepdf.Dictionary | pikepdf.Array) and not value.is_indirect:
                _walk(value, found, depth + 1)
    elif isinstance(obj, pikepdf.Array):
        for value in obj:
            if isinstance(value, pikepdf.Dictionary | pikepdf.Array) and not value.is_indirect:
                _walk(value, found, depth + 1)


def _action(action: object, found: set[str], automatic: bool, hops: int = 0) -> None:
    """An action (and its ``/Next`` chain) run by a trigger: a web address opened without a
    click is active; the other kinds are found by :func:`_walk` wherever they stand."""
    if hops > 50:
        return
    if isinstance(action, pikepdf.Array):
        for item in action:
            _action(item, found, automatic, hops + 1)
        return
    if not isinstance(action, pikepdf.Dictionary):
        return  # a destination (an array of a page and a view) opens nothing
    if automatic and action.get("/S") == "/URI":
        found.add("URI (automatic)")
    if "/Next" in action:
        _action(action.Next, found, automatic, hops + 1)


def _embedded(name: str, data: bytes, found: set[str], depth: int) -> None:
    """An embedded file: a program by its name, a PDF checked like the file itself."""
    if name.lower().endswith(PROGRAM_SUFFIXES):
        found.add("embedded program")
    if b"%PDF-" not in data[:1024]:
        return
    if depth + 1 > MAX_DEPTH:
        found.add("embedded PDF")
        return
    try:
        inner = find_active_content(data[data.index(b"%PDF-") :], depth + 1)
    except pikepdf.PdfError:
        found.add("embedded PDF")
        return
    found.update(inner)


def refuse_active_content(data: bytes) -> None:
    """Raise :class:`~redactor.core.errors.ActiveContentError` (its ``kinds`` from
    :func:`find_active_content`) when the PDF ``data`` carries active content: the one check
    that uploads (web and API), jobs and the CLI apply, before anything is stored. A file qpdf
    cannot open at all raises :class:`~redactor.core.errors.InvalidPdfError`."""
    try:
        kinds = find_active_content(data)
    except pikepdf.PdfError as exc:
        raise InvalidPdfError("the PDF is damaged and cannot be checked for active content") from exc
    if kinds:
        raise ActiveContentError(kinds)
