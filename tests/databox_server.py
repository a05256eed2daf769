"""A data-box test server of this project, with a registry of contracts behind one of its boxes.

The real data-box system (ISDS) and the registry (ISRS) cannot be reached from a test machine,
so the test suite and the demo talk to this server over real HTTP: it speaks SOAP 1.1 as the
WSDL 3.11 in ``registry/isds/`` describes the four operations the product uses
(``CreateMessage`` and ``MessageDownload`` at ``<base>dz``, ``GetListOfReceivedMessages`` and
``MarkMessageAsDownloaded`` at ``<base>dx``), with HTTP Basic login per box.

A message delivered to the registry's box is processed as ISRS_aplikacni_rozhrani.pdf says: the
main file must be one of the operation XMLs (error 1), valid against the XSD 1.2.1 (2); a
``subjekt/datovaSchranka`` other than the sender needs a mandate, which this server never has
(3); every file the XML names must be in the message under exactly that name (4) and of an
accepted type (5); a record must exist (6) and not be withdrawn (7); ``pridani_prilohy`` by a
message id must name a known message (10) that published a record (11). The reply (the
operation's ``odpoved*`` with the record, its link and every file's SHA-256, or ``chyba``) is
delivered to the sender's box at once, its envelope's dmSenderRefNumber the original dmID.

Not a product feature: nothing here is reachable unless started (``DataBoxServer.start``).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from lxml import etree

from registry import isrs

SOAP = "http://schemas.xmlsoap.org/soap/envelope/"
NS = "http://isds.czechpoint.cz/v20"
_D = "{" + NS + "}"
_R = "{" + isrs.NS + "}"


@dataclass
class _Message:
    message_id: str
    sender: str
    recipient: str
    annotation: str
    files: list[tuple[str, str, str, bytes]]  # name, mime type, meta type, content
    sender_ref: str = ""
    recipient_ref: str = ""
    delivered_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    read: bool = False


@dataclass
class _Record:
    record_id: int
    publisher: str
    versions: list[int] = field(default_factory=list)
    metadata: etree._Element = field(default_factory=lambda: etree.Element(f"{_R}smlouva"))
    files: list[tuple[str, str]] = field(default_factory=list)  # name, sha256
    withdrawn: bool = False


class _Quiet(WSGIRequestHandler):
    def log_message(self, format, *args):
        pass


class DataBoxServer:
    """The server: ``add_box(box_id, login, password)`` opens a box; ``start()`` serves on
    ``host`` and a free port and returns the base URL (``http://host:port/DS/``); ``stop()``.
    ``messages`` and ``records`` are open for a test to inspect."""

    def __init__(self, registry_box: str = "whbt3kp", host: str = "127.0.0.1", port: int = 0):
        self.registry_box = registry_box
        self.host, self.port = host, port
        self.boxes: dict[str, tuple[str, str]] = {}  # login -> (box, password)
        self.messages: dict[str, _Message] = {}
        self.records: dict[int, _Record] = {}
        self._ids = itertools.count(7_100_000)
        self._record_ids = itertools.count(500_000)
        self._version_ids = itertools.count(900_000)
        self._lock = threading.Lock()
        self._server: WSGIServer | None = None
        self.add_box(registry_box, f"registry-{registry_box}", "registry")

    def add_record(self, record_id: int, publisher: str, files: list[tuple[str, str]]) -> None:
        """A record ``publisher`` (a box id) published before: ``files`` are (name, sha256)."""
        self.records[record_id] = _Record(record_id, publisher, versions=[record_id], files=list(files))

    def add_box(self, box_id: str, login: str, password: str) -> None:
        """Open data box ``box_id`` reachable with ``login`` and ``password``."""
        self.boxes[login] = (box_id, password)

    # -- serving ---------------------------------------------------------------------------
    def start(self) -> str:
        """Serve in a daemon thread; returns the base URL the client takes."""
        self._server = make_server(self.host, self.port, self.app, handler_class=_Quiet)
        self.port = self._server.server_port
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return f"http://{self.host}:{self.port}/DS/"

    def stop(self) -> None:
        """Stop serving."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def app(self, environ, start_response):
        """The WSGI application."""
        box = self._authenticate(environ.get("HTTP_AUTHORIZATION", ""))
        if box is None:
            start_response("401 Unauthorized", [("WWW-Authenticate", 'Basic realm="ISDS"')])
            return [b"unauthorized"]
        size = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(size)
        try:
            request = etree.fromstring(body, etree.XMLParser(resolve_entities=False, no_network=True))
            operation = request.find(f"{{{SOAP}}}Body")[0]
        except (etree.XMLSyntaxError, TypeError, IndexError):
            start_response("400 Bad Request", [("Content-Type", "text/plain")])
            return [b"not a SOAP request"]
        name = etree.QName(operation).localname
        handlers: dict[str, Callable[[str, etree._Element], etree._Element]] = {
            "CreateMessage": self._create_message,
            "MessageDownload": self._message_download,
            "GetListOfReceivedMessages": self._list_received,
            "MarkMessageAsDownloaded": self._mark_downloaded,
        }
        handler = handlers.get(name)
        if handler is None:
            response = self._response(name, status=("1025", "Operace není tímto serverem podporována."))
        else:
            try:
                with self._lock:
                    response = handler(box, operation)
            except _Malformed as exc:
                start_response("400 Bad Request", [("Content-Type", "text/plain")])
                return [f"{name}: {exc} missing".encode()]
        envelope = etree.Element(f"{{{SOAP}}}Envelope", nsmap={"soap": SOAP})
        etree.SubElement(envelope, f"{{{SOAP}}}Body").append(response)
        data = etree.tostring(envelope, xml_declaration=True, encoding="UTF-8")
        start_response("200 OK", [("Content-Type", "text/xml; charset=utf-8"), ("Content-Length", str(len(data)))])
        return [data]

    def _authenticate(self, header: str) -> str | None:
        if not header.startswith("Basic "):
            return None
        try:
            login, _, password = base64.b64decode(header[6:]).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            return None
        box, expected = self.boxes.get(login, (None, None))
        return box if box is not None and password == expected else None

    # -- SOAP operations -----------------------------------------------------------------------
    @staticmethod
    def _response(operation: str, status=("0000", "Provedeno úspěšně.")) -> etree._Element:
        el = etree.Element(f"{_D}{operation}Response", nsmap={"p": NS})
        return el

    @staticmethod
    def _status(parent: etree._Element, code: str = "0000", text: str = "Provedeno úspěšně.") -> None:
        st = etree.SubElement(parent, f"{_D}dmStatus")
        etree.SubElement(st, f"{_D}dmStatusCode").text = code
        etree.SubElement(st, f"{_D}dmStatusMessage").text = text

    def _create_message(self, box: str, op: etree._Element) -> etree._Element:
        env = _child(op, f"{_D}dmEnvelope")
        recipient = (env.findtext(f"{_D}dbIDRecipient") or "").strip()
        out = self._response("CreateMessage")
        if recipient not in {b for b, _p in self.boxes.values()}:
            self._status(out, "1219", "Cílová schránka neexistuje nebo není přístupná.")
            return out
        files = []
        for f in _child(op, f"{_D}dmFiles").findall(f"{_D}dmFile"):
            content = base64.b64decode(f.findtext(f"{_D}dmEncodedContent") or "")
            files.append((f.get("dmFileDescr", ""), f.get("dmMimeType", ""), f.get("dmFileMetaType", ""), content))
        message = _Message(
            message_id=str(next(self._ids)),
            sender=box,
            recipient=recipient,
            annotation=env.findtext(f"{_D}dmAnnotation") or "",
            files=files,
            sender_ref=env.findtext(f"{_D}dmSenderRefNumber") or "",
        )
        self.messages[message.message_id] = message
        if recipient == self.registry_box:
            self._registry(message)
        etree.SubElement(out, f"{_D}dmID").text = message.message_id
        self._status(out)
        return out

    def _envelope(self, parent: etree._Element, m: _Message) -> None:
        for name, value in (
            ("dmID", m.message_id), ("dbIDSender", m.sender), ("dmSender", f"Schránka {m.sender}"),
            ("dmSenderAddress", ""), ("dmSenderType", "10"), ("dmRecipient", f"Schránka {m.recipient}"),
            ("dmRecipientAddress", ""), ("dmSenderOrgUnit", None), ("dmSenderOrgUnitNum", None),
            ("dbIDRecipient", m.recipient), ("dmRecipientOrgUnit", None), ("dmRecipientOrgUnitNum", None),
            ("dmToHands", None), ("dmAnnotation", m.annotation), ("dmRecipientRefNumber", m.recipient_ref),
            ("dmSenderRefNumber", m.sender_ref),
        ):  # fmt: skip
            el = etree.SubElement(parent, f"{_D}{name}")
            if value is None:
                el.set("{http://www.w3.org/2001/XMLSchema-instance}nil", "true")
            else:
                el.text = value

    def _list_received(self, box: str, op: etree._Element) -> etree._Element:
        since = _when(op.findtext(f"{_D}dmFromTime"))
        until = _when(op.findtext(f"{_D}dmToTime"))
        out = self._response("GetListOfReceivedMessages")
        records = etree.SubElement(out, f"{_D}dmRecords")
        for i, m in enumerate(m for m in self.messages.values() if m.recipient == box):
            if (since and m.delivered_at < since) or (until and m.delivered_at > until):
                continue
            rec = etree.SubElement(records, f"{_D}dmRecord")
            etree.SubElement(rec, f"{_D}dmOrdinal").text = str(i + 1)
            self._envelope(rec, m)
            etree.SubElement(rec, f"{_D}dmMessageStatus").text = "6" if m.read else "4"
            etree.SubElement(rec, f"{_D}dmAttachmentSize").text = str(sum(len(f[3]) for f in m.files) // 1024)
            etree.SubElement(rec, f"{_D}dmDeliveryTime").text = m.delivered_at.isoformat()
            etree.SubElement(rec, f"{_D}dmAcceptanceTime").text = m.delivered_at.isoformat()
        self._status(out)
        return out

    def _message_download(self, box: str, op: etree._Element) -> etree._Element:
        m = self.messages.get(op.findtext(f"{_D}dmID") or "")
        out = self._response("MessageDownload")
        if m is None or m.recipient != box:
            self._status(out, "1219", "Zpráva neexistuje nebo není určena této schránce.")
            return out
        returned = etree.SubElement(out, f"{_D}dmReturnedMessage")
        dm = etree.SubElement(returned, f"{_D}dmDm")
        self._envelope(dm, m)
        files = etree.SubElement(dm, f"{_D}dmFiles")
        for name, mime, meta, content in m.files:
            f = etree.SubElement(
                files, f"{_D}dmFile", dmMimeType=mime, dmFileMetaType=meta or "enclosure", dmFileDescr=name
            )
            etree.SubElement(f, f"{_D}dmEncodedContent").text = base64.b64encode(content).decode()
        etree.SubElement(returned, f"{_D}dmHash", algorithm="SHA-256").text = base64.b64encode(
            hashlib.sha256(b"".join(f[3] for f in m.files)).digest()
        ).decode()
        for name in ("dmQTimestamp",):
            etree.SubElement(returned, f"{_D}{name}").text = base64.b64encode(b"timestamp").decode()
        etree.SubElement(returned, f"{_D}dmDeliveryTime").text = m.delivered_at.isoformat()
        etree.SubElement(returned, f"{_D}dmAcceptanceTime").text = m.delivered_at.isoformat()
        etree.SubElement(returned, f"{_D}dmMessageStatus").text = "6" if m.read else "4"
        etree.SubElement(returned, f"{_D}dmAttachmentSize").text = str(sum(len(f[3]) for f in m.files) // 1024)
        self._status(out)
        return out

    def _mark_downloaded(self, box: str, op: etree._Element) -> etree._Element:
        m = self.messages.get(op.findtext(f"{_D}dmID") or "")
        out = self._response("MarkMessageAsDownloaded")
        if m is None or m.recipient != box:
            self._status(out, "1219", "Zpráva neexistuje nebo není určena této schránce.")
        else:
            m.read = True
            self._status(out)
        return out

    # -- the registry behind its box -------------------------------------------------------------
    def _registry(self, message: _Message) -> None:
        try:
            root_name, _root, reply_record = self._process(message)
            reply = self._reply(root_name, message, reply_record)
        except _Refusal as refusal:
            reply = etree.Element(f"{_R}chyba", nsmap={None: isrs.NS})
            etree.SubElement(reply, f"{_R}puvodniZprava").text = message.message_id
            etree.SubElement(reply, f"{_R}kodChyby").text = refusal.code
            etree.SubElement(reply, f"{_R}chybovyText").text = refusal.text
            root_name = "chyba"
        data = etree.tostring(reply, xml_declaration=True, encoding="UTF-8")
        answer = _Message(
            message_id=str(next(self._ids)),
            sender=self.registry_box,
            recipient=message.sender,
            annotation=message.annotation,
            files=[(f"{etree.QName(reply).localname}.xml", "application/xml", "main", data)],
            sender_ref=message.message_id,
            recipient_ref=message.sender_ref,
        )
        self.messages[answer.message_id] = answer

    def _process(self, message: _Message):
        main = [f for f in message.files if f[2] == "main" and f[0] in isrs.FILE_NAMES.values()]
        if not main:
            raise _Refusal("1", "V datové zprávě nebyla nalezena žádná hlavní xml příloha.")
        name, _mime, _meta, content = main[0]
        try:
            root_name = isrs.validate(content)
        except isrs.RegistryXmlError as exc:
            raise _Refusal("2", f"Chyba XSD validace: {exc}") from None
        if isrs.FILE_NAMES.get(root_name) != name:
            raise _Refusal("1", "Název hlavní přílohy neodpovídá operaci.")
        root = etree.fromstring(content)
        box = root.findtext(f"{_R}smlouva/{_R}subjekt/{_R}datovaSchranka")
        if box and box != message.sender:
            raise _Refusal("3", "Pro zadanou datovou schránku subjektu neexistuje platné zmocnění.")
        # the schema (validated above) requires each file's name
        named = [p.findtext(f"{_R}nazevSouboru") or "" for p in root.iterfind(f"{_R}prilohy/{_R}priloha")]
        enclosures = {f[0]: f[3] for f in message.files if f[2] != "main"}
        for file_name in named:
            if file_name not in enclosures:
                raise _Refusal("4", f"Příloha {file_name} uvedená v XML není v datové zprávě.")
            if file_name.rsplit(".", 1)[-1].lower() not in isrs.FILE_TYPES:
                raise _Refusal("5", f"Nepodporovaný typ přílohy {file_name}.")
        files = [(n, hashlib.sha256(enclosures[n]).hexdigest()) for n in named]
        if root_name == "zverejneni":
            record = _Record(next(self._record_ids), message.sender, metadata=_child(root, f"{_R}smlouva"))
            self.records[record.record_id] = record
            message.recipient_ref = str(record.record_id)
        else:
            record = self._target(root, message)
            if root_name == "modifikace":
                record.metadata = _child(root, f"{_R}smlouva")
                if files:  # a new version's files replace the record's
                    record.files = []
            elif root_name == "znepristupneni":
                record.withdrawn = True
        record.files += files
        record.versions.append(next(self._version_ids))
        return root_name, root, record

    def _target(self, root: etree._Element, message: _Message) -> _Record:
        record_id = root.findtext(f"{_R}idSmlouvy")
        if record_id is None:
            by_message = self.messages.get(root.findtext(f"{_R}datovaZprava") or "")
            if by_message is None:
                raise _Refusal("10", "Odkaz na neexistující ID datové zprávy.")
            if not by_message.recipient_ref:
                raise _Refusal("11", "Odkazovaná datová zpráva neodkazuje na publikovanou smlouvu.")
            record_id = by_message.recipient_ref
        record = self.records.get(int(record_id))
        if record is None:
            raise _Refusal("6", "Odkaz na neexistující smlouvu.")
        if record.withdrawn:
            raise _Refusal("7", "Pokus o manipulaci se znepřístupněnou smlouvou.")
        return record

    def _reply(self, root_name: str, message: _Message, record: _Record) -> etree._Element:
        reply = etree.Element(f"{_R}{isrs.REPLIES[root_name]}", nsmap={None: isrs.NS})
        etree.SubElement(reply, f"{_R}puvodniZprava").text = message.message_id
        data = etree.SubElement(reply, f"{_R}data")
        ident = etree.SubElement(data, f"{_R}identifikator")
        etree.SubElement(ident, f"{_R}idSmlouvy").text = str(record.record_id)
        etree.SubElement(ident, f"{_R}idVerze").text = str(record.versions[-1])
        etree.SubElement(data, f"{_R}odkaz").text = f"https://smlouvy.gov.cz/smlouva/{record.versions[-1]}"
        etree.SubElement(data, f"{_R}casZverejneni").text = datetime.now(UTC).replace(microsecond=0).isoformat()
        metadata = etree.fromstring(etree.tostring(record.metadata))
        data.append(metadata)
        files = etree.SubElement(data, f"{_R}prilohy")
        for name, digest in record.files:
            p = etree.SubElement(files, f"{_R}priloha")
            etree.SubElement(p, f"{_R}hash", algoritmus="sha256").text = digest
            etree.SubElement(p, f"{_R}nazevSouboru").text = name
        confirmation = etree.SubElement(reply, f"{_R}potvrzeni")
        etree.SubElement(confirmation, f"{_R}hash", algoritmus="sha256").text = hashlib.sha256(
            etree.tostring(data)
        ).hexdigest()
        etree.SubElement(confirmation, f"{_R}elektronickaZnacka").text = base64.b64encode(b"test-seal").decode()
        return reply


class _Malformed(Exception):
    """A request without an element the data-box interface requires (the element's name)."""


def _child(el: etree._Element, path: str) -> etree._Element:
    """``el``'s element at ``path``; raises :class:`_Malformed` when it is missing."""
    found = el.find(path)
    if found is None:
        raise _Malformed(etree.QName(path).localname)
    return found


class _Refusal(Exception):
    def __init__(self, code: str, text: str):
        super().__init__(text)
        self.code, self.text = code, text


def _when(text: str | None) -> datetime | None:
    if not text:
        return None
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=UTC)
