"""Plain value objects shared by every stage of the engine.

Coordinates are PDF points in PyMuPDF's page space (origin top-left of the page, y grows
downwards). Page numbers count from 1. Text offsets index into ``TextLayer.text``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypedDict

from redactor.reasons import Params, Reason, ReasonDict

#: Mean word confidence (0..100) under which an OCR page is flagged for a check by eye.
OCR_MIN_CONFIDENCE = 70.0


class Action(StrEnum):
    """What a proposal asks the reviewer to do with a span."""

    REDACT = "redact"
    KEEP = "keep"
    REVIEW = "review"


class PartyKind(StrEnum):
    """Legal nature of a contracting party (smluvní strana)."""

    NATURAL_PERSON = "natural_person"
    SOLE_TRADER = "sole_trader"  # podnikající fyzická osoba (FOP, OSVČ)
    LEGAL_PERSON = "legal_person"
    PUBLIC_BODY = "public_body"
    UNKNOWN = "unknown"

    @property
    def is_private_person(self) -> bool:
        """True for the kinds whose data is personal data under GDPR (natural persons, sole traders)."""
        return self in (PartyKind.NATURAL_PERSON, PartyKind.SOLE_TRADER)


@dataclass(frozen=True)
class Box:
    """A rectangle on one page: ``page`` counts from 1, coordinates in PDF points."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float

    def as_list(self) -> list[float]:
        """``[x0, y0, x1, y1]`` rounded to 0.01 pt, for JSON."""
        return [round(self.x0, 2), round(self.y0, 2), round(self.x1, 2), round(self.y1, 2)]


@dataclass(frozen=True)
class Span:
    """A half-open character range ``[start, end)`` of ``TextLayer.text``."""

    start: int
    end: int

    def overlaps(self, other: Span) -> bool:
        """True when the two ranges share at least one character."""
        return self.start < other.end and other.start < self.end

    def contains(self, other: Span) -> bool:
        """True when ``other`` lies inside this range."""
        return self.start <= other.start and other.end <= self.end

    def __len__(self) -> int:
        return self.end - self.start


class FindingAttributes(TypedDict, total=False):
    """What a recognizer noted beside a finding, for the later stages (each key optional).

    ``kind``: a :class:`PartyKind` value an organisation's name implies; ``agency``: the name is
    the agency's own (its profile); ``context``: an address's cue ("residence", "seat", …) or
    None; ``service``: the cue word of a reception's or switchboard's number; ``local_parts``:
    the name-like parts of an e-mail's local part; a person's name carries ``cluster`` (from 1),
    ``given`` and ``surname`` (its words), ``folded`` (its words without diacritics, lower case)
    and the lower-case text ``before`` and ``after`` it; ``clause``: the clause a value stands in
    (``"certification"``: a signature certification clause).
    """

    kind: str
    agency: bool
    context: str | None
    service: str
    local_parts: list[str]
    cluster: int
    given: list[str]
    surname: list[str]
    folded: list[str]
    before: str
    after: str
    clause: str


class RuleHit(TypedDict):
    """A rule of the rule book (:mod:`redactor.rulebook`) that made or decided a finding: its
    ``id`` (an agency's learned rule: ``"agency:<pk>"``) and what it ``saw`` (the cue word, the
    checksum's verdict, the block, the holder), in English."""

    id: str
    saw: str


@dataclass
class Finding:
    """One recognizer hit: a category from the category map, a span, a score and the evidence.

    ``category`` is the map ID (the thesis' numbering, see ``data/category_map.json``).
    ``holder`` optionally names who the finding belongs to when the recognizer itself knows it
    (``"person:3"``, ``"party:2"``, or ``"natural_person"`` when the value proves it, as a DIČ
    made of a birth number does).
    """

    category: int
    span: Span
    text: str
    score: float
    recognizer: str
    evidence: str
    holder: str | None = None
    attributes: FindingAttributes = field(default_factory=lambda: FindingAttributes())
    #: The rules that made the finding, first the recognizer's (empty: the rule book's rule made
    #: by :attr:`recognizer`, :func:`redactor.rulebook.made_by`).
    rules: list[RuleHit] = field(default_factory=list)


class PartyDict(TypedDict):
    """:meth:`Party.to_dict`'s shape."""

    index: int
    label: str
    kind: str
    name: str
    roles: list[str]
    evidence: str
    blocks: list[list[int]]


@dataclass
class Party:
    """A contracting party found in the text.

    ``blocks`` are the text ranges where the party is introduced (header entry, signature
    block); ``roles`` are the lower-case role nouns that refer to it (``"prodávající"``).
    """

    index: int  # 1-based, in order of appearance
    label: str
    kind: PartyKind
    blocks: list[Span]
    roles: list[str]
    name: str = ""
    evidence: str = ""
    #: the blocks that are the party's own letterhead (its name over its department, seat and
    #: numbers at the head of a page), also in ``blocks``
    letterheads: list[Span] = field(default_factory=list)

    def contains(self, span: Span) -> bool:
        """True when ``span`` lies in one of the party's blocks."""
        return any(block.contains(span) for block in self.blocks)

    def to_dict(self) -> PartyDict:
        """JSON form: ``index`` (from 1), ``label``, ``kind`` (a :class:`PartyKind` value),
        ``name``, ``roles``, ``evidence`` and ``blocks`` as ``[start, end]`` character offsets."""
        return {
            "index": self.index,
            "label": self.label,
            "kind": self.kind.value,
            "name": self.name,
            "roles": self.roles,
            "evidence": self.evidence,
            "blocks": [[b.start, b.end] for b in self.blocks],
        }

    def describe(self) -> str:
        """Human-readable label, e.g. ``natural person party 2 (prodávající)``."""
        role = f" ({self.label})" if self.label else ""
        return f"{self.kind.value.replace('_', ' ')} party {self.index}{role}"

    def who(self, how: str | None = None) -> ReasonDict:
        """The party as a reason parameter (``who_party``; ``how`` a term key such as
        ``"possessive"``), rendered "natural person party 2 (prodávající)" or in Czech."""
        params: Params = {"kind": {"term": self.kind.value}, "index": self.index, "label": self.label or "–"}
        if how:
            params["how"] = {"term": how}
        return {"code": "who_party_how" if how else "who_party", "params": params}


class BoxDict(TypedDict):
    """A box as JSON: its ``page`` (from 1) and ``rect`` ``[x0, y0, x1, y1]`` in points."""

    page: int
    rect: list[float]


class ProposalDict(TypedDict):
    """:meth:`ProposedRedaction.to_dict`'s shape; ``reason`` carries its English ``text`` too."""

    id: int
    page: int
    boxes: list[BoxDict]
    text: str
    category: int
    category_name: str
    category_type: str
    action: str
    score: float
    reason: RenderedReason
    recognizer: str
    evidence: str
    rules: list[RuleHit]
    span: list[int]
    cluster: str | None


class RenderedReason(TypedDict):
    """A reason (:class:`~redactor.reasons.ReasonDict`) with its English sentence
    (``text``), as a proposal's JSON carries it."""

    code: str
    params: Params
    text: str


@dataclass
class ProposedRedaction:
    """A suggested redaction or an explicit keep, with everything a reviewer needs: the engine's
    side of what the web app stores as a proposal.

    ``boxes`` cover the span on the page(s), one per text line, in PDF points.
    ``reason`` says why, as a code with parameters (:class:`~redactor.reasons.Reason`);
    ``str(reason)`` is the English sentence ("Redact: Bank account number belongs to natural
    person party 2 (prodávající), named as its owner.").
    """

    id: int
    page: int
    boxes: list[Box]
    text: str
    category: int
    category_name: str
    category_type: str  # primary | secondary | not_subject
    action: Action
    score: float
    reason: Reason
    recognizer: str
    evidence: str
    span: Span
    cluster: str | None = None  # same person / same value across the document
    #: A short code burn-in prints inside each of the boxes (the legal ground, "OÚ"), as pixels;
    #: empty: the box is plain black (:func:`~redactor.publish.burn.label_size`).
    label: str = ""
    #: The rules that made the proposal (the rule book's ids, with what each saw) and, last, the
    #: decision (``"decision:<reason code>"``) or the agency's learned rule (``"agency:<pk>"``).
    rules: list[RuleHit] = field(default_factory=list)

    def to_dict(self) -> ProposalDict:
        """JSON-ready dictionary (boxes as ``[x0, y0, x1, y1]`` with their page)."""
        reason = self.reason.to_dict()
        return {
            "id": self.id,
            "page": self.page,
            "boxes": [{"page": b.page, "rect": b.as_list()} for b in self.boxes],
            "text": self.text,
            "category": self.category,
            "category_name": self.category_name,
            "category_type": self.category_type,
            "action": self.action.value,
            "score": self.score,
            "reason": {"code": reason["code"], "params": copy.deepcopy(reason["params"]), "text": str(self.reason)},
            "recognizer": self.recognizer,
            "evidence": self.evidence,
            "rules": [RuleHit(id=hit["id"], saw=hit["saw"]) for hit in self.rules],
            "span": [self.span.start, self.span.end],
            "cluster": self.cluster,
        }


class PageDict(TypedDict):
    """:meth:`PageInfo.to_dict`'s shape (sizes in points)."""

    number: int
    width: float
    height: float
    characters: int
    image_coverage: float
    needs_ocr: bool
    ocr: bool
    ocr_replaced: bool
    ocr_confidence: float | None
    scan_layer: bool
    pictures_read: bool
    pictured: bool
    needs_check: bool


@dataclass
class PageInfo:
    """One page of the extracted document: number from 1, size in points, its text range."""

    number: int
    width: float
    height: float
    start: int
    end: int
    char_count: int
    image_coverage: float  # share of the page area covered by images, 0..1
    needs_ocr: bool  # no usable text layer and it could not be read by OCR: nothing was analysed
    ocr: bool = False  # the page's text comes from OCR (Tesseract)
    ocr_replaced: bool = False  # a text layer of another OCR tool was on the page and is replaced
    ocr_confidence: float | None = None  # mean word confidence 0..100 of the OCR
    scan_layer: bool = False  # a scan whose own (invisible) OCR layer was kept: it agrees with Tesseract
    pictures_read: bool = False  # a text page whose pictures (a pasted ID card) were read by OCR too
    # its visible text could not be read from the file (glyphs without meaning, outlines): the
    # rebuild turned it into a picture, read by OCR like a scan (redactor.pdf.rebuild)
    pictured: bool = False
    # visible text whose Unicode lost the diacritics its glyphs show (a scanner's font mapping "ř"
    # to "r"): analysed as Tesseract reads the glyphs, published as its picture with those words
    text_misread: bool = False

    def to_dict(self) -> PageDict:
        """JSON form of the page (sizes in points rounded to 0.01; ``needs_check`` computed), as
        the analysis summary and the stored contract keep it."""
        return {
            "number": self.number,
            "width": round(self.width, 2),
            "height": round(self.height, 2),
            "characters": self.char_count,
            "image_coverage": self.image_coverage,
            "needs_ocr": self.needs_ocr,
            "ocr": self.ocr,
            "ocr_replaced": self.ocr_replaced,
            "ocr_confidence": self.ocr_confidence,
            "scan_layer": self.scan_layer,
            "pictures_read": self.pictures_read,
            "pictured": self.pictured,
            "needs_check": self.needs_check,
        }

    @property
    def is_scan(self) -> bool:
        """True for a scanned page whose text is an OCR layer: Tesseract's (the published text
        layer is written from the analysed words) or another tool's checked one (kept as it is
        outside the redactions)."""
        return self.ocr or self.scan_layer

    @property
    def needs_check(self) -> bool:
        """True for an OCR page whose mean word confidence is under the threshold: a reviewer
        must check it by eye (words may be misread, so proposals may be missing)."""
        return self.is_scan and (self.ocr_confidence or 0.0) < OCR_MIN_CONFIDENCE


@dataclass
class VerificationResult:
    """Outcome of re-reading a redacted PDF; ``ok`` is False when anything could leak.

    ``problems`` and ``checks`` never quote a redacted value (they go to logs, the CLI's output
    and the contract's stored report): a leak names the value by its number and length.
    ``leaked`` holds the values themselves, in memory only, so that the caller can point the
    reviewer to the proposals concerned; :meth:`to_dict` leaves it out.
    """

    ok: bool
    problems: list[str]
    checks: dict[str, object]
    leaked: list[str] = field(default_factory=list)
    #: ``{page number: problems}`` for the problems that concern one page's text layer (text
    #: that was not analysed, kept words not read): such a page can be published as a picture.
    pages: dict[int, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready dictionary: ``ok``, ``problems``, ``checks``."""
        return {"ok": self.ok, "problems": list(self.problems), "checks": dict(self.checks)}
