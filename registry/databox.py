"""A client of the data-box (ISDS) web services, on the official WSDL 3.11 with zeep.

Only what publishing in the registry of contracts needs: ``CreateMessage`` (send a message with
files, ``dm_operations.wsdl``), ``GetListOfReceivedMessages`` and ``MarkMessageAsDownloaded``
(``dm_info.wsdl``), ``MessageDownload`` (``dm_operations.wsdl``). The WSDL and its schema are
bundled in ``registry/isds/`` (MIT licence of the tomas-kulhanek/czech-data-box repository they
were copied from); the service addresses are replaced by the environment's base URL, operations
at ``<base>dz`` and information at ``<base>dx``. Login is HTTP Basic with the data box's login
and password, or TLS with a system certificate (``cert``: a PEM file with the key).

Every failure is a :class:`DataBoxError` whose ``code`` is ISDS's ``dmStatusCode`` (``0000`` is
success), "login" for refused credentials or "transport" for a network or protocol failure.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import requests
from zeep import Client, Settings
from zeep.exceptions import Error as ZeepError
from zeep.transports import Transport

WSDL_DIR = Path(__file__).resolve().parent / "isds"
NS = "http://isds.czechpoint.cz/v20"


class DataBoxError(Exception):
    """A data-box operation that did not succeed: ``code`` (ISDS dmStatusCode or "transport")
    and ``message`` (ISDS's text, in Czech)."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class OutgoingFile:
    """A file of a message: ``name`` (dmFileDescr), ``content``, ``mime_type`` and ``meta_type``
    ("main" for the first, the operation's XML; "enclosure" for the others)."""

    name: str
    content: bytes
    mime_type: str
    meta_type: str = "enclosure"


@dataclass(frozen=True)
class ReceivedMessage:
    """A message in the box's inbox: ``message_id`` (dmID), ``sender_box`` (dbIDSender),
    ``annotation`` (věc), ``delivered_at`` and ``our_ref`` (dmRecipientRefNumber: the sender's
    copy of our reference)."""

    message_id: str
    sender_box: str
    annotation: str
    delivered_at: datetime | None
    our_ref: str = ""


def _refused_login(response, *args, **kwargs):
    """A 401 or 403 is ISDS refusing the credentials; zeep would try to read it as SOAP."""
    if response.status_code in (401, 403):
        raise DataBoxError("login", f"the data box refused the login (HTTP {response.status_code})")
    return response


def _records(array) -> list:
    """The ``dmRecord`` items of a ``tRecordsArray`` (a repeated sequence, which zeep returns as
    ``_value_1``: a list of ``{"dmRecord": …}``)."""
    if array is None:
        return []
    items = getattr(array, "_value_1", None) or []
    return [item["dmRecord"] if isinstance(item, dict) else item for item in items]


class DataBoxClient:
    """One data box's session: ``base_url`` ends with "/" (e.g. ``https://ws1.datovka.gov.cz/DS/``);
    ``login`` and ``password`` for Basic authentication or ``cert`` (path to a PEM with the
    certificate and key); ``timeout`` in seconds per request."""

    def __init__(
        self, base_url: str, *, login: str = "", password: str = "", cert: str | None = None, timeout: int = 60
    ):
        session = requests.Session()
        if login:
            session.auth = (login, password)
        if cert:
            session.cert = cert
        session.hooks["response"].append(_refused_login)
        transport = Transport(session=session, timeout=timeout, operation_timeout=timeout)
        settings = Settings(strict=False, xml_huge_tree=False, forbid_dtd=True, forbid_entities=True)
        base = base_url if base_url.endswith("/") else base_url + "/"
        ops = Client(str(WSDL_DIR / "dm_operations.wsdl"), transport=transport, settings=settings)
        info = Client(str(WSDL_DIR / "dm_info.wsdl"), transport=transport, settings=settings)
        self._ops = ops.create_service(f"{{{NS}}}dmOperationsBinding", base + "dz")
        self._info = info.create_service(f"{{{NS}}}dmInfoBinding", base + "dx")
        self._ops_client = ops

    @staticmethod
    def _check(status) -> None:
        code = getattr(status, "dmStatusCode", None) or "transport"
        if code != "0000":
            raise DataBoxError(code, getattr(status, "dmStatusMessage", "") or "no status in the reply")

    def _call(self, service, name: str, **kwargs):
        try:
            return getattr(service, name)(**kwargs)
        except DataBoxError:
            raise
        except (ZeepError, requests.RequestException, AttributeError) as exc:
            raise DataBoxError("transport", str(exc)) from exc

    def send(self, *, recipient: str, annotation: str, files: list[OutgoingFile], our_ref: str = "") -> str:
        """Send a message to data box ``recipient`` with subject ``annotation`` (at most 255
        characters) and ``files``; returns its dmID. ``our_ref`` goes into dmSenderRefNumber (the
        registry copies it into its reply's dmRecipientRefNumber). Raises :class:`DataBoxError`."""
        envelope = {
            "dbIDRecipient": recipient,
            "dmAnnotation": annotation[:255],
            "dmSenderRefNumber": our_ref[:50] or None,
            "dmPersonalDelivery": False,
            "dmAllowSubstDelivery": True,
        }
        factory = self._ops_client.type_factory("ns0")
        dm_files = factory.tFilesArray(
            dmFile=[
                {
                    "dmEncodedContent": f.content,
                    "dmMimeType": f.mime_type,
                    "dmFileMetaType": f.meta_type,
                    "dmFileDescr": f.name,
                }
                for f in files
            ]
        )
        result = self._call(self._ops, "CreateMessage", dmEnvelope=envelope, dmFiles=dm_files)
        self._check(result.dmStatus)
        return str(result.dmID)

    def received(self, since: datetime, until: datetime) -> list[ReceivedMessage]:
        """The messages delivered to this box between ``since`` and ``until`` (aware datetimes).
        Raises :class:`DataBoxError`."""
        result = self._call(
            self._info,
            "GetListOfReceivedMessages",
            dmFromTime=since,
            dmToTime=until,
            dmRecipientOrgUnitNum=None,
            dmStatusFilter="-1",
            dmOffset=1,
            dmLimit=1000,
        )
        self._check(result.dmStatus)
        records = _records(result.dmRecords)
        return [
            ReceivedMessage(
                message_id=str(r.dmID),
                sender_box=r.dbIDSender or "",
                annotation=r.dmAnnotation or "",
                delivered_at=r.dmDeliveryTime,
                our_ref=r.dmRecipientRefNumber or "",
            )
            for r in records or []
        ]

    def download(self, message_id: str) -> list[tuple[str, bytes]]:
        """The files of received message ``message_id``: ``[(dmFileDescr, content)]``, the main
        file first. Raises :class:`DataBoxError`."""
        result = self._call(self._ops, "MessageDownload", dmID=message_id)
        self._check(result.dmStatus)
        files = result.dmReturnedMessage.dmDm.dmFiles.dmFile
        out = []
        for f in files:
            content = f.dmEncodedContent
            if isinstance(content, str):
                content = base64.b64decode(content)
            out.append((f.dmFileDescr, content or b""))
        return out

    def mark_downloaded(self, message_id: str) -> None:
        """Mark received message ``message_id`` as read. Raises :class:`DataBoxError`."""
        result = self._call(self._info, "MarkMessageAsDownloaded", dmID=message_id)
        # the response has the status as its only element, which zeep returns unwrapped
        self._check(getattr(result, "dmStatus", result))
