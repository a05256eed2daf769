"""The registry of contracts' XML: the four messages the product sends, and the registry's replies
and open-data dumps it reads. Framework-free, like the engine: it knows neither Django nor the
apps, and reaches the engine through its front door (an import-linter contract).

The interface is the Ministry of the Interior's ISRS XSD 1.2.1 (namespace
``http://portal.gov.cz/rejstriky/ISRS/1.2/``; the schemas are bundled in ``xsd/``, MIT
licence of the HelpPC/isrs repository they were copied from) and its description
``ISRS_aplikacni_rozhrani.pdf``: one operation per data-box message, the operation's XML as the
message's main file under a fixed name (:data:`FILE_NAMES`), the contract's files as enclosures
named exactly (case included) as the XML names them, only the formats of :data:`FILE_TYPES`.

Every message is validated against its schema before it leaves (:func:`validate`). Replies are
read leniently: the live registry has run version 1.6 of the schemas since December 2020 (same
namespace, more elements), so :func:`parse_reply` reads the elements it knows by name and
ignores the rest; a reply that fails 1.2.1 validation is still read. The monthly dumps go
through the same record reader (:func:`parse_dump`).
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import IO
from urllib.parse import urlsplit

from lxml import etree

from redactor import plain_text
from redactor.metadata import ContractMetadata, PublishingBody, RegistryParty

NS = "http://portal.gov.cz/rejstriky/ISRS/1.2/"
_Q = "{" + NS + "}"

#: The main file's name per operation (ISRS_aplikacni_rozhrani.pdf, chapter 6).
FILE_NAMES = {
    "zverejneni": "zverejneni.xml",
    "pridaniPrilohy": "pridani_prilohy.xml",
    "modifikace": "modifikace.xml",
    "znepristupneni": "znepristupneni.xml",
}
#: The schema of each root element the product writes or reads.
SCHEMAS = {
    "zverejneni": "operace_zverejneni.xsd",
    "pridaniPrilohy": "operace_pridani_prilohy.xsd",
    "modifikace": "operace_modifikace.xsd",
    "znepristupneni": "operace_znepristupneni.xsd",
    "odpovedZverejneni": "odpoved_zverejneni.xsd",
    "odpovedPridaniPrilohy": "odpoved_pridani_prilohy.xsd",
    "odpovedModifikace": "odpoved_modifikace.xsd",
    "odpovedZnepristupneni": "odpoved_znepristupneni.xsd",
    "chyba": "chyba.xsd",
    "dump": "dump_mesice.xsd",
}
#: The reply's root per operation.
REPLIES = {
    "zverejneni": "odpovedZverejneni",
    "pridaniPrilohy": "odpovedPridaniPrilohy",
    "modifikace": "odpovedModifikace",
    "znepristupneni": "odpovedZnepristupneni",
}
#: Contract file formats the registry accepts, by extension (chapter 7).
FILE_TYPES = {"pdf", "doc", "docx", "rtf", "odt", "txt"}
#: What one data-box message may carry in files (ISDS operating rules; 100 MB only as a large
#: message, which the registry's box is not known to accept).
MESSAGE_LIMIT = 20 * 1024 * 1024
#: The registry's error codes (chapter 8), in the interface's Czech.
ERROR_CODES = {
    "1": "nenalezena operace",
    "2": "chyba XSD validace",
    "3": "selhání kontroly zadané datové schránky v datech XML vůči ISDS",
    "4": "chyba konzistence odkazovaných příloh smluv",
    "5": "nepodporovaný typ přílohy smlouvy",
    "6": "odkaz na neexistující smlouvu",
    "7": "pokus o manipulaci se znepřístupněnou smlouvou",
    "8": "neplatné zmocnění",
    "9": "pokus o zadání duplikujícího zmocnění",
    "10": "odkaz na neexistující ID datové zprávy",
    "11": "odkazovaná datová zpráva neodkazuje na publikovanou smlouvu",
}


class RegistryXmlError(ValueError):
    """A message or reply that does not conform: ``errors`` are the schema's messages (line:
    text) or the product's own ("predmet: empty")."""

    def __init__(self, errors: list[str]):
        super().__init__("; ".join(errors))
        self.errors = errors


@cache
def _schema(root: str) -> etree.XMLSchema:
    path = resources.files("registry.isrs").joinpath("xsd", SCHEMAS[root])
    with resources.as_file(path) as file:
        return etree.XMLSchema(etree.parse(str(file)))


def _root_name(doc: etree._ElementTree | etree._Element) -> str:
    root = doc.getroot() if hasattr(doc, "getroot") else doc
    return etree.QName(root).localname


def _parse(xml: bytes) -> etree._ElementTree:
    """``xml`` parsed without a document type: the registry's messages have none, and a DOCTYPE
    is how entities (expansion bombs, files and addresses read by reference) get in. Raises
    :class:`RegistryXmlError`."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False)
    try:
        doc = etree.ElementTree(etree.fromstring(xml, parser))
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise RegistryXmlError([f"not well-formed XML: {exc}"]) from None
    if doc.docinfo.doctype or doc.docinfo.internalDTD is not None:
        raise RegistryXmlError(["a document type (DOCTYPE) is not allowed"])
    return doc


def safe_link(text: str) -> str:
    """``text`` when it is an absolute http(s) address with a host, else "": the registry's
    ``odkaz`` is shown as a link and passed to the API and webhooks, so a ``javascript:`` or
    ``file:`` address in a reply must not get that far."""
    parts = urlsplit(text.strip())
    return text.strip() if parts.scheme.lower() in ("http", "https") and parts.netloc else ""


def validate(xml: bytes) -> str:
    """Validate ``xml`` against the schema of its root element; returns the root's local name.

    Raises :class:`RegistryXmlError` for malformed XML, an unknown root or a schema violation.
    """
    return _validate_tree(_parse(xml))


def _validate_tree(doc: etree._ElementTree) -> str:
    """:func:`validate` of a parsed document."""
    root = _root_name(doc)
    if etree.QName(doc.getroot()).namespace != NS or root not in SCHEMAS:
        raise RegistryXmlError([f"unknown root element {etree.QName(doc.getroot()).text}"])
    errors = _schema_errors(doc, root)
    if errors:
        raise RegistryXmlError(errors)
    return root


# -- writing --------------------------------------------------------------------------------
def missing_fields(metadata: ContractMetadata) -> list[str]:
    """The registry's required fields that ``metadata`` leaves empty, by their XSD names:
    ``smluvniStrana`` (none), ``smluvniStrana[i]/nazev``, ``predmet``, ``datumUzavreni``,
    ``ciziMena/mena`` (a foreign value without its currency)."""
    missing = []
    if not metadata.parties:
        missing.append("smluvniStrana")
    missing += [f"smluvniStrana[{i + 1}]/nazev" for i, p in enumerate(metadata.parties) if not p.name.strip()]
    if not metadata.subject.strip():
        missing.append("predmet")
    if metadata.date_concluded is None:
        missing.append("datumUzavreni")
    if metadata.foreign_value is not None and not metadata.foreign_currency:
        missing.append("ciziMena/mena")
    return missing


def _sub(parent: etree._Element, name: str, value: object = None) -> etree._Element:
    el = etree.SubElement(parent, _Q + name)
    if value is not None:
        el.text = _text(value)
    return el


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format(value.normalize(), "f") if value == value.to_integral() else format(value, "f")
    if isinstance(value, date):
        return value.isoformat()
    return plain_text(str(value))  # a value stored before the doors cleaned it cannot break the XML


def _body(parent: etree._Element, body: PublishingBody) -> None:
    el = _sub(parent, "subjekt")
    for name, value in (("datovaSchranka", body.data_box), ("nazev", body.name), ("ico", body.ico),
                        ("adresa", body.address), ("utvar", body.unit)):  # fmt: skip
        if value:
            _sub(el, name, value.strip())
    if body.payer is not None:
        _sub(el, "platce", body.payer)


def _party(parent: etree._Element, party: RegistryParty) -> None:
    el = _sub(parent, "smluvniStrana")
    if party.data_box:
        _sub(el, "datovaSchranka", party.data_box.strip())
    _sub(el, "nazev", party.name.strip())
    for name, value in (("ico", party.ico), ("adresa", party.address)):
        if value:
            _sub(el, name, value.strip())
    if party.recipient is not None:
        _sub(el, "prijemce", party.recipient)


def _contract(parent: etree._Element, m: ContractMetadata) -> None:
    el = _sub(parent, "smlouva")
    _body(el, m.publisher)
    for party in m.parties:
        _party(el, party)
    _sub(el, "predmet", m.subject.strip())
    _sub(el, "datumUzavreni", m.date_concluded)
    if m.number:
        _sub(el, "cisloSmlouvy", m.number.strip())
    if m.signed_by:
        _sub(el, "schvalil", m.signed_by.strip())
    if m.value_without_vat is not None:
        _sub(el, "hodnotaBezDph", m.value_without_vat)
    if m.value_with_vat is not None:
        _sub(el, "hodnotaVcetneDph", m.value_with_vat)
    if m.foreign_value is not None:
        foreign = _sub(el, "ciziMena")
        _sub(foreign, "hodnota", m.foreign_value)
        _sub(foreign, "mena", m.foreign_currency.upper())
    if m.related_record is not None:
        _sub(el, "navazanyZaznam", m.related_record)


def _files(parent: etree._Element, names: list[str]) -> None:
    el = _sub(parent, "prilohy")
    for name in names:
        if name.rsplit(".", 1)[-1].lower() not in FILE_TYPES:
            raise RegistryXmlError([f"{name}: the registry accepts only {', '.join(sorted(FILE_TYPES))} files"])
        _sub(_sub(el, "priloha"), "nazevSouboru", name)


def _finish(root: etree._Element) -> bytes:
    xml = etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    validate(xml)
    return xml


def _checked(metadata: ContractMetadata) -> None:
    missing = missing_fields(metadata)
    if missing:
        raise RegistryXmlError([f"{name}: empty" for name in missing])


def publish_xml(metadata: ContractMetadata, files: list[str], email: str = "") -> bytes:
    """``zverejneni.xml``: publish a new record with ``files`` (names of at least one enclosure).

    Raises :class:`RegistryXmlError` when a required field is empty (:func:`missing_fields`), a
    file's type is not accepted, or the result does not validate."""
    _checked(metadata)
    if not files:
        raise RegistryXmlError(["prilohy: at least one file"])
    root = etree.Element(_Q + "zverejneni", nsmap={None: NS})
    _contract(root, metadata)
    _files(root, files)
    if email:
        _sub(root, "emailProPotvrzeni", email)
    return _finish(root)


def modify_xml(record_id: int, metadata: ContractMetadata, files: Sequence[str] = (), email: str = "") -> bytes:
    """``modifikace.xml``: a new version of record ``record_id`` with the complete new metadata
    and, optionally, more files. Raises as :func:`publish_xml`."""
    _checked(metadata)
    root = etree.Element(_Q + "modifikace", nsmap={None: NS})
    _sub(root, "idSmlouvy", int(record_id))
    _contract(root, metadata)
    _files(root, list(files))
    if email:
        _sub(root, "emailProPotvrzeni", email)
    return _finish(root)


def add_files_xml(files: list[str], *, record_id: int | None = None, message_id: str = "", email: str = "") -> bytes:
    """``pridani_prilohy.xml``: add ``files`` to a record, named by its ``record_id`` or by the
    ``message_id`` of the data-box message that published it (exactly one of the two).
    Raises :class:`RegistryXmlError` as :func:`publish_xml` or when both or neither are given."""
    if (record_id is None) == (not message_id):
        raise RegistryXmlError(["idSmlouvy or datovaZprava: exactly one"])
    if not files:
        raise RegistryXmlError(["prilohy: at least one file"])
    root = etree.Element(_Q + "pridaniPrilohy", nsmap={None: NS})
    if record_id is not None:
        _sub(root, "idSmlouvy", int(record_id))
    else:
        _sub(root, "datovaZprava", message_id)
    _files(root, files)
    if email:
        _sub(root, "emailProPotvrzeni", email)
    return _finish(root)


def withdraw_xml(record_id: int, email: str = "") -> bytes:
    """``znepristupneni.xml``: make record ``record_id`` inaccessible (all its versions)."""
    root = etree.Element(_Q + "znepristupneni", nsmap={None: NS})
    _sub(root, "idSmlouvy", int(record_id))
    if email:
        _sub(root, "emailProPotvrzeni", email)
    return _finish(root)


def dump_xml(records: Sequence[Record], year: int, month: int, generated: datetime, complete: bool = True) -> bytes:
    """A monthly open-data dump (``dump_mesice.xsd``) of ``records``, as the registry publishes it
    (the inverse of :func:`parse_dump`; each file's ``sha256`` and ``link`` as given, its hash
    algorithm sha256). Raises :class:`RegistryXmlError` when the result does not validate."""
    root = etree.Element(_Q + "dump", nsmap={None: NS})
    _sub(root, "mesic", f"{month:02d}")
    _sub(root, "rok", year)
    _sub(root, "casGenerovani", generated.isoformat(timespec="seconds"))
    _sub(root, "dokoncenyMesic", "1" if complete else "0")
    for record in records:
        el = _sub(root, "zaznam")
        ident = _sub(el, "identifikator")
        _sub(ident, "idSmlouvy", record.record_id)
        _sub(ident, "idVerze", record.version_id)
        _sub(el, "odkaz", record.link)
        _sub(el, "casZverejneni", (record.published_at or generated).isoformat(timespec="seconds"))
        _contract(el, record.metadata)
        files = _sub(el, "prilohy")
        for f in record.files:
            item = _sub(files, "priloha")
            _sub(item, "nazevSouboru", f.name)
            _sub(item, "hash", f.sha256).set("algoritmus", "sha256")
            _sub(item, "odkaz", f.link)
        _sub(el, "platnyZaznam", "1" if record.current is not False else "0")
    return _finish(root)


def split_files(files: list[tuple[str, int]], limit: int = MESSAGE_LIMIT) -> list[list[str]]:
    """``files`` (name, size in bytes) in batches of one message each: the first for
    ``zverejneni``, the others for ``pridani_prilohy``; each under ``limit`` less room for the
    XML (64 kB, or an eighth of a small limit). Raises :class:`RegistryXmlError` for a file that
    alone is over."""
    reserve = min(64 * 1024, limit // 8)
    batches: list[list[str]] = [[]]
    used = 0
    for name, size in files:
        if size > limit - reserve:
            raise RegistryXmlError([f"{name}: {size} bytes, over the data-box message limit of {limit}"])
        if used + size > limit - reserve and batches[-1]:
            batches.append([])
            used = 0
        batches[-1].append(name)
        used += size
    return batches


def sha256(data: bytes) -> str:
    """Hex SHA-256 of a file, as the registry's replies give it (``hash algoritmus="sha256"``)."""
    return hashlib.sha256(data).hexdigest()


# -- reading --------------------------------------------------------------------------------
@dataclass
class RecordFile:
    """A file of a published record: ``name``, ``sha256`` (hex, lower case) and ``link``."""

    name: str
    sha256: str = ""
    link: str = ""


@dataclass
class Record:
    """A published version of a record: ``record_id`` (idSmlouvy), ``version_id`` (idVerze),
    ``link``, ``published_at``, the ``metadata`` as published and the ``files``; ``current``
    (platnyZaznam) only in dumps."""

    record_id: int
    version_id: int
    link: str
    published_at: datetime | None
    metadata: ContractMetadata
    files: list[RecordFile] = field(default_factory=list)
    current: bool | None = None


@dataclass
class Reply:
    """The registry's reply to one message: ``operation`` (the operation's root name, or
    "chyba"), ``message_id`` (puvodniZprava: the data-box id of the message it answers),
    ``record`` for a success, ``error_code`` / ``error_text`` for an error, ``info`` (the
    registry's remarks), ``schema_errors`` when the reply did not validate against 1.2.1."""

    operation: str
    message_id: str
    record: Record | None = None
    error_code: str = ""
    error_text: str = ""
    info: list[str] = field(default_factory=list)
    schema_errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True for a success reply."""
        return self.operation != "chyba"


def _t(el: etree._Element | None, name: str) -> str:
    if el is None:
        return ""
    found = el.find(_Q + name)
    return (found.text or "").strip() if found is not None else ""


def _bool(text: str) -> bool | None:
    return {"1": True, "true": True, "0": False, "false": False}.get(text.lower()) if text else None


def _decimal(text: str) -> Decimal | None:
    return Decimal(text) if text else None


def _read_metadata(el: etree._Element | None) -> ContractMetadata:
    if el is None:  # read leniently: a record without its contract has empty metadata
        el = etree.Element(_Q + "smlouva")
    subject = el.find(_Q + "subjekt")
    body = PublishingBody(
        data_box=_t(subject, "datovaSchranka"),
        name=_t(subject, "nazev"),
        ico=_t(subject, "ico"),
        address=_t(subject, "adresa"),
        unit=_t(subject, "utvar"),
        payer=_bool(_t(subject, "platce")),
    )
    parties = [
        RegistryParty(
            name=_t(p, "nazev"),
            ico=_t(p, "ico"),
            data_box=_t(p, "datovaSchranka"),
            address=_t(p, "adresa"),
            recipient=_bool(_t(p, "prijemce")),
        )
        for p in el.findall(_Q + "smluvniStrana")
    ]
    foreign = el.find(_Q + "ciziMena")
    concluded = _t(el, "datumUzavreni")
    related = _t(el, "navazanyZaznam")
    return ContractMetadata(
        publisher=body,
        parties=parties,
        subject=_t(el, "predmet"),
        date_concluded=date.fromisoformat(concluded[:10]) if concluded else None,
        number=_t(el, "cisloSmlouvy"),
        signed_by=_t(el, "schvalil"),
        value_without_vat=_decimal(_t(el, "hodnotaBezDph")),
        value_with_vat=_decimal(_t(el, "hodnotaVcetneDph")),
        foreign_value=_decimal(_t(foreign, "hodnota")),
        foreign_currency=_t(foreign, "mena"),
        related_record=int(related) if related else None,
    )


def _read_record(el: etree._Element) -> Record:
    """One record (a reply's ``data`` or a dump's ``zaznam``): the shared reader."""
    ident = el.find(_Q + "identifikator")
    published = _t(el, "casZverejneni")
    files = []
    prilohy = el.find(_Q + "prilohy")
    for p in prilohy.findall(_Q + "priloha") if prilohy is not None else []:
        files.append(
            RecordFile(name=_t(p, "nazevSouboru"), sha256=_t(p, "hash").lower(), link=safe_link(_t(p, "odkaz")))
        )
    current = _t(el, "platnyZaznam")
    return Record(
        record_id=int(_t(ident, "idSmlouvy")),
        version_id=int(_t(ident, "idVerze")),
        link=safe_link(_t(el, "odkaz")),
        published_at=datetime.fromisoformat(published) if published else None,
        metadata=_read_metadata(el.find(_Q + "smlouva")),
        files=files,
        current=_bool(current),
    )


def _schema_errors(doc: etree._ElementTree, root: str) -> list[str]:
    if root not in SCHEMAS:
        return [f"unknown root element {root}"]
    schema = _schema(root)
    return [] if schema.validate(doc) else [f"{e.line}: {e.message}" for e in schema.error_log]


def parse_reply(xml: bytes) -> Reply:
    """Read a reply of the registry (any ``odpoved*`` or ``chyba``), leniently (see the module
    docstring). Raises :class:`RegistryXmlError` when it is not XML of the registry's namespace
    or lacks what pairing needs (``puvodniZprava``; ``data/identifikator`` of a success)."""
    doc = _parse(xml)
    root_el = doc.getroot()
    root = _root_name(doc)
    if etree.QName(root_el).namespace != NS:
        raise RegistryXmlError([f"not a registry reply: {etree.QName(root_el).text}"])
    message_id = _t(root_el, "puvodniZprava")
    if not message_id:
        raise RegistryXmlError(["puvodniZprava: missing"])
    errors = _schema_errors(doc, root)
    if root == "chyba":
        return Reply("chyba", message_id, None, _t(root_el, "kodChyby"), _t(root_el, "chybovyText"),
                     schema_errors=errors)  # fmt: skip
    data = root_el.find(_Q + "data")
    if data is None:
        raise RegistryXmlError(["data: missing"])
    try:
        record = _read_record(data)
    except (TypeError, ValueError, ArithmeticError) as exc:
        raise RegistryXmlError([f"data: {exc}"]) from None
    operation = next((op for op, reply in REPLIES.items() if reply == root), root)
    potvrzeni = root_el.find(_Q + "potvrzeni")
    info_el = potvrzeni.find(_Q + "informace") if potvrzeni is not None else None
    info = [(t.text or "").strip() for t in info_el.findall(_Q + "text")] if info_el is not None else []
    return Reply(operation, message_id, record, info=info, schema_errors=errors)


#: The encoding an XML declaration names (XML 1.0, 2.8 and 4.3.3).
_DECLARED_ENCODING = re.compile(rb"^<\?xml[^>]{0,200}?\bencoding\s*=\s*[\"']([A-Za-z][A-Za-z0-9._-]{0,40})[\"']")


def dump_encoding_problem(head: bytes) -> str | None:
    """Why a dump whose first bytes are ``head`` cannot be read as published, or None: the
    registry publishes its open data in UTF-8 (the dumps' XML declarations say so), so a dump that
    declares another encoding (or starts with a UTF-16 byte-order mark) was converted or forged,
    and read by that declaration its Czech letters would be garbled."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "the dump is written in UTF-16, not UTF-8"
    found = _DECLARED_ENCODING.match(head.removeprefix(b"\xef\xbb\xbf").lstrip())
    declared = found.group(1).decode("ascii").replace("_", "-").upper() if found else "UTF-8"
    return None if declared in ("UTF-8", "UTF8") else f"the dump declares the encoding {declared}, not UTF-8"


def iter_dump(source: IO[bytes], keep: Callable[[PublishingBody], bool]) -> Iterator[Record]:
    """The records of a monthly dump read from the file ``source`` piece by piece, in bounded
    memory whatever the dump's size: each ``zaznam`` whose publisher (``subjekt``) ``keep``
    accepts is validated against ``dump_mesice.xsd`` on its own (the dump's head with this record)
    and read; the others are skipped unread. Raises :class:`RegistryXmlError` for XML that is not
    well-formed, a document type, an encoding other than UTF-8 (:func:`dump_encoding_problem`),
    a root other than ``dump`` or a kept record the schema refuses."""
    first = source.read(512)
    source.seek(0)
    if (problem := dump_encoding_problem(first)) is not None:
        raise RegistryXmlError([problem])
    head: list[etree._Element] = []
    context = etree.iterparse(
        source, events=("start", "end"), resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False
    )
    try:
        for event, el in context:
            name = etree.QName(el).localname
            if event == "start":
                if el.getparent() is None:
                    if el.getroottree().docinfo.doctype:
                        raise RegistryXmlError(["a document type (DOCTYPE) is not allowed"])

                    if name != "dump" or etree.QName(el).namespace != NS:
                        raise RegistryXmlError([f"not a dump: {etree.QName(el).text}"])
                continue
            parent = el.getparent()
            if parent is None or parent.getparent() is not None:
                continue  # the root's end, or an element inside a record
            if name != "zaznam":
                head.append(el)
                continue
            publisher = _read_metadata(el.find(_Q + "smlouva")).publisher
            if keep(publisher):
                yield _checked_record(head, el)
            el.clear()
            while el.getprevious() is not None:  # what was read goes (the head is kept in ``head``)
                del parent[0]
    except etree.XMLSyntaxError as exc:
        raise RegistryXmlError([f"not well-formed XML: {exc}"]) from None
    _validated_dump(head, [])  # the head itself (a dump may have no record)


def _checked_record(head: list[etree._Element], record: etree._Element) -> Record:
    """``record`` validated as the only record of a dump with ``head`` (mesic, rok, …), then read."""
    return _read_record(_validated_dump(head, [record])[-1])


def _validated_dump(head: list[etree._Element], records: list[etree._Element]) -> etree._Element:
    """A dump of copies of ``head`` and ``records``, validated. Raises :class:`RegistryXmlError`."""
    root = etree.Element(_Q + "dump", nsmap={None: NS})
    for el in [*head, *records]:
        root.append(copy.deepcopy(el))
    errors = _schema_errors(etree.ElementTree(root), "dump")
    if errors:
        raise RegistryXmlError(errors)
    return root


def parse_dump(xml: bytes, *, strict: bool = True) -> list[Record]:
    """The records of a monthly open-data dump (``dump_mesice.xsd``). ``strict`` validates
    first and raises :class:`RegistryXmlError` on a violation."""
    doc = _parse(xml)
    if _root_name(doc) != "dump":
        raise RegistryXmlError([f"not a dump: {etree.QName(doc.getroot()).text}"])
    if strict:
        _validate_tree(doc)
    return [_read_record(z) for z in doc.getroot().findall(_Q + "zaznam")]
