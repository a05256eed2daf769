"""Contracting parties (smluvní strany): where each is introduced, what kind it is, and the
words that refer to it later.

A Czech contract introduces its parties either with role labels ("Prodávající:",
"1.1 Objednatel:", numbered sub-items "1) … 2) …" under a plural label such as
"Propachtovatelé:" or "Smluvní strany:") or with an alias clause ("…, IČO …, se sídlem …
(dále jen „prodávající“)"). Signature blocks repeat the labels ("Za pronajímatele:"); they
become further blocks of the same party. The role nouns, in any case form ("prodávajícího",
"nájemci"), and the aliases refer to the party in the text.

Matching ignores diacritics (OCR output and some exports drop them: "dale jen Mesto"); the
folded text has the same length as the original, so offsets are shared.

Classification (Civil Code 89/2012 Sb., §§ 18-20 and 420-421 for persons and entrepreneurs):
the first named entity of a block decides. An organisation name gives a legal person or a
public body; a person's name gives a natural person, or a sole trader when the block has an
IČO, "fyzická osoba podnikající" or a place of business; a person introduced as a
representative ("zastoupený", "jednatel") does not make the block a natural person.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from redactor import categories as cat
from redactor import lexicon
from redactor.czech import LOWER, PUBLIC_BODY_HEADS, UPPER, alias_stem, role_of, strip_diacritics
from redactor.detect.roles import OFFICIAL, REPRESENTATION, function_near
from redactor.model import Finding, FindingAttributes, Party, PartyKind, RuleHit, Span
from redactor.text import ABBREVIATIONS, line_spans

_LETTERS = UPPER + LOWER
#: Words that cannot follow a role noun inside a label: a label may name the role with its object
#: ("Poskytovatel služeb:", "Objednatel díla:"), a sentence ("Kupující prohlašuje:") is not a label.
_NOT_COMPLEMENT = rf"(?:{lexicon.alternatives('not_complement', folded=True)}|\w+uj[eií])\b"
_LABEL = re.compile(
    rf"(?:^|(?<=\n)|(?<=\s\s)|(?<=— )|(?<=– ))[ ]*(?P<num>\d{{1,2}}(?:\.\d{{1,2}})*\.?\)?[ ]+|[IVX]+\.[ ]+)?"
    rf"(?P<za>[Zz]a[ ]+)?(?P<role>(?:(?i:{lexicon.alternatives('role_modifiers', folded=True)})[ ]+)?[{_LETTERS}]+)"
    rf"(?:[ ]+(?!{_NOT_COMPLEMENT})[a-z]+){{0,2}}[ ]*:"
)
#: A numbered label without its colon, the party named on the same line: "2. Nájemce Česká
#: republika – Kancelář …" (an OCR drops the colon; some templates write none). Taken only before
#: any label of its role with a colon (a signature block's "Za nájemce:" comes later), once.
_BARE_LABEL = re.compile(rf"(?:^|(?<=\n))[ ]*\d{{1,2}}\.[ ]+(?P<role>[{_LETTERS}]+)[ ]+(?=[{UPPER}])")
_SUBITEM = re.compile(r"^[ ]*(?:\d{1,2}\)|\d{1,2}\.|[a-z]\))[ ]+")
#: A line that opens a clause ends a party block: "1.", "2)", "1.1 ", "II.", "Článek", "§", a
#: heading in capitals; a bare number is the rest of a wrapped postcode ("42 Skalná"), a number
#: followed by another is a date that wrapped ("1. 12. 1999").
_CLAUSE = re.compile(
    rf"^[ ]*(?:\d{{1,2}}(?:\.\d{{1,2}})+\.?[ ]+(?!\d)|\d{{1,2}}(?:\.|\))[ ]+(?!\d)|[IVX]+\.[ ]+"
    rf"|{lexicon.alternatives('article_headings', folded=True)}|§|"
    rf"[{UPPER}]{{4,}}\b)"
)
_ALIAS = re.compile(
    rf"\(\s*{lexicon.alternatives('hereinafter', folded=True)}\s*:?\s*[„\"“]?(?P<alias>[^)]{{2,60}}?)[“\"”]?\s*\)", re.I
)


def _lex(family: str, bounded: bool = False) -> str:
    """The lexicon family ``family`` as matched here: on text without diacritics."""
    return lexicon.alternatives(family, folded=True, bounded=bounded)


#: A public body's financial-control role ("Příkazce operace:"): its first word is also the
#: mandator's role in a mandate contract ("Příkazce:", Civil Code § 2430).
_FINANCIAL_CONTROL = re.compile(_lex("financial_control_roles"), re.I)
_NOT_ALIASES = re.compile(f"^{_lex('object_aliases', bounded=True)}", re.I)
#: A word, a role's with "strana" after it ("smluvní strany").
_ROLE_WORD = re.compile(rf"[^\W\d_]+(?:\s+{_lex('party_side')})?")
_SOLE_TRADER = re.compile(f"{_lex('sole_trader', bounded=True)}|{_lex('place_of_business', bounded=True)}", re.I)
_LEGAL_HINTS = re.compile(_lex("register_entries"), re.I)
_REPRESENTATIVE = re.compile(_lex("representative_words"))
_MAX_BLOCK_LINES = 12
_MAX_ALIAS_LINES = 25
#: A line of prose ("Propachtovatelé jsou …", "Pachtovné činí …") ends a party block.
#: Lines that name who acts for the party ("Oprávněn k jednání …", "Ve věcech technických …")
#: read like prose but belong to its block.
_PROSE_LINE = re.compile(
    rf"^[ ]*(?!{_lex('block_person_cues')}\b)"
    rf"[{UPPER}][{LOWER}]+[ ]+(?!{_lex('name_connectors')}\b)[{LOWER}]+"
)


def _ends_sentence(line: str) -> bool:
    """True when ``line`` ends a sentence or a clause (not after a title or abbreviation)."""
    line = line.rstrip()
    if not line:
        return False
    if line[-1] == ";":
        return True
    if line[-1] != ".":
        return False
    m = re.search(r"(\w+)\.$", line)
    return not (m and (m.group(1).lower() in ABBREVIATIONS or m.group(1).endswith("Dr") or len(m.group(1)) <= 2))


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


def _labels(folded: str) -> list[tuple[int, int, str, bool]]:
    """The role labels of ``folded`` in text order, as ``(start, end, role, signature)``: labels
    with a colon ("Prodávající:", "Za kupujícího:"), and a bare role name ("Objednatel Obec …")
    standing before the role's first label with a colon."""
    labels = []
    for m in _LABEL.finditer(folded):
        role = role_of(m.group("role"))
        if role is None or (m.group("za") is None and m.group("role")[0].islower() and not m.group("num")):
            continue
        if _FINANCIAL_CONTROL.match(folded, m.start("role")):
            continue  # "Příkazce operace:" heads a column of an approval grid, not a mandator's entry
        start = m.start("za") if m.group("za") else m.start("role")
        labels.append((start, m.end(), role, bool(m.group("za"))))
    first: dict[str, int] = {}  # where each role's first label with a colon stands
    for start, _e, role, _za in labels:
        first.setdefault(role, start)
    for m in _BARE_LABEL.finditer(folded):
        role = role_of(m.group("role"))
        if role is not None and m.start("role") < first.get(role, len(folded)):
            first[role] = m.start("role")
            labels.append((m.start("role"), m.end("role"), role, False))
    labels.sort()
    return labels


def _block_ends(segment: str, subitems: bool | None) -> bool:
    """Whether a line (``segment``, folded) after a block's first line ends the block before it:
    a clause that is not one of the block's own sub-items, a lone "a", or a line of prose."""
    if _CLAUSE.match(segment) and not (subitems and _SUBITEM.match(segment)):
        return True
    if segment.strip() == "a":
        return True
    return bool(_PROSE_LINE.match(segment)) and ":" not in segment[:30]


def _block_end(folded: str, lines: list[Span], label_end: int, limit: int) -> int:
    """Where the block of a label ending at ``label_end`` ends: before the next label
    (``limit``), a clause, prose or an alias clause, after at most ``_MAX_BLOCK_LINES`` lines."""
    end = label_end
    first_line = True
    count = 0
    subitems = None  # True when the block is a list "1) …, 2) …" opened right after the label
    for line in lines:
        if line.end <= label_end:
            continue
        if line.start >= limit:
            break
        segment = folded[line.start : line.end]
        if subitems is None and line.start < label_end < line.end and folded[label_end : line.end].strip():
            subitems = False  # the label line carries the party itself: "Vydlužitel: Jan Novák, …"
        if subitems is None and line.start >= label_end:
            subitems = bool(_SUBITEM.match(segment))  # the first line after the label decides
        if not first_line and line.start >= label_end:
            if _block_ends(segment, subitems):
                break
            count += 1
            if count > _MAX_BLOCK_LINES:
                break
        first_line = False
        end = min(line.end, limit)
        if _ALIAS.search(segment):
            break
    return end


def _label_blocks(folded: str) -> list[_Block]:
    """Blocks opened by role labels, each up to the next label, clause or ``_MAX_BLOCK_LINES``."""
    labels = _labels(folded)
    lines = line_spans(folded)
    blocks = []
    for n, (start, label_end, role, signature) in enumerate(labels):
        limit = labels[n + 1][0] if n + 1 < len(labels) else len(folded)
        end = _block_end(folded, lines, label_end, limit)
        blocks.append(_Block(role, Span(start, max(end, label_end)), signature))
    return blocks


def _split_subitems(folded: str, block: _Block) -> list[Span]:
    """Numbered sub-items "1) …", "2) …" inside a label block, or the block itself."""
    starts = [line.start for line in line_spans(folded[block.span.start : block.span.end])]
    items = [block.span.start + s for s in starts if _SUBITEM.match(folded[block.span.start + s : block.span.end])]
    if len(items) < 2:
        return [block.span]
    bounds = [*items, block.span.end]
    return [Span(a, b) for a, b in itertools.pairwise(bounds)]


_ALIAS_SEPARATOR = re.compile(rf"\s+{lexicon.alternatives('alias_separators', bounded=True)}\s+|,\s*|\s+a\s+")


def _aliases(raw: str) -> list[str]:
    """Party aliases in the text of a "(dále jen …)" clause; law and object aliases are dropped."""
    out = []
    for alias in _ALIAS_SEPARATOR.split(raw):
        alias = alias.strip(" „“\"”'")
        if not alias or len(alias) > 30 or any(c.isdigit() for c in alias):
            continue
        if len(alias.split()) > 2 and role_of(alias) is None:
            continue
        if _NOT_ALIASES.match(strip_diacritics(alias)) and role_of(alias) is None:
            continue
        out.append(alias)
    return out


#: The label of a party known only from its letterhead.
LETTERHEAD = "záhlaví"


def fold_name(name: str) -> str:
    """An organisation's name compared across its mentions: letters and digits only, folded."""
    return "".join(c for c in strip_diacritics(name).lower() if c.isalnum())


#: A letter's subject line ("Věc: …", folded), between its header and its text.
_SUBJECT = re.compile(rf"\s*{_lex('subject_label')}\s*:", re.I)


def _alias_blocks(text: str, folded: str, taken: list[Span]) -> list[tuple[Span, list[str]]]:
    """Parties introduced by "(dále jen „X“)": the lines before the clause, back to the end of
    the previous block, sentence or numbered sub-item."""
    out = []
    lines = line_spans(folded)
    for m in _ALIAS.finditer(folded):
        aliases = _aliases(text[m.start("alias") : m.end("alias")])
        if not aliases:
            continue
        inside = next((t for t in taken if t.start <= m.start() < t.end), None)
        if inside is not None:
            out.append((inside, aliases))
            continue
        idx = next(i for i, line in enumerate(lines) if line.start <= m.start() <= line.end)
        start_idx = idx
        while start_idx > 0 and idx - start_idx < _MAX_ALIAS_LINES:
            here = folded[lines[start_idx].start : m.start()]
            if _SUBITEM.match(here) or any(t.start <= lines[start_idx].start < t.end for t in taken):
                break
            prev = folded[lines[start_idx - 1].start : lines[start_idx - 1].end].strip()
            if not prev or prev == "a" or _ends_sentence(prev) or _ALIAS.search(prev):
                break
            if _SUBJECT.match(here):
                break  # a letter's subject line: the header above it is the letter's, not the party's
            if any(t.start <= lines[start_idx - 1].start < t.end for t in taken):
                break
            start_idx -= 1
        out.append((Span(lines[start_idx].start, m.end()), aliases))
    return out


#: A line of an organisation's letterhead below its name (folded text): its department, seat,
#: numbers and contacts ("Odbor správy majetku", "Qwertzovo náměstí 12/3, 130 00 Praha 3, tel.:",
#: "IČO:", "DIČ:", "Bankovní spojení:", "e-mail:", "ID datové schránky:").
_HEAD_LINE = re.compile(
    rf"\b(?:{_lex('letterhead_words')}|\d{{3}}\s?\d{{2}}\s+[A-Z])|@",
    re.I,
)
#: A public body's name opening a line, in any case ("MĚSTSKÁ ČÁST PRAHA 3", "Obecní úřad Xaverov"):
#: the first words of :data:`redactor.czech.PUBLIC_BODY_HEADS`, folded.
_PUBLIC_HEAD = re.compile(
    "(?:"
    + "|".join(re.escape(strip_diacritics(h)) for h in PUBLIC_BODY_HEADS)
    + r")\b(?P<rest>[^\W\d_ ]*(?:[ ]+(?:[^\W\d_]+|\d{1,2}\b))*)",
    re.I,
)
#: A unit of an office in a letterhead ("odbor kancelář tajemníka", "Oddělení …"), folded.
_UNIT_WORD = re.compile(_lex("unit_words", bounded=True), re.I)
#: A postcode before a town ("612 00 Brno").
_POSTCODE = re.compile(r"\b\d{3}\s?\d{2}\s+[A-Z]")
#: Lines a letterhead may take below the organisation's name.
_HEAD_MAX_LINES = 7


def _letterhead_blocks(text: str, folded: str, findings: list[Finding], taken: list[Span]) -> list[Span]:
    """An organisation's letterhead (an order's or a letter's header): a line that opens with an
    organisation's name, no label before it, and the lines right below it that carry its
    department, seat, numbers and contacts (:data:`_HEAD_LINE`), among them its IČO or DIČ (a public
    body's office also without them when a unit of it and its postal address follow its name). The
    values in it are the organisation's (Act 340/2015 Sb., § 5: what a public body publishes of
    itself stays readable), as in a party's entry."""
    lines = line_spans(folded)
    ids = [f.span for f in findings if f.category in (cat.ICO, cat.DIC)]
    names = [f.span.start for f in findings if f.category == cat.COMPANY_NAME]
    out: list[Span] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        head = folded[line.start : line.end].lstrip()
        lead = line.start + len(folded[line.start : line.end]) - len(head)
        named = any(lead <= start <= lead + 1 for start in names) or _PUBLIC_HEAD.match(head) is not None
        if not named or any(t.start <= line.start < t.end for t in taken):
            k += 1
            continue
        end = k + 1
        noise = False
        while end < len(lines) and end - k <= _HEAD_MAX_LINES:
            if any(t.start <= lines[end].start < t.end for t in taken):
                break
            if _HEAD_LINE.search(folded[lines[end].start : lines[end].end]):
                end += 1
            elif (
                end == k + 1
                and end + 1 < len(lines)
                and _HEAD_LINE.search(folded[lines[end + 1].start : lines[end + 1].end])
            ):
                end += 1  # one line of a logo's letters between the name and the rest ("oh DUO")
                noise = True
            else:
                break
        block = Span(line.start, lines[end - 1].end)
        below = folded[lines[k + 1].start : block.end] if end > k + 1 else ""
        # a public body's office, its unit and its postal address, with no number: its own paper too
        office = not noise and _PUBLIC_HEAD.match(head) and _UNIT_WORD.search(below) and _POSTCODE.search(below)
        if end > k + 1 and (office or any(block.contains(i) for i in ids)):
            out.append(block)
            k = end
            continue
        address = _body_address_block(folded, lines, k) if _PUBLIC_HEAD.match(head) else None
        if address is not None:
            out.append(address)
            k = next(i for i, ln in enumerate(lines) if ln.end == address.end) + 1
        else:
            k += 1
    return out


#: A line opening with a unit of a public body's office ("Odbor finanční", "Oddělení správy
#: majetku"), text folded.
UNIT_LINE = re.compile(rf"^\s*{_lex('unit_headings', bounded=True)}", re.I)
#: A line that is a person's name alone (titles allowed): two or three capitalised words.
_NAME_LINE = re.compile(
    rf"^\s*(?:[A-Za-z]{{2,6}}\.\s*)*[{UPPER}][{LOWER}]+(?:\s+[{UPPER}][{LOWER}]+){{1,2}}(?:,?\s*[A-Za-z]{{2,6}}\.)*\s*$"
)
#: A postal code and town closing an address ("602 00 Brno").
_POSTCODE_LINE = re.compile(rf"^\s*\d{{3}}\s?\d{{2}}\s+[{UPPER}]")


def _body_address_block(folded: str, lines: list[Span], k: int) -> Span | None:
    """A public body's address block naming one of its staff: the body's name (line ``k``), a unit
    of its office, a person's name, the street and the postal code with the town, each on its own
    line ("Městský úřad X⏎Odbor finanční⏎Jana Y⏎Náměstí 2⏎391 65 X"), the block ending at the first
    postal code. The person is addressed at the body's department (its employee, acting in the job)
    and the address is the body's. Returns the block's span, else None."""
    parts = [folded[ln.start : ln.end] for ln in lines[k + 1 : k + 6]]
    if len(parts) < 4 or not UNIT_LINE.match(parts[0]) or not _NAME_LINE.match(parts[1]):
        return None
    for n, part in enumerate(parts[2:], 2):
        if _POSTCODE_LINE.match(part):
            return Span(lines[k].start, lines[k + 1 + n].end) if n >= 3 else None
        if not re.search(r"\d", part) or len(part.split()) > 6:
            return None  # a street and its number only
    return None


def _classify(
    text: str, folded: str, span: Span, findings: list[Finding], signature: bool = False
) -> tuple[PartyKind, str, str]:
    """``(kind, name, evidence)`` from the first organisation or person named in ``span``.

    In a signature block ("Za objednatele: Ing. X") a person's name is the signatory, not the
    party, so it does not make the party a natural person.
    """
    inside = sorted(
        (f for f in findings if span.contains(f.span) and f.category in (cat.COMPANY_NAME, cat.FULL_NAME)),
        key=lambda f: f.span.start,
    )
    block = folded[span.start : span.end]
    has_ico = any(f.category == cat.ICO and span.contains(f.span) for f in findings)
    for first in inside:
        if first.category == cat.COMPANY_NAME:
            kind = PartyKind(first.attributes.get("kind", "legal_person"))
            return kind, first.text, f"named as {first.text!r} ({first.evidence})"
        before = folded[max(span.start, first.span.start - 60) : first.span.start].lower()
        function = function_near(text, first.span.start, first.span.end)
        if (
            function is not None
            and function.kind == OFFICIAL
            and function.where == "before"
            and not signature
            and not REPRESENTATION.search(before)
        ):
            # "Zadavatel: Poslanec Jan Novák": an official contracting in office is the public side
            return PartyKind.PUBLIC_BODY, first.text, f"a public official named {first.text!r} ({function.cue!r})"
        if signature or _REPRESENTATIVE.search(before) or REPRESENTATION.search(before) or function is not None:
            continue  # a representative or signatory, not the party itself
        m = _SOLE_TRADER.search(block)
        if m or has_ico:
            return (
                PartyKind.SOLE_TRADER,
                first.text,
                (
                    f"a person named {first.text!r} with "
                    + (repr(text[span.start + m.start() : span.start + m.end()]) if m else "an IČO")
                ),
            )
        return PartyKind.NATURAL_PERSON, first.text, f"a person named {first.text!r}"
    legal = _LEGAL_HINTS.search(block)
    if has_ico or legal:
        why = repr(text[span.start + legal.start() : span.start + legal.end()]) if legal and not has_ico else "an IČO"
        return PartyKind.LEGAL_PERSON, "", f"{why} and no private person as the party"
    return PartyKind.UNKNOWN, "", "no name found"


def _named_by_alias(
    folded: str, span: Span, findings: list[Finding], aliases: list[str]
) -> tuple[PartyKind, str, str] | None:
    """A person the alias noun itself stands before in the sentence that introduces it ("…, kterou
    podal žadatel Bc. X, nar. …, bytem … (dále jen „žadatel“)"): that person is the party, whatever
    organisation the sentence names first. ``(kind, name, evidence)``, else None."""
    stems = [alias_stem(a) for a in aliases if len(a.split()) == 1]
    if not stems:
        return None
    for f in findings:
        if f.category != cat.FULL_NAME or not span.contains(f.span):
            continue
        before = folded[max(span.start, f.span.start - 40) : f.span.start].lower()
        m = re.search(r"([a-z]+)[ \n]+(?:[a-z]{2,6}\.[ \n]*)*$", before)
        if m and any(m.group(1).startswith(stem) and len(m.group(1)) - len(stem) <= 4 for stem in stems):
            return PartyKind.NATURAL_PERSON, f.text, f"{m.group(1)!r} names {f.text!r}, the alias it introduces"
    return None


def find_parties(text: str, findings: list[Finding]) -> tuple[list[Party], list[PartyReference]]:
    """Segment ``text`` into parties and find every reference to them.

    ``findings`` are the recognizer results (organisation names, person names and IČO are
    used). Returns the parties in order of first appearance (``index`` from 1) and the
    references (role nouns and aliases) sorted by offset.
    """
    folded = strip_diacritics(text)
    if len(folded) != len(text):  # decomposition changed the length: match on the original
        folded = text
    parties = _labelled_parties(text, folded, findings)
    taken = [span for p in parties for span in p.blocks]
    _add_alias_parties(text, folded, findings, parties, taken)
    _add_letterhead_parties(text, folded, findings, parties, taken)
    parties.sort(key=lambda p: min(b.start for b in p.blocks))
    for party in parties:
        party.blocks.sort(key=lambda b: b.start)
    for i, party in enumerate(parties, 1):
        party.index = i
    return parties, find_references(text, parties)


def _labelled_parties(text: str, folded: str, findings: list[Finding]) -> list[Party]:
    """The parties of the role labels' blocks (a numbered list under one label: one party an
    item); a role's later blocks (its signature block) join its first party."""
    parties: list[Party] = []
    by_role: dict[str, Party] = {}
    for block in _label_blocks(folded):
        existing = by_role.get(block.role)
        if existing is not None:
            existing.blocks.append(block.span)
            continue
        for span in _split_subitems(folded, block):
            kind, name, evidence = _classify(text, folded, span, findings, block.signature)
            party = Party(len(parties) + 1, block.role, kind, [span], [block.role], name, evidence)
            parties.append(party)
            by_role.setdefault(block.role, party)
    return parties


def _add_alias_parties(
    text: str, folded: str, findings: list[Finding], parties: list[Party], taken: list[Span]
) -> None:
    """The parties of the alias clauses' blocks ("…, (dále jen „nájemce“)"), added to
    ``parties`` (their blocks to ``taken``), and every alias as a role of its party."""
    for span, aliases in _alias_blocks(text, folded, taken):
        owner = next((p for p in parties if span in p.blocks), None)
        if owner is None:
            owner = _alias_owner(text, folded, findings, parties, span, aliases)
            if owner is None:
                continue
            taken.append(span)
        for alias in aliases:
            acronym = re.fullmatch(rf"[{UPPER}]{{2,}}", alias) is not None
            role = alias if acronym else (role_of(alias) or alias.lower())
            if role not in owner.roles:
                owner.roles.append(role)


def _alias_owner(
    text: str, folded: str, findings: list[Finding], parties: list[Party], span: Span, aliases: list[str]
) -> Party | None:
    """The party of an alias block outside every labelled block: a party so far known only from
    its signature block ("Za Dodavatele:") under one of the aliases, or a new one; None for a
    block that names no party."""
    kind, name, evidence = _named_by_alias(folded, span, findings, aliases) or _classify(text, folded, span, findings)
    if kind == PartyKind.UNKNOWN:
        return None
    roles = {role_of(a) or a.lower() for a in aliases}
    owner = next((p for p in parties if p.kind == PartyKind.UNKNOWN and roles & set(p.roles)), None)
    if owner is not None:
        owner.blocks.insert(0, span)
        owner.kind, owner.name, owner.evidence = kind, name, evidence
        return owner
    owner = Party(len(parties) + 1, aliases[0].lower(), kind, [span], [], name, evidence)
    parties.append(owner)
    return owner


def _add_letterhead_parties(
    text: str, folded: str, findings: list[Finding], parties: list[Party], taken: list[Span]
) -> None:
    """The organisations of letterheads, added to ``parties`` (or to the party of the same name)."""
    heads: dict[str, Party] = {}
    for span in _letterhead_blocks(text, folded, findings, taken):
        kind, name, evidence = _classify(text, folded, span, findings)
        head = _PUBLIC_HEAD.match(folded[span.start : span.end].lstrip())
        if head is not None:  # the body's own name opens it (a bank named below is no owner)
            lead = span.start + len(folded[span.start : span.end]) - len(folded[span.start : span.end].lstrip())
            name = " ".join(text[lead : lead + head.end()].split())
            kind, evidence = PartyKind.PUBLIC_BODY, f"a public body's name {name!r} opens the letterhead"
        if kind not in (PartyKind.PUBLIC_BODY, PartyKind.LEGAL_PERSON):
            continue
        owner = next((p for p in parties if p.name and fold_name(p.name) == fold_name(name)), None) or heads.get(
            fold_name(name)
        )
        if owner is None:
            owner = Party(len(parties) + 1, LETTERHEAD, kind, [], [], name, f"{evidence}, in its letterhead")
            parties.append(owner)
            heads[fold_name(name)] = owner
        owner.blocks.append(span)
        owner.letterheads.append(span)


def find_references(text: str, parties: list[Party]) -> list[PartyReference]:
    """Every word that is an inflected role noun or alias of a party (ambiguous roles that
    several parties share are skipped; acronym aliases match case-sensitively)."""
    stems: dict[str, Party | None] = {}
    for party in parties:
        for role in party.roles:
            stem = role if role.isupper() else alias_stem(role)
            stems[stem] = None if stem in stems and stems[stem] is not party else party
    refs = []
    folded = strip_diacritics(text)
    if len(folded) != len(text):
        folded = text
    for m in _ROLE_WORD.finditer(folded):
        word = m.group()
        low = word.lower()
        for stem, owner in stems.items():
            if owner is None:
                continue
            hit = word == stem if stem.isupper() else (low.startswith(stem) and len(low) - len(stem) <= 4)
            if hit:
                refs.append(PartyReference(owner, Span(m.start(), m.end())))
                break
    return refs


#: The rule book's record of :func:`organisations_named_again`.
_NAMED_AGAIN = "organization.named_again"
_FORM_TAIL = re.compile(f"(?:{_lex('legal_form_tails')})$")
_ICO_LABEL = re.compile(rf"^{lexicon.alternatives('ico_label', bounded=True)}:?$", re.I)


def organisations_named_again(findings: list[Finding]) -> list[Finding]:
    """``findings`` with each person's name that repeats an organisation's name found elsewhere in
    the document read as that organisation ("STŘECHY PRAJZSKO s.r.o." in the text, "Dodavatel:
    STŘECHY PRAJZSKO IČO …" in a form without the form): its category becomes a company name of
    the organisation's kind. The words compared are the name's letters without an IČO label; the
    organisation's without its legal form; two words at least. Source: the Civil Code 89/2012 Sb.,
    § 132 (a legal person's name; its form is part of it, a mention may leave it out); an
    organisation stays an organisation wherever the document names it."""
    names: list[tuple[str, str]] = []
    for f in findings:
        if f.category == cat.COMPANY_NAME:
            core = _FORM_TAIL.sub("", fold_name(f.text))
            if len(core) >= 6:
                names.append((core, f.attributes.get("kind", PartyKind.LEGAL_PERSON.value)))
    if not names:
        return findings
    out = []
    for f in findings:
        words = [w for w in f.text.split() if not _ICO_LABEL.match(w)]
        spelt = fold_name(" ".join(words))
        if f.category == cat.FULL_NAME and len(words) >= 2 and len(spelt) >= 6:
            kind = next((k for core, k in names if core.endswith(spelt)), None)
            if kind is not None:
                evidence = f"the name of an organisation named elsewhere in the document ({f.evidence})"
                attributes = FindingAttributes(**f.attributes)
                attributes["kind"] = kind
                hit: RuleHit = {"id": _NAMED_AGAIN, "saw": " ".join(words)}
                f = replace(
                    f, category=cat.COMPANY_NAME, evidence=evidence, holder=None, attributes=attributes, rules=[hit]
                )
        out.append(f)
    return out
