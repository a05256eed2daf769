"""Signatures and stamps on scans: whose ink it is, and whether it is redacted.

The ministry's methodology lists a private person's handwritten signature among the personal data
to make illegible, and a sole trader's rubber stamp with a home address with it
(``../shared/DOMAIN.md``, "Where scans hide personal data"); officials acting for a public body and
statutory representatives of companies sign in office, and their signatures follow the policy of
their names (the category map's role exceptions), unless the agency redacts officials' signatures
(:attr:`~redactor.detect.profile.AgencyProfile.redact_official_signatures`).

The ink comes from :mod:`redactor.read.handwriting` (marks no word explains). A mark becomes a
proposal in two places only, so that a handwritten date, a page number or a reader's tick does
not:

- in a **signature block**: below a label that names a signer ("Poskytovatel služeb:", "Za
  objednatele:", "Nájemce:"), a short segment of a line ending with a colon with no value to its
  right. The signer is the person whose name is printed in the block (the name's own decision),
  else the party the label names (a natural person or sole trader signs for themself; a company
  or public body through a representative or an official), else nobody known: the reviewer
  decides;
- **over a redacted value** of a private person (a stamp whose address OCR read), or **across the
  entry** of a party that is a natural person or a sole trader (a signature over the printed name,
  which OCR then reads as nothing): the ink is that person's. Only a pen's or a stamp's ink counts
  there (coloured, or taller than the lines it crosses), not print OCR read unsurely.

Boxes are PDF points of the unrotated page; pages count from 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from redactor import rulebook
from redactor.categories import NAME_CATEGORIES, SIGNATURE, SIGNATURE_NAME
from redactor.czech import strip_diacritics
from redactor.decide.category_map import CategoryMap
from redactor.detect.linking import Person
from redactor.detect.profile import AgencyProfile
from redactor.detect.roles import function_kind
from redactor.model import Action, Box, Party, PartyKind, ProposedRedaction, Span
from redactor.read.extraction import TextLayer
from redactor.read.handwriting import InkMark
from redactor.reasons import Params, Reason, TermParam

#: How far (points) a signature block reaches below its label, above it, and to its left.
BLOCK_BELOW, BLOCK_ABOVE, BLOCK_LEFT = 95.0, 20.0, 25.0
#: The widest block (points) when no other label on the line bounds it.
BLOCK_WIDTH = 230.0
#: Words on one line further apart than this (points) are separate segments (columns of a
#: signature line: "Pronajímatel:        Nájemce:").
SEGMENT_GAP = 24.0
#: A row of this many words below a label is running text, which ends its signature block.
PARAGRAPH_WORDS = 5
#: A label is at most this many words ("Za objednatele:", "Poskytovatel služeb:", "Poslanec PS PČR:").
LABEL_WORDS = 4
#: The smallest ink in a signature block taken for a signature or initials: width, height
#: (points) and inked pixels at :data:`~redactor.read.handwriting.INK_DPI`.
MIN_SIGNATURE = (18.0, 10.0, 60)
#: Share of coloured ink (0..1) from which a mark over a value is a pen's or a stamp's.
PEN_COLOURED = 0.3
#: A black mark with this many of the page's words inside is print, not a signature.
PRINT_WORDS = 4
#: A black mark this much (0..1) under words' boxes is print, not a signature.
PRINT_COVER = 0.5
#: Margin (points) around the strokes of a box.
PAD = 5.0
#: Holders whose signature is personal data (the map's ``personal_holders`` default).
_PRIVATE = frozenset({PartyKind.NATURAL_PERSON, PartyKind.SOLE_TRADER})


@dataclass
class _Label:
    """A segment of a line that introduces a signature block: its box and text."""

    box: Box
    text: str
    span: Span
    right: float  # where the block ends on the right (points)
    below: float  # where the next paragraph below starts (points): the block ends there


def signature_proposals(
    layer: TextLayer,
    parties: list[Party],
    persons: dict[str, Person],
    proposals: list[ProposedRedaction],
    cmap: CategoryMap,
    profile: AgencyProfile | None = None,
) -> list[ProposedRedaction]:
    """Proposals for the ink marks of ``layer`` (:attr:`~redactor.read.extraction.TextLayer.ink_marks`)
    that are signatures or stamps (module docstring): one per signature block or redacted value,
    its box around the marks' strokes, category :data:`SIGNATURE`, text empty (a picture has no
    text), ids following ``proposals``'. Action: redact for a private person's; keep for an
    official's or a statutory representative's while the map keeps their names and ``profile``
    does not redact officials' signatures; review when the signer is not known."""
    out: list[ProposedRedaction] = []
    rule = cmap.rule(SIGNATURE)
    names = {"cs": rule.name_cs, "en": rule.name_en} if rule is not None else dict(SIGNATURE_NAME)
    redact_officials = bool(profile and profile.redact_official_signatures)
    for number, found in sorted(layer.ink_marks.items()):
        marks = _not_print(found, layer, number)
        used: set[int] = set()
        page_proposals = [p for p in proposals if any(b.page == number for b in p.boxes)]
        # ink over a private person's redacted value is that person's
        for p in page_proposals:
            if p.action != Action.REDACT or p.category == SIGNATURE:
                continue
            over = [
                i
                for i, m in enumerate(marks)
                if i not in used and _handwritten(m, p.boxes) and any(_touches(m.box, b) for b in p.boxes)
            ]
            if not over:
                continue
            used.update(over)
            reason = Reason("ink_over_value", {"reason": p.reason.to_dict()})
            out.append(_proposal(number, [marks[i] for i in over], Action.REDACT, reason, p.span.end, names, p.cluster))
        # ink across the entry of a private party (a signature over the printed name, which OCR
        # then no longer reads) is that party's
        for party in parties:
            if party.kind not in _PRIVATE and party.kind != PartyKind.UNKNOWN:
                continue
            for block in party.blocks[:1]:  # the entry in the header; the signature block is below
                rows = [b for b in layer.span_boxes(block) if b.page == number]
                over = [
                    i
                    for i, m in enumerate(marks)
                    if i not in used and _handwritten(m, rows[:1]) and any(_centred_in(m.box, b) for b in rows)
                ]
                if not over:
                    continue
                used.update(over)
                params: Params = {"label": party.label, "kind": {"term": party.kind.value}}
                action, code = (
                    (Action.REDACT, "ink_in_entry")
                    if party.kind in _PRIVATE
                    else (Action.REVIEW, "ink_in_unknown_entry")
                )
                out.append(
                    _proposal(
                        number, [marks[i] for i in over], action, Reason(code, params), block.start, names,
                        f"party:{party.index}",
                    )
                )  # fmt: skip
        for label in _labels(layer, number):
            zone = Box(
                number,
                label.box.x0 - BLOCK_LEFT,
                label.box.y0 - BLOCK_ABOVE,
                label.right,
                min(label.box.y1 + BLOCK_BELOW, label.below),
            )
            inside = [i for i, m in enumerate(marks) if i not in used and _mostly_inside(m.box, zone)]
            if not inside or not _signature_sized([marks[i] for i in inside]):
                continue
            inside += _tails(marks, inside, used)
            used.update(inside)
            action, reason, cluster = _signer(label, zone, parties, persons, page_proposals, cmap, redact_officials)
            out.append(_proposal(number, [marks[i] for i in inside], action, reason, label.span.end, names, cluster))
    first = max((p.id for p in proposals), default=0) + 1
    for i, p in enumerate(out):
        p.id = first + i
    return out


def _signer(
    label: _Label,
    zone: Box,
    parties: list[Party],
    persons: dict[str, Person],
    page_proposals: list[ProposedRedaction],
    cmap: CategoryMap,
    redact_officials: bool,
) -> tuple[Action, Reason, str | None]:
    """Who signs in the block of ``label``: the printed name's decision, else the label's party."""
    printed = [
        p
        for p in page_proposals
        if p.category in NAME_CATEGORIES and any(_mostly_inside(b, zone) and b.y0 >= label.box.y0 for b in p.boxes)
    ]
    for p in printed:
        person = persons.get(p.cluster or "")
        if p.action == Action.REDACT:
            return Action.REDACT, Reason("signature_private", {"name": p.text, "label": label.text}), p.cluster
        if person is not None and person.role is not None:
            return _official(person.role, p.text, label, cmap, redact_officials, p.cluster)
    party = _party_of(label.text, parties)
    function = function_kind(re.sub(r"^[Zz]a\s+", "", label.text))
    if party is None and function is not None:  # "Poslanec PS PČR:", "Starosta:"
        return _official(function, label.text, label, cmap, redact_officials, None)
    if party is None:
        return Action.REVIEW, Reason("signature_unknown", {"label": label.text}), None
    if party.kind in _PRIVATE:
        who: TermParam = {"term": party.kind.value}
        return Action.REDACT, Reason("signature_party", {"label": label.text, "kind": who}), f"party:{party.index}"
    if party.kind == PartyKind.PUBLIC_BODY:
        return _official("public_official", party.name or party.label, label, cmap, redact_officials, None)
    if party.kind == PartyKind.LEGAL_PERSON:
        return _official("statutory_representative", party.name or party.label, label, cmap, redact_officials, None)
    return Action.REVIEW, Reason("signature_unknown", {"label": label.text}), None


def _official(
    role: str, name: str, label: _Label, cmap: CategoryMap, redact_officials: bool, cluster: str | None
) -> tuple[Action, Reason, str | None]:
    """An official's or a representative's signature: kept like their name (the map's role
    exception for a full name), redacted when the agency redacts officials' signatures."""
    term: TermParam = {"term": role}
    params: Params = {"name": name, "label": label.text, "role": term}
    if redact_officials:
        return Action.REDACT, Reason("signature_official_redacted", params), cluster
    exception = cmap.role_exception(role, 4)
    if exception is None:
        return Action.REDACT, Reason("signature_role_redacted", params), cluster
    return exception.action, Reason("signature_official", params), cluster


def _party_of(label: str, parties: list[Party]) -> Party | None:
    """The party whose role noun the label names ("Za objednatele:" → objednatel). A stem of
    seven letters may differ in one letter, diacritics aside: a pen across a printed label makes
    OCR misread a letter of it ("Poskyfóvatel služeb:" under a signature)."""
    words = [strip_diacritics(w) for w in re.findall(r"\w+", label.lower()) if w != "za"]
    if not words:
        return None
    for party in parties:
        for role in party.roles:
            stem = strip_diacritics(role.split()[0][:7])
            head = words[0][: len(stem)]
            if len(stem) >= 5 and (
                head == stem or (len(stem) == 7 and len(head) == 7 and sum(a != b for a, b in zip(head, stem)) == 1)
            ):
                return party
    return None


def _labels(layer: TextLayer, number: int) -> list[_Label]:
    """The segments of page ``number`` that introduce a signature block: at most
    :data:`LABEL_WORDS` words, the first a capitalised word of letters, the last ending with a
    colon, with nothing to their right on the same row of the page but other such labels (a
    header's "Telefon:" has its value there; OCR may read a form's two columns as separate lines,
    so rows are found by position, not by the text's lines)."""
    read = layer.layer_words(number)
    words = [(span, Box(number, w.x0, w.y0, w.x1, w.y1), w.text) for span, w in read]
    lines: dict[int, list[tuple[Span, Box, str]]] = {}
    for (_span, read_word), word in zip(read, words, strict=True):
        lines.setdefault(read_word.line[0], []).append(word)
    candidates: list[tuple[Box, str, Span]] = []
    for line in lines.values():
        line.sort(key=lambda w: w[1].x0)
        segments: list[list[tuple[Span, Box, str]]] = []
        for w in line:
            if segments and w[1].x0 - segments[-1][-1][1].x1 <= SEGMENT_GAP:
                segments[-1].append(w)
            else:
                segments.append([w])
        for segment in segments:
            texts = [t for _s, _b, t in segment]
            first = texts[0]
            if len(segment) > LABEL_WORDS or not texts[-1].endswith(":"):
                continue
            if not (
                first[:1].isupper()
                and len(first.rstrip(":")) >= 2
                and first.rstrip(":").isalpha()
                and not any(c.isdigit() for t in texts for c in t)
                and sum(c.isalpha() for c in "".join(texts)) >= 4
            ):
                continue
            box = Box(
                number,
                min(b.x0 for _s, b, _t in segment),
                min(b.y0 for _s, b, _t in segment),
                max(b.x1 for _s, b, _t in segment),
                max(b.y1 for _s, b, _t in segment),
            )
            candidates.append((box, " ".join(texts).rstrip(":"), Span(segment[0][0].start, segment[-1][0].end)))
    labels = {(b.x0, b.y0) for b, _t, _s in candidates}
    page = layer.pages[number - 1]
    out: list[_Label] = []
    for box, text, span in candidates:
        row = [
            b
            for _s, b, _t in words
            if b.x0 >= box.x1 + 1 and min(b.y1, box.y1) - max(b.y0, box.y0) > 0.5 * min(b.y1 - b.y0, box.y1 - box.y0)
        ]
        right = min(page.width, box.x0 + BLOCK_WIDTH)
        if row:
            nearest = min(row, key=lambda b: b.x0)
            label_there = any(abs(nearest.x0 - x) < 1 and abs(nearest.y0 - y) < 4 for x, y in labels)
            if not label_there:
                continue  # a value beside it: a header's field, not a signature block
            right = min(right, nearest.x0 - 5)
        out.append(_Label(box, text, span, max(right, box.x1), _next_paragraph(words, box, right)))
    return out


def _next_paragraph(words: list[tuple[Span, Box, str]], label: Box, right: float) -> float:
    """The top (points) of the first row below ``label`` with :data:`PARAGRAPH_WORDS` words or
    more between the label's left edge and ``right``: running text ("Beru na vědomí a s uzavřením
    této smlouvy souhlasím") ends a signature block; a printed name and function do not."""
    below = sorted(
        (b for _s, b, _t in words if b.y0 > label.y1 + 2 and b.x1 > label.x0 - BLOCK_LEFT and b.x0 < right),
        key=lambda b: b.y0,
    )
    for b in below:
        row = [o for o in below if abs((o.y0 + o.y1) / 2 - (b.y0 + b.y1) / 2) < 0.5 * (b.y1 - b.y0)]
        if len(row) >= PARAGRAPH_WORDS:
            return min(o.y0 for o in row) - 1
    return label.y1 + BLOCK_BELOW


def _proposal(
    number: int,
    marks: list[InkMark],
    action: Action,
    reason: Reason,
    at: int,
    names: dict[str, str],
    cluster: str | None,
) -> ProposedRedaction:
    box = Box(
        number,
        min(m.x0 for m in marks) - PAD,
        min(m.y0 for m in marks) - PAD,
        max(m.x1 for m in marks) + PAD,
        max(m.y1 for m in marks) + PAD,
    )
    evidence = f"{len(marks)} ink mark(s), {sum(m.pixels for m in marks)} px"
    return ProposedRedaction(
        id=0,
        page=number,
        boxes=[box],
        text="",
        category=SIGNATURE,
        category_name=names["en"],
        category_type="primary",
        action=action,
        score=1.0,
        reason=reason,
        recognizer="ink",
        evidence=evidence,
        span=Span(at, at),
        cluster=cluster or f"signature:{number}:{round(box.x0)}:{round(box.y0)}",
        rules=[{"id": rulebook.made_by("ink"), "saw": evidence}, rulebook.decided(reason.code)],
    )


def _tails(marks: list[InkMark], chosen: list[int], used: set[int]) -> list[int]:
    """The other marks within :data:`PAD` × 2 of the chosen ones' box, the box grown each time: a
    signature's last stroke reaching out of its block."""
    added: list[int] = []
    box = _union([marks[i] for i in chosen])
    grown = True
    while grown:
        grown = False
        for i, m in enumerate(marks):
            if i in used or i in chosen or i in added:
                continue
            near = Box(box.page, box.x0 - 2 * PAD, box.y0 - 2 * PAD, box.x1 + 2 * PAD, box.y1 + 2 * PAD)
            if _touches(m.box, near):
                added.append(i)
                box = _union([box, m.box])
                grown = True
    return added


def _union(items: list[InkMark] | list[Box]) -> Box:
    return Box(
        items[0].page,
        min(b.x0 for b in items),
        min(b.y0 for b in items),
        max(b.x1 for b in items),
        max(b.y1 for b in items),
    )


def _not_print(marks: list[InkMark], layer: TextLayer, number: int) -> list[InkMark]:
    """``marks`` without those that are print OCR read unsurely: black ink holding
    :data:`PRINT_WORDS` or more of the page's words (a typescript paragraph read with low
    confidence, its lines grouped into one mark) or lying mostly (:data:`PRINT_COVER`) under the
    words' boxes (a label read unsurely, "r.č."). A pen's or a stamp's coloured ink stays, words
    and all (a stamp's text is read too)."""
    words = [Box(number, w.x0, w.y0, w.x1, w.y1) for _span, w in layer.layer_words(number)]
    centres = [((w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2) for w in words]
    return [
        m
        for m in marks
        if m.coloured >= PEN_COLOURED
        or (
            sum(m.x0 <= x <= m.x1 and m.y0 <= y <= m.y1 for x, y in centres) < PRINT_WORDS
            and _covered_share(m.box, words) < PRINT_COVER
        )
    ]


def _covered_share(mark: Box, words: list[Box]) -> float:
    """The share (0..1) of ``mark``'s area under the boxes of ``words`` (overlaps counted once,
    on a 1-point grid)."""
    width, height = max(1, round(mark.x1 - mark.x0)), max(1, round(mark.y1 - mark.y0))
    grid = [[False] * width for _ in range(height)]
    for w in words:
        x0, x1 = max(0, round(w.x0 - mark.x0)), min(width, round(w.x1 - mark.x0))
        y0, y1 = max(0, round(w.y0 - mark.y0)), min(height, round(w.y1 - mark.y0))
        for row in grid[y0:y1]:
            row[x0:x1] = [True] * max(0, x1 - x0)
    return sum(map(sum, grid)) / (width * height)


def _signature_sized(marks: list[InkMark]) -> bool:
    """Whether the strokes together are as large as a signature or initials
    (:data:`MIN_SIGNATURE`), not a tick, a dot or a stray letter."""
    width = max(m.x1 for m in marks) - min(m.x0 for m in marks)
    height = max(m.y1 for m in marks) - min(m.y0 for m in marks)
    return width >= MIN_SIGNATURE[0] and height >= MIN_SIGNATURE[1] and sum(m.pixels for m in marks) >= MIN_SIGNATURE[2]


def _handwritten(mark: InkMark, boxes: list[Box]) -> bool:
    """Whether ``mark`` over a value is a pen's or a stamp's, not the value's own print that OCR
    read unsurely: in colour (:data:`PEN_COLOURED`), or across more than two and a half of the
    value's lines (measured across the lines: a page scanned on its side runs them down the
    unrotated page)."""
    if mark.coloured >= PEN_COLOURED:
        return True
    if not boxes:
        return False
    # across the lines: down a page read upright, along the x axis of one scanned on its side
    sideways = sum(b.y1 - b.y0 > b.x1 - b.x0 for b in boxes) > len(boxes) / 2
    line = max((b.x1 - b.x0) if sideways else (b.y1 - b.y0) for b in boxes)
    return ((mark.x1 - mark.x0) if sideways else (mark.y1 - mark.y0)) > 2.5 * line


def _centred_in(mark: Box, row: Box) -> bool:
    """Whether ``mark``'s centre lies in ``row`` (a line of an entry): the strokes cross the line,
    not a note in the margin beside it."""
    x, y = (mark.x0 + mark.x1) / 2, (mark.y0 + mark.y1) / 2
    return mark.page == row.page and row.x0 <= x <= row.x1 and row.y0 <= y <= row.y1


def _touches(a: Box, b: Box) -> bool:
    return a.page == b.page and min(a.x1, b.x1) > max(a.x0, b.x0) and min(a.y1, b.y1) > max(a.y0, b.y0)


def _mostly_inside(a: Box, zone: Box) -> bool:
    """Whether at least half of ``a``'s area lies in ``zone``."""
    w = min(a.x1, zone.x1) - max(a.x0, zone.x0)
    h = min(a.y1, zone.y1) - max(a.y0, zone.y0)
    area = max(1e-6, (a.x1 - a.x0) * (a.y1 - a.y0))
    return w > 0 and h > 0 and w * h >= 0.5 * area
