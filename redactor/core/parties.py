"""Contracting parties (smluvní strany): where each is introduced, what kind it is, and the
words that refer to it later.

A Czech contract introduces its parties either with role labels ("Prodávající:",
"1.1 Objednatel:", numbered sub-items "1) … 2) …" under a plural label) or with an alias
clause ("…, IČO …, se sídlem … (dále jen „prodávající“)"). Signature blocks repeat the
labels ("Za pronajímatele:"); they become further blocks of the same party. The role nouns,
in any case form ("prodávajícího", "nájemci"), and the aliases refer to the party in the text.

Classification (Civil Code 89/2012 Sb., §§ 18-20 and 420-421 for persons and entrepreneurs):
the first named entity of a block decides. An organisation name gives a legal person or a
public body; a person's name gives a natural person, or a sole trader when the block has an
IČO, "fyzická osoba podnikající" or a place of business.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from . import categories as cat
from .czech import LOWER, PARTY_ROLE_STEMS, UPPER
from .model import Finding, Party, PartyKind, Span
from .text import ABBREVIATIONS, line_spans

_ROLE_WORD = r"(?:budoucí\s+|smluvní\s+)?[" + UPPER + LOWER + r"]+(?:\s+strana)?"
_LABEL = re.compile(
    rf"(?:^|(?<=\n)|(?<=\s\s)|(?<=— )|(?<=– ))[ ]*(?P<num>\d{{1,2}}(?:\.\d{{1,2}})*\.?\)?[ ]+|[IVX]+\.[ ]+)?"
    rf"(?P<za>[Zz]a[ ]+)?(?P<role>{_ROLE_WORD})[ ]*:",
)
_SUBITEM = re.compile(r"^[ ]*(?:\d{1,2}\)|\d{1,2}\.|[a-z]\))[ ]+")
_CLAUSE = re.compile(rf"^[ ]*(?:\d{{1,2}}(?:\.\d{{1,2}})*\.?\)?[ ]+|[IVX]+\.[ ]+|Článek|Čl\.|§|[{UPPER}]{{4,}}\b)")
_ALIAS = re.compile(r"\(\s*dále\s+(?:jen\s+)?(?:jako\s+)?[„\"“]?(?P<alias>[^)]{2,60}?)[“\"”]?\s*\)", re.I)
_SOLE_TRADER = re.compile(
    r"fyzická osoba podnikající|podnikající fyzická osoba|\bOSVČ\b|osoba samostatně výdělečně činná|"
    r"místo podnikání|místem podnikání|živnostensk|zapsan[áý] v živnostenském",
    re.I,
)
_MAX_BLOCK_LINES = 12
#: A line of prose ("Propachtovatelé jsou …", "Pachtovné činí …") ends a party block.
_PROSE_LINE = re.compile(rf"^[ ]*[{UPPER}][{LOWER}]+[ ]+(?!(?:nad|pod|u|v|ve|na|a|dne)\b)[{LOWER}]+")


def _ends_sentence(line: str) -> bool:
    """True when ``line`` ends a sentence or a clause (not after a title or abbreviation)."""
    line = line.rstrip()
    if not line or line[-1] in ':;)“”"':
        return bool(line)
    if line[-1] != ".":
        return False
    m = re.search(r"(\w+)\.$", line)
    return not (m and (m.group(1).lower() in ABBREVIATIONS or m.group(1).endswith("Dr") or len(m.group(1)) <= 2))


def role_of(word: str) -> str | None:
    """The party role (nominative, lower case) a word refers to, e.g. "prodávajícího" ->
    "prodávající", "Propachtovatelé" -> "propachtovatel"; None for other words."""
    low = word.lower().strip()
    for role, stem in PARTY_ROLE_STEMS.items():
        if low.startswith(stem) and len(low) - len(stem) <= 4:
            return role
    return None


def alias_stem(alias: str) -> str:
    """Stem of an alias for matching its inflected forms ("město" -> "měst")."""
    low = alias.lower().strip()
    known = PARTY_ROLE_STEMS.get(low)
    if known:
        return known
    stem = re.sub(r"[aeiouyáéíýěů]+$", "", low)
    return stem if len(stem) >= 4 else low


@dataclass
class PartyReference:
    """A word in the text that refers to a party (a role noun or an alias)."""

    party: Party
    span: Span


@dataclass
class _Block:
    role: str
    span: Span
    signature: bool = False


def _label_blocks(text: str) -> list[_Block]:
    """Blocks opened by role labels, each up to the next label, clause or ``_MAX_BLOCK_LINES``."""
    labels = []
    for m in _LABEL.finditer(text):
        role = role_of(m.group("role"))
        if role is None or (m.group("za") is None and m.group("role")[0].islower() and not m.group("num")):
            continue
        labels.append((m.start("role") if not m.group("za") else m.start("za"), m.end(), role, bool(m.group("za"))))
    lines = line_spans(text)
    blocks = []
    for n, (start, label_end, role, signature) in enumerate(labels):
        limit = labels[n + 1][0] if n + 1 < len(labels) else len(text)
        end = label_end
        first_line = True
        count = 0
        subitems = None  # True when the block is a list "1) …, 2) …" opened right after the label
        for line in lines:
            if line.end <= label_end:
                continue
            if line.start >= limit:
                break
            segment = text[line.start : line.end]
            if not first_line and line.start >= label_end:
                if subitems is None:
                    subitems = bool(_SUBITEM.match(segment))
                if _CLAUSE.match(segment) and not (subitems and _SUBITEM.match(segment)):
                    break
                if segment.strip() == "a":
                    break
                if _PROSE_LINE.match(segment) and ":" not in segment[:30]:
                    break
                count += 1
                if count > _MAX_BLOCK_LINES:
                    break
            first_line = False
            end = min(line.end, limit)
            if _ALIAS.search(segment):
                break
        blocks.append(_Block(role, Span(start, max(end, label_end)), signature))
    return blocks


def _split_subitems(text: str, block: _Block) -> list[Span]:
    """Numbered sub-items "1) …", "2) …" inside a label block, or the block itself."""
    starts = [line.start for line in line_spans(text[block.span.start : block.span.end])]
    items = [block.span.start + s for s in starts if _SUBITEM.match(text[block.span.start + s : block.span.end])]
    if len(items) < 2:
        return [block.span]
    bounds = [*items, block.span.end]
    return [Span(a, b) for a, b in itertools.pairwise(bounds)]


def _alias_blocks(text: str, taken: list[Span]) -> list[tuple[Span, list[str]]]:
    """Parties introduced by "(dále jen „X“)" outside label blocks: the lines before it."""
    out = []
    lines = line_spans(text)
    for m in _ALIAS.finditer(text):
        aliases = [a.strip(' „“"”') for a in re.split(r"\s+(?:nebo|či|resp\.)\s+|,\s*", m.group("alias"))]
        aliases = [a for a in aliases if a and len(a) < 30]
        inside = next((t for t in taken if t.start <= m.start() < t.end), None)
        if inside is not None:
            out.append((inside, aliases))
            continue
        idx = next(i for i, line in enumerate(lines) if line.start <= m.start() <= line.end)
        start_idx = idx
        while start_idx > 0 and idx - start_idx < 6:
            prev = text[lines[start_idx - 1].start : lines[start_idx - 1].end].strip()
            if not prev or prev == "a" or _ends_sentence(prev) or _ALIAS.search(prev):
                break
            start_idx -= 1
        out.append((Span(lines[start_idx].start, m.end()), aliases))
    return out


def _classify(text: str, span: Span, findings: list[Finding], signature: bool = False) -> tuple[PartyKind, str, str]:
    """``(kind, name, evidence)`` from the first organisation or person named in ``span``.

    In a signature block ("Za objednatele: Ing. X") a person's name is the signatory, not the
    party, so it does not make the party a natural person.
    """
    inside = sorted(
        (f for f in findings if span.contains(f.span) and f.category in (cat.COMPANY_NAME, cat.FULL_NAME)),
        key=lambda f: f.span.start,
    )
    block = text[span.start : span.end]
    if inside:
        first = inside[0]
        if first.category == cat.COMPANY_NAME:
            kind = PartyKind(first.attributes.get("kind", "legal_person"))
            return kind, first.text, f"named as {first.text!r} ({first.evidence})"
        before = text[max(span.start, first.span.start - 40) : first.span.start].lower()
        if "zastoupen" not in before and not signature:
            m = _SOLE_TRADER.search(block)
            has_ico = any(f.category == cat.ICO and span.contains(f.span) for f in findings)
            if m or has_ico:
                return (
                    PartyKind.SOLE_TRADER,
                    first.text,
                    (f"a person named {first.text!r} with " + (repr(m.group()) if m else "an IČO")),
                )
            return PartyKind.NATURAL_PERSON, first.text, f"a person named {first.text!r}"
    if any(f.category == cat.ICO and span.contains(f.span) for f in findings):
        return PartyKind.LEGAL_PERSON, "", "an IČO and no person's name"
    return PartyKind.UNKNOWN, "", "no name found"


def find_parties(text: str, findings: list[Finding]) -> tuple[list[Party], list[PartyReference]]:
    """Segment ``text`` into parties and find every reference to them.

    ``findings`` are the recognizer results (organisation names, person names and IČO are
    used). Returns the parties in order of first appearance (``index`` from 1) and the
    references (role nouns and aliases) sorted by offset.
    """
    parties: list[Party] = []
    by_role: dict[str, Party] = {}
    blocks = _label_blocks(text)
    for block in blocks:
        existing = by_role.get(block.role)
        spans = _split_subitems(text, block) if existing is None else [block.span]
        if existing is not None:
            existing.blocks.append(block.span)
            continue
        for span in spans:
            kind, name, evidence = _classify(text, span, findings, block.signature)
            party = Party(len(parties) + 1, block.role, kind, [span], [block.role], name, evidence)
            parties.append(party)
            by_role.setdefault(block.role, party)
    taken = [span for p in parties for span in p.blocks]
    for span, aliases in _alias_blocks(text, taken):
        owner = next((p for p in parties if span in p.blocks), None)
        if owner is None:
            kind, name, evidence = _classify(text, span, findings)
            owner = Party(len(parties) + 1, aliases[0].lower() if aliases else "", kind, [span], [], name, evidence)
            parties.append(owner)
        for alias in aliases:
            role = role_of(alias) or alias.lower()
            if role not in owner.roles and not re.fullmatch(rf"[{UPPER}]{{2,}}", alias):
                owner.roles.append(role)
            elif re.fullmatch(rf"[{UPPER}]{{2,}}", alias):
                owner.roles.append(alias)  # an acronym alias ("HOTEL") is matched case-sensitively
    parties.sort(key=lambda p: p.blocks[0].start)
    for i, party in enumerate(parties, 1):
        party.index = i
    return parties, find_references(text, parties)


def find_references(text: str, parties: list[Party]) -> list[PartyReference]:
    """Every word that is an inflected role noun or alias of a party (ambiguous roles that
    several parties share are skipped)."""
    stems: dict[str, Party | None] = {}
    for party in parties:
        for role in party.roles:
            stem = role if role.isupper() else alias_stem(role)
            stems[stem] = None if stem in stems and stems[stem] is not party else party
    refs = []
    for m in re.finditer(r"[^\W\d_]+(?:\s+strana)?", text):
        word = m.group()
        for stem, party in stems.items():
            if party is None:
                continue
            hit = word == stem if stem.isupper() else (word.lower().startswith(stem) and len(word) - len(stem) <= 4)
            if hit:
                refs.append(PartyReference(party, Span(m.start(), m.end())))
                break
    return refs
