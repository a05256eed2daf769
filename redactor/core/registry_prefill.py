"""The registry metadata pre-filled from what the engine read in a contract.

:func:`prefill` reads an :class:`~redactor.core.engine.Analysis`: the parties the engine found
with their IČO, seat and data box (the agency's own party becomes the publisher), the price clause,
the dates next to the signatures, the contract number, the official who represents the agency,
the title. Every value carries the place it was read (:class:`~redactor.core.registry_metadata.Source`:
page from 1 and the line, redacted spans masked), so that a reviewer confirms it rather than types
it. Values the analysis redacts or sends to review anywhere are never taken
(:func:`~redactor.core.registry_metadata.drop_redacted_values`).
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from . import categories as cat
from .czech import TITLES_BEFORE, NameGazetteer, nominative_candidates, strip_diacritics
from .model import Action, PartyKind, Span
from .registry_metadata import (
    MAX_TEXT,
    NOT_PUBLIC,
    ContractMetadata,
    PublishingBody,
    RegistryParty,
    Source,
    drop_redacted_values,
)
from .text import line_spans

if TYPE_CHECKING:  # the engine imports nothing from here
    from .engine import Analysis
    from .model import Party, ProposedRedaction
    from .profile import AgencyProfile

#: Roles whose party receives the payment (``prijemce`` 1) and roles whose party pays (0); a
#: role in neither ("poskytovatel" gives a grant or receives payment for a service) is left open.
RECIPIENT_ROLES = frozenset(
    {"prodávající", "zhotovitel", "pronajímatel", "propachtovatel", "dodavatel", "příjemce", "obdarovaný",
     "prodejce", "příkazník", "mandatář", "převodce", "zapůjčitel", "půjčitel"}
)  # fmt: skip
PAYER_ROLES = frozenset(
    {"kupující", "objednatel", "nájemce", "podnájemce", "pachtýř", "odběratel", "dárce", "příkazce", "mandant",
     "nabyvatel", "vypůjčitel", "vydlužitel"}
)  # fmt: skip


#: What a source quotes in place of a redacted value.
MASK = "▮▮▮"
_LINE_MAX = 200
_MONTHS = {
    "ledna": 1, "února": 2, "unora": 2, "března": 3, "brezna": 3, "dubna": 4, "května": 5, "kvetna": 5,
    "června": 6, "cervna": 6, "července": 7, "cervence": 7, "srpna": 8, "září": 9, "zari": 9, "října": 10,
    "rijna": 10, "listopadu": 11, "prosince": 12,
}  # fmt: skip
_DATE = re.compile(
    r"(?<![\d.])(?P<d>[0-3]?\d)\s?\.\s?(?:(?P<m>[01]?\d)\s?\.|\s*(?P<mn>[a-zěščřžýáíéůú]{4,9}))\s?(?P<y>(?:19|20)\d\d)(?!\d)"
    r"|(?<!\d)(?P<y2>20\d\d)[.-](?P<m2>[01]\d)[.-](?P<d2>[0-3]\d)(?!\d)",
    re.I,
)
#: A line that dates a signature: "V Praze dne 3. 5. 2024", "Dne: …", "Datum: …", "Datum podpisu …",
#: a digital signature's stamp "Datum: 2024.05.03 10:15:22 +02'00'".
#: A short line is a signature's date line when it names a day ("…dne 3. 5. 2024", "Datum: …");
#: a longer one only when it opens with the place ("V Praze dne …").
_SHORT_LINE = 80
_PLACE_AND_DAY = re.compile(r"^\s*(?:za\s+\w+\s+)?(?:v|ve)\s+\S+.*\bdne\b", re.I)
_DAY_CUE = re.compile(r"\bdne\b|\bdatum\b|podeps|podpis", re.I)
#: Lines whose dates are not signatures: births, terms, deadlines, validity, registrations.
_NOT_SIGNATURE = re.compile(
    r"narozen|\bnar\.|platnost|účinnost|ucinnost|lhůt|lhut|termín|termin|splatn|\bdo\s+\d|\bod\s+\d|zápis|zapis|"
    r"rejstřík|rejstrik|vložka|vlozka|usnesen|zasedání|zasedani|vyhlášen|vyhlasen|zákon|zakon|nabídk|nabidk|"
    r"\bze\s+dne|uzavřel|uzavrel|uzavřen|uzavren|schválen|schvalen|znění|zneni|došlo|doslo|tisk|spočítán|spocitan|"
    r"vystaven",
    re.I,
)
_AMOUNT = re.compile(
    r"(?<![\d,.])(?P<num>\d{1,3}(?:[  .]\d{3})+|\d{4,12}|\d{1,3})(?:,(?P<dec>\d{1,2}|-{1,2}))?[  ]*(?:,-[  ]*)?"
    r"\n?[  ]*(?P<cur>Kč|CZK|EUR|€|USD|\$|GBP|£)(?!\w)",  # "… činí 51 400,00⏎Kč (slovy: …)"
)
_CURRENCY = {"Kč": "CZK", "CZK": "CZK", "EUR": "EUR", "€": "EUR", "USD": "USD", "$": "USD", "GBP": "GBP", "£": "GBP"}
_WITHOUT_VAT = re.compile(r"bez\s+(?:DPH|daně)", re.I)
_WITH_VAT = re.compile(r"(?:včetně|vč\.|vc\.|vcetne|s)\s*(?:DPH|daně)|(?:DPH|daní)\s+včetně", re.I)
_PRICE_CUE = re.compile(r"cen[aěyu]|hodnot|odměn|odmen|nájemn|najemn|pachtovn|úplat|uplat|dotac|příspěv|prispev|"
                        r"kupní|kupni|honorář|honorar|částk|castk", re.I)  # fmt: skip
_TOTAL_CUE = re.compile(r"celk|úhrnem|uhrnem|maximáln|maximaln|nepřekroč|neprekroc", re.I)
#: Amounts that are not the contract's value: penalties, interest, insurance, deposits, guarantees.
_NOT_PRICE = re.compile(
    r"pokut|úrok|urok|pojišt|pojist|záloh|zaloh|jistot|sankc|limit|kauc|zádržn|zadrzn|denně|denne|"
    r"za\s+každ|za\s+kazd|(?<!\w)(?:měsíčn|mesicn|ročn|rocn|týdn|tydn)|hodinov|"
    r"za\s+(?:\S{1,2}\s+)?(?:hod|rok|měsíc|mesic|den|kus)|"
    r"/\s*(?:hod|rok|měs|mes|den|ks|m)\b",
    re.I,
)
_NUMBER = re.compile(
    r"(?:čísl[oa]\s+smlouvy|č\.\s*smlouvy|evidenční\s+čísl[oa]\s+smlouvy|(?:smlouv[aěy]|dodat\w*)\s+č\.|"
    r"čísl[oa]\s+jednací|č\.\s*j\.|čj\.|spisová\s+značka|sp\.\s*zn\.|smlouvě\s+č\.|smlouvy\s+č\.)"
    r"(?:\s+(?!č\.)[a-zěščřžýáíéůú]+){0,2}\s*:?\s*(?P<value>[A-Za-z0-9][\w/\-.]*\d[\w/\-.]*(?:\s?/\s?\d+)?)",
    re.I,
)
_TITLE = re.compile(
    r"^\s*(?:(?:rámcov|ramcov|kupn|nájemn|najemn|pachtovn|darovac|licenčn|licencn|příkazn|prikazn|mandátn|mandatn|"
    r"veřejnoprávn|verejnopravn|pojistn)\w*\s+)?(?:smlouv|dodat|dohod|objednávk|objednavk)\w*\b",
    re.I,
)
_TITLE_CONTINUES = re.compile(
    r"^\s*(?:(?:o|na|k|ke|ve|č\.|c\.|O|NA|K|KE|VE|Č\.)\s|0\s(?=[a-zěščřžýáíéůú])|[„\"]|[a-zěščřžýáíéůú])"
)  # "0 zajištění služeb": OCR's zero for the preposition "o"
_QUOTED = re.compile(r"[„\"“](?P<q>[^„\"“”\n]{8,200}?)[“”\"]")
_PROJECT_CUE = re.compile(r"zakázk|zakazk|akce|projekt|stavb|název|nazev|předmět|predmet", re.I)
_REPRESENTED = re.compile(
    r"(?:zastoupen\w*|jednající|jednajici|za\s+\w+\s+jedná|statutární\s+orgán\w*|statutarni\s+organ\w*)"
    r"(?:\s+\w+){0,3}?\s*:?\s*(?P<rest>.*)$",
    re.I,
)
_TITLE_NUMBER = re.compile(r"(?:^|[\s(])(?:č|c|ě)\.\s*(?P<value>[A-Za-z0-9][\w/\-.]*)", re.I)
#: "… smlouvu o dílo (dále jen „Smlouva“)": a sentence that names the contract, not its title.
_DEFINES = re.compile(r"\(\s*d[aá]le\b", re.I)
#: A party "name" that is a clause: a verb or a conjunction joining clauses.
_SENTENCE = re.compile(r"\s(?:je|jsou|má|mají|bude|byl|byla|se|si|který|která|které|jenž)\s")
#: Lines where a number is a court register's file mark, not the contract's.
_REGISTER_LINE = re.compile(r"soud|rejstřík|rejstrik|vložk|vlozk|oddíl|oddil", re.I)
_AMENDMENT = re.compile(r"^\s*dodat\w*\b", re.I)
_SPACES = re.compile(r"[ \t  ]+")


def _line_at(text: str, lines: list[Span], offset: int) -> Span:
    for span in lines:
        if span.start <= offset <= span.end:
            return span
    return Span(offset, offset)


def _clip(text: str, limit: int = _LINE_MAX) -> str:
    text = _SPACES.sub(" ", text).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class _Reader:
    """The analysis as :func:`prefill` reads it: text, lines, pages, and which spans the PDF may
    black out (proposals to redact or to review)."""

    def __init__(self, analysis: Analysis):
        self.text = analysis.text_layer.text
        self.layer = analysis.text_layer
        self.lines = line_spans(self.text)
        self.proposals = analysis.proposals
        self.hidden = [p.span for p in analysis.proposals if p.action in (Action.REDACT, Action.REVIEW)]

    def source(self, offset: int, note: str = "") -> Source:
        """Where ``offset`` stands: its page and its line, with every span the analysis redacts
        or sends to review shown as "▮▮▮" (a source is never a way round a redaction)."""
        line = _line_at(self.text, self.lines, offset)
        pieces, at = [], line.start
        for hidden in sorted((h for h in self.hidden if h.overlaps(line)), key=lambda h: (h.start, h.end)):
            if hidden.start > at:
                pieces.append(self.text[at : hidden.start])
            if not pieces or pieces[-1] != MASK:
                pieces.append(MASK)
            at = max(at, hidden.end)
        pieces.append(self.text[at : line.end] if at < line.end else "")
        return Source(self.layer.page_of(offset), _clip("".join(pieces)), note)

    def is_hidden(self, span: Span) -> bool:
        return any(h.overlaps(span) for h in self.hidden)

    def in_blocks(self, party: Party, categories: frozenset[int] | set[int], action: Action | None = None):
        return [
            p
            for p in self.proposals
            if p.category in categories
            and any(b.contains(p.span) for b in party.blocks)
            and (action is None or p.action == action)
        ]


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _party_name(reader: _Reader, party: Party) -> tuple[str, int]:
    """The party's name as printed on its line ("Všeobecná zdravotní pojišťovna České republiky"
    where the engine's name stops early) and its offset; ``("", -1)`` without one."""
    if not party.name:
        return "", -1
    for block in party.blocks:
        at = reader.text.find(party.name, block.start, block.end)
        if at < 0:
            continue
        line = _line_at(reader.text, reader.lines, at)
        rest = reader.text[at : line.end]
        # the line goes on with the same name ("… České" + " republiky") until a field starts
        rest = re.split(r",\s|;|\s{2,}|\s[–-]\s|\s(?:IČO?|DIČ|se sídlem|sídlo|zastoupen)\b|\(", rest, maxsplit=1)[0]
        name = rest if rest.startswith(party.name) and len(rest) <= 150 else party.name
        name = name.rstrip(" ,:;")
        if name.endswith(".") and not re.search(r"(?:^|[\s.])\w{1,3}\.$", name):  # keep "s.r.o.", "a.s."
            name = name[:-1]
        return _clip(name, MAX_TEXT), at
    return party.name, -1


def _agency_party(parties: list[Party], reader: _Reader, profile: AgencyProfile | None) -> Party | None:
    """The contract's party that is the publishing agency: the one whose block holds the agency's
    IČO or name; without a profile, the only public body."""
    if profile is not None and (profile.ico or profile.names):
        ico = _digits(profile.ico)
        names = [strip_diacritics(n).casefold() for n in profile.names if n]
        for party in parties:
            block_text = " ".join(reader.text[b.start : b.end] for b in party.blocks)
            if ico and ico in _digits(block_text.replace(" ", "")) and ico in re.findall(r"\d{8}", block_text):
                return party
            folded = strip_diacritics(block_text).casefold()
            if any(n and n in folded for n in names):
                return party
    public = [p for p in parties if p.kind == PartyKind.PUBLIC_BODY]
    return public[0] if len(public) == 1 else None


def _body_key(name: str) -> str:
    """A body's name folded for comparison, without "Česká republika –", under which the state's
    organisational units contract ("Česká republika – Kancelář Poslanecké sněmovny")."""
    folded = re.sub(r"\W+", " ", strip_diacritics(name).casefold()).strip()
    return re.sub(r"^ceska republika ", "", folded)


def _same_body(party: Party, names: list[str]) -> bool:
    """True when ``party``'s name is one of ``names`` (folded), also cut short by a line end or an
    OCR ("Česká republika - Kancelář Poslanecké" for "… Poslanecké sněmovny")."""
    folded = _body_key(party.name)
    if len(folded) < 12:
        return False
    for name in names:
        other = _body_key(name)
        if len(other) >= 12 and (folded in other or other in folded):  # a prefix is contained too
            return True
    return False


def _recipient(party: Party) -> bool | None:
    roles = set(party.roles) | ({party.label} if party.label else set())
    if roles & RECIPIENT_ROLES and not roles & PAYER_ROLES:
        return True
    if roles & PAYER_ROLES and not roles & RECIPIENT_ROLES:
        return False
    return None


def _registry_party(reader: _Reader, party: Party) -> RegistryParty:
    name, at = _party_name(reader, party)
    private = party.kind.is_private_person
    hidden = not name or (at >= 0 and reader.is_hidden(Span(at, at + len(name))))
    first = party.blocks[0].start if party.blocks else 0
    result = RegistryParty(
        name=NOT_PUBLIC if hidden and private else ("" if hidden else name),
        recipient=_recipient(party),
        private=private,
        source=reader.source(at if at >= 0 else first, "not_public" if hidden and private else ""),
    )
    if result.name == NOT_PUBLIC:
        # the party is not named: its IČO, box or seat would name it all the same (a sole trader's
        # IČO leads to the name in the public business register); the reviewer adds them if public
        return result
    for kind, categories in (("ico", {cat.ICO}), ("data_box", {cat.DATA_BOX}), ("address", {cat.ADDRESS_SEAT})):
        found = [p for p in reader.in_blocks(party, categories, Action.KEEP) if not reader.is_hidden(p.span)]
        if not found:
            continue
        value = found[0].text
        if kind == "ico":
            value = _digits(value)
        elif kind == "address":
            value = _clip(value, MAX_TEXT)
        setattr(result, kind, value.strip())
    return result


def _amount(m: re.Match) -> Decimal | None:
    number = re.sub(r"[  .]", "", m.group("num"))
    dec = m.group("dec") or ""
    try:
        value = Decimal(number + ("." + dec if dec.isdigit() else ""))
    except InvalidOperation:
        return None
    return value if value > 0 else None


def _prices(reader: _Reader) -> dict[str, tuple[Decimal, str, int]]:
    """The contract's value per kind ("without", "with", "foreign"): ``(amount, currency,
    offset)``. An amount counts when its sentence names a price (cena, odměna, nájemné …) and no
    penalty, interest, insurance or unit rate; the total wins over a part, then the larger."""
    best: dict[str, tuple[tuple, Decimal, str, int]] = {}
    text = reader.text
    for m in _AMOUNT.finditer(text):
        value = _amount(m)
        if value is None or reader.is_hidden(Span(m.start(), m.end())):
            continue
        line = _line_at(text, reader.lines, m.start())
        before = text[max(line.start, m.start() - 160) : m.start()]
        # the sentence before the amount, and what follows it on its line ("… Kč bez DPH")
        before = re.split(r"(?<=[a-zěščřžýáíéůú]{3})\.\s", before)[-1]
        end_line = _line_at(text, reader.lines, m.end())
        after = text[m.end() : min(end_line.end, m.end() + 40)]
        context = before + " " + after
        if _NOT_PRICE.search(context) or not (_PRICE_CUE.search(context) or _TOTAL_CUE.search(context)):
            continue
        currency = _CURRENCY[m.group("cur")]
        near = after[:25] + " " + before[-45:]
        if currency != "CZK":
            kind = "foreign"
        elif _WITHOUT_VAT.search(after[:25]) or (_WITHOUT_VAT.search(before[-45:]) and not _WITH_VAT.search(near)):
            kind = "without"
        elif _WITH_VAT.search(near):
            kind = "with"
        else:
            kind = "without?"
        rank = (bool(_TOTAL_CUE.search(context)), value)
        if kind not in best or rank > best[kind][0]:
            best[kind] = (rank, value, currency, m.start())
    result = {k: (v, c, at) for k, (_rank, v, c, at) in best.items()}
    # an amount with no VAT word is the value without VAT only when nothing says otherwise
    unlabelled = result.pop("without?", None)
    if unlabelled and "without" not in result and "with" not in result:
        result["without"] = unlabelled
    return result


def _signature_date(reader: _Reader) -> tuple[date, int] | None:
    """The latest date on a line that dates a signature, in the second half of the text (where
    signatures stand) or anywhere when the second half has none: the date of the last
    signature, which is the date of conclusion (Civil Code 89/2012 Sb., § 1745, and the
    ministry's methodology for ``datumUzavreni``)."""
    text = reader.text
    candidates: list[tuple[date, int, bool, bool]] = []
    for line in reader.lines:
        s = text[line.start : line.end]
        if _NOT_SIGNATURE.search(s):
            continue
        placed = bool(_PLACE_AND_DAY.match(s))
        if not (placed or (len(s.strip()) <= _SHORT_LINE and _DAY_CUE.search(s))):
            continue
        for m in _DATE.finditer(s):
            at = line.start + m.start()
            if reader.is_hidden(Span(at, line.start + m.end())):
                continue
            try:
                if m.group("y2"):
                    d = date(int(m.group("y2")), int(m.group("m2")), int(m.group("d2")))
                else:
                    month = int(m.group("m")) if m.group("m") else _MONTHS.get(m.group("mn").lower())
                    if not month:
                        continue
                    d = date(int(m.group("y")), month, int(m.group("d")))
            except ValueError:
                continue
            candidates.append((d, at, at >= len(text) // 2, placed))
    # a short dated line counts where signatures stand (the second half); "V Praze dne …" anywhere
    late = [c for c in candidates if c[2]] or [c for c in candidates if c[3]]
    if not late:
        return None
    d, at, _late, _placed = max(late, key=lambda c: (c[0], c[1]))
    return d, at


def _number(reader: _Reader, title_at: int = -1) -> tuple[str, int] | None:
    """The contract number or reference: a labelled one ("Číslo smlouvy: 12-OBJ/893/2016", "č. j.
    MSMT-123/2024") first, then one in the title ("Smlouva o dílo č. 25/2024"), then any "smlouva
    č. …"; never an amendment's ordinal ("Dodatek č. 3") nor a court register's file mark."""
    text = reader.text
    title_line = _line_at(text, reader.lines, title_at) if title_at >= 0 else None
    ranked: list[tuple[int, int, str]] = []
    top = reader.lines[min(15, len(reader.lines) - 1)].end if reader.lines else 0
    for m in _NUMBER.finditer(text):
        value = m.group("value").rstrip(".,/-")
        if reader.is_hidden(Span(m.start("value"), m.end("value"))) or len(value) < 2:
            continue
        line = _line_at(text, reader.lines, m.start())
        if _REGISTER_LINE.search(text[line.start : line.end]):
            continue
        cue = m.group(0)[: m.start("value") - m.start()]
        if re.fullmatch(r"\d+", value) and re.match(r"dodat|smlouv", cue, re.I):
            continue  # "Dodatek č. 1", "Smlouva č. 2": an ordinal
        labelled = bool(re.match(r"čísl|č\.\s*smlouvy|č\.\s*j|čj|evidenční|spisov|sp\.", cue, re.I))
        if labelled or m.start() < top:  # "Smlouva č. …" further on names another contract
            ranked.append((0 if labelled else 2, m.start("value"), value))
    if title_line is not None:  # "Kupní smlouva … č. 20180359", "Smlouva o poskytování služeb (č. 127/2018)"
        head = text[title_line.start : min(len(text), title_line.end + 200)]
        for m in _TITLE_NUMBER.finditer(head):
            value = m.group("value").rstrip(".,/-)")
            at = title_line.start + m.start("value")
            amendment_ordinal = _AMENDMENT.match(head) and re.fullmatch(r"\d+", value) and m.start() < 20
            if re.match(r"\s*Sb\b", head[m.end("value") :]):  # "zákona č. 89/2012 Sb.": a statute
                continue
            if len(value) >= 1 and not amendment_ordinal and not reader.is_hidden(Span(at, at + len(value))):
                ranked.append((1, at, value))
                break
    if not ranked:
        return None
    _rank, at, value = min(ranked)
    return _clip(value, MAX_TEXT), at


def _sentence_case(title: str) -> str:
    letters = [c for c in title if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) > 0.8 * len(letters):
        return title[:1].upper() + title[1:].lower()
    return title


def _subject(reader: _Reader) -> tuple[str, int, int] | None:
    """The title of the contract, with the lines that continue it ("Smlouva o dílo" / "na opravu
    chodníku") and the project named in quotes near a cue ("veřejná zakázka „Oprava …“"):
    ``(subject, offset of the title, offset of the project or -1)``."""
    text = reader.text
    first_page_end = next((p.end for p in reader.layer.pages), len(text)) if reader.layer.pages else len(text)
    head = [s for s in reader.lines if s.start < max(first_page_end, 1) and text[s.start : s.end].strip()][:25]
    title, at = "", -1
    for i, line in enumerate(head):
        s = _SPACES.sub(" ", text[line.start : line.end]).strip()
        if _TITLE.match(s) and len(s) <= 150 and not _DEFINES.search(s) and not reader.is_hidden(line):
            parts = [s]
            for nxt in head[i + 1 : i + 3]:
                n = _SPACES.sub(" ", text[nxt.start : nxt.end]).strip()
                if not n or not _TITLE_CONTINUES.match(n) or len(n) > 120 or reader.is_hidden(nxt):
                    break
                if re.match(r"^\s*(?:mezi|uzavřen|uzavren|\()", n, re.I):
                    break
                parts.append(n)
            rest = [
                re.sub(r"^0(?=\s[a-zěščřžýáíéůú])", "o", part.lower() if part.isupper() else part) for part in parts[1:]
            ]
            title, at = " ".join([_sentence_case(parts[0]), *rest]), line.start
            break
    project, project_at = "", -1
    for m in _QUOTED.finditer(text, 0, min(len(text), 6000)):
        q = m.group("q").strip()
        line = _line_at(text, reader.lines, m.start())
        around = text[max(line.start, m.start() - 80) : m.start()]
        if " " in q and _PROJECT_CUE.search(around) and not reader.is_hidden(Span(m.start(), m.end())):
            if not re.match(r"^(?:dále|dale)\b", q, re.I):
                project, project_at = q, m.start()
                break
    if not title and not project:
        return None
    subject = title
    if project and strip_diacritics(project).casefold() not in strip_diacritics(title).casefold():
        subject = f"{title} – {project}" if title else project
    subject = re.sub(r"(?<=[a-zěščřžýáíéůú] )0(?= [a-zěščřžýáíéůú])", "o", subject)  # OCR's "smlouvy 0 zajištění"
    return _clip(subject.rstrip(" .:"), MAX_TEXT), at if at >= 0 else project_at, project_at


def _nominative(word: str, feminine: bool | None = None) -> str:
    """A given name or surname in the nominative ("Radkem" -> "Radek", "Vaňkovou" -> "Vaňková")
    by the name gazetteer; a surname it does not know by the Czech endings
    (:func:`~redactor.core.czech.nominative_candidates`): the form in "-á" for a woman, the one
    ending in a consonant for a man ("Duchoněm" -> "Duchoň"); else the word itself."""
    gazetteer = NameGazetteer.default()
    known = gazetteer.given_name_of(word) or gazetteer.surname_of(word)
    if known or feminine is None:
        return known or word
    others = sorted(nominative_candidates(word) - {word}, key=len, reverse=True)
    if feminine:
        return next((c for c in others if c.endswith("á")), word)
    soft = re.fullmatch(r"(.+)([ntd])ěm", word)  # "Duchoněm" -> "Duchoň": ň, ť, ď before "-em" write "ně"
    if soft:
        return soft.group(1) + {"n": "ň", "t": "ť", "d": "ď"}[soft.group(2)]
    return next((c for c in others if c[-1:].isalpha() and c[-1] not in "aeiouyáéěíóúůý"), word)


def _signatory(text: str, start: int, end: int, names: list[ProposedRedaction]) -> str:
    """The representative on ``text[start:end]`` as the registry's ``schvalil`` wants it: "Ing.
    Jana Nováková, starostka" when the line is in the nominative; titles and the name in the
    nominative without the function when the line inflects them ("zastoupené Ing. Radkem
    Blažkem, starostou" -> "Ing. Radek Blažek")."""
    value = text[start:end].strip(" ,.;:")
    value = re.split(r"\s{2,}|\bIČO?\b|\(", value)[0].strip(" ,;")
    first = min(n.span.start for n in names)
    last = max(n.span.end for n in names)
    words = text[first:last].split()
    given = NameGazetteer.default().given_name_of(words[0].strip(",")) if words else None
    feminine = None if given is None else given.endswith(("a", "e"))
    nominative = [_nominative(w.strip(","), feminine) for w in words]
    if nominative == [w.strip(",") for w in words]:
        return value
    titles = [w for w in text[start:first].split() if w.endswith(".") or w.strip(",") in TITLES_BEFORE]
    return " ".join([*titles, *nominative])


def _signed_by(reader: _Reader, party: Party | None, profile: AgencyProfile | None) -> tuple[str, int] | None:
    """Who signed for the agency: the person its block names as representing it ("zastoupený:
    Ing. Jana Nováková, starostka"), when the engine keeps that name (an official acting for the
    body, ministry methodology for Act 340/2015 Sb.); else an official of the agency's profile
    named in the text."""
    text = reader.text
    if party is not None:
        names = [p for p in reader.proposals if p.category in cat.NAME_CATEGORIES and p.action == Action.KEEP]
        for block in party.blocks:
            for line in reader.lines:
                if not block.start <= line.start < block.end:
                    continue
                m = _REPRESENTED.search(text[line.start : line.end])
                if not m:
                    continue
                start = line.start + m.start("rest")
                end = line.end
                if not text[start:end].strip():  # the name is on the next line
                    nxt = next((s for s in reader.lines if s.start > line.end), None)
                    if nxt is None:
                        continue
                    start, end = nxt.start, nxt.end
                span = Span(start, end)
                inside = [n for n in names if span.contains(n.span)]
                if reader.is_hidden(span) or not inside:
                    continue
                value = _signatory(text, start, end, inside)
                if value:
                    return _clip(value, MAX_TEXT), start
    if profile is not None:
        folded = strip_diacritics(text).casefold()
        for official in profile.officials:
            words = official.words()
            if words and all(strip_diacritics(w).casefold() in folded for w in words[-1:]):
                at = folded.find(strip_diacritics(words[-1]).casefold())
                value = official.name + (f", {official.function}" if official.function else "")
                return _clip(value, MAX_TEXT), at
    return None


def prefill(analysis: Analysis, profile: AgencyProfile | None = None, unit: str = "") -> ContractMetadata:
    """The registry metadata the contract itself gives (see the module docstring).

    ``profile`` is the agency's identity: it fills ``subjekt`` and tells the agency's own party
    apart, which is therefore not listed among ``smluvniStrana``; ``unit`` is the agency's útvar.
    Values the analysis proposes to redact or to review are never taken. Fields the contract does
    not give stay empty (``None`` or ""); nothing is guessed beyond what ``sources`` name.
    """
    reader = _Reader(analysis)
    meta = ContractMetadata()
    if profile is not None:
        meta.publisher = PublishingBody(
            data_box=profile.data_box,
            name=profile.names[0] if profile.names else "",
            ico=_digits(profile.ico),
            address=profile.addresses[0] if profile.addresses else "",
            unit=unit,
        )
    own = _agency_party(analysis.parties, reader, profile)
    # the agency introduced twice (a header and a second label, "KPS") is one party, not a counterparty;
    # by its profile's names only (the engine may have given its block another party's name)
    own_names = list(profile.names) if profile is not None else []
    for party in analysis.parties:
        if party is own or (own is not None and _same_body(party, own_names)):
            continue
        rp = _registry_party(reader, party)
        if _SENTENCE.search(rp.name) or len(rp.name) > 150:
            rp.name = ""  # the engine's name is a clause ("T-MAPY spol. s r.o. je nositelem …")
        if not rp.name and not rp.ico and not rp.private:
            continue  # nothing to say about it: the reviewer adds the party if it is one
        twin = next((p for p in meta.parties if (rp.ico and p.ico == rp.ico) or (rp.name and p.name == rp.name)), None)
        if twin is not None and not rp.private:
            for key in ("name", "ico", "data_box", "address"):
                setattr(twin, key, getattr(twin, key) or getattr(rp, key))
            continue
        meta.parties.append(rp)
    if own is not None:
        meta.sources["publisher"] = reader.source(own.blocks[0].start if own.blocks else 0, "own_party")
        recipient = _recipient(own)
        meta.publisher.payer = None if recipient is None else not recipient
    found = _subject(reader)
    title_at = -1
    if found:
        meta.subject, title_at, _project_at = found
        meta.sources["subject"] = reader.source(title_at)
        meta.amendment = bool(_AMENDMENT.match(meta.subject))
    signed = _signature_date(reader)
    if signed:
        meta.date_concluded, at = signed
        meta.sources["date_concluded"] = reader.source(at, "last_signature")
    number = _number(reader, title_at)
    if number:
        meta.number, at = number
        meta.sources["number"] = reader.source(at)
    who = _signed_by(reader, own, profile)
    if who:
        meta.signed_by, at = who
        meta.sources["signed_by"] = reader.source(at)
    prices = _prices(reader)
    if "without" in prices:
        meta.value_without_vat, _c, at = prices["without"]
        meta.sources["value_without_vat"] = reader.source(at)
    if "with" in prices:
        meta.value_with_vat, _c, at = prices["with"]
        meta.sources["value_with_vat"] = reader.source(at)
    if "foreign" in prices and "without" not in prices and "with" not in prices:
        meta.foreign_value, meta.foreign_currency, at = prices["foreign"]
        meta.sources["foreign_value"] = reader.source(at)
    # a value read where it is kept may be proposed for redaction elsewhere ("Matoušková" kept
    # beside "starostka", sent to review in a signature): it stays out until the reviewer types it
    for path in drop_redacted_values(meta, [p.text for p in analysis.proposals if p.action != Action.KEEP]):
        meta.sources.pop(path.rsplit(".", 1)[0] if path.startswith("parties.") else path, None)
    return meta
