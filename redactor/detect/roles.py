"""Functions of office: the words that show a person acts for a public body or a company.

A name next to a function of office ("starosta", "vedoucí odboru", "předseda představenstva",
"poslanec") is a person acting in that function, whose name the registry shows (ministry
methodology: officials acting for the public body are normally kept; statutory bodies are public
in the commercial register). Sources of the vocabulary:

- public officials: Act 128/2000 Sb. on municipalities (starosta, místostarosta, tajemník,
  radní, zastupitel), Act 129/2000 Sb. on regions (hejtman), Act 131/2000 Sb. on Prague
  (primátor, náměstek), Act 234/2014 Sb. on the civil service (ředitel/vedoucí odboru, oddělení,
  sekce; náměstek), Act 90/1995 Sb. on the rules of procedure of the Chamber of Deputies
  (poslanec) and the Senate (senátor), Act 111/1998 Sb. on universities (rektor, děkan);
- a public body's staff by their job in its financial control (správce rozpočtu, příkazce
  operace, hlavní účetní, účetní): Decree 416/2004 Sb., §§ 11-13, implementing Act 320/2001 Sb.;
- statutory representatives: Act 90/2012 Sb. on business corporations (jednatel, představenstvo,
  správní rada, statutární ředitel) and the Civil Code 89/2012 Sb., § 450 (prokurista).

Words may stand in any case ("starostou", "primátorkou", "předsedou představenstva",
"poslance"); matching ignores diacritics (OCR and some exports drop them). A function is linked
to a name when it stands right before it (its complement, titles, "pan"/"paní" and a comma may
lie between: "primátorkou města Brna JUDr. X", "asistenta poslance PS PČR pana X"), right after
it (", starosta", on the next line: "Ing. X\\nvedoucí Odboru …"), or on the line above a name
that stands alone on its line (a signature block).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from redactor import lexicon
from redactor.czech import strip_diacritics

OFFICIAL = "public_official"
STATUTORY = "statutory_representative"
#: A public body's staff by the job they do (an accountant, the budget administrator): an official
#: when acting for a public body, a company's employee (no function of office) otherwise.
STAFF = "staff"
#: Either, decided by the party the person acts for (a company's "ředitel" or "předseda" is its
#: statutory body, a school's or a region's is a public official).
EITHER = "either"


def _lex(family: str) -> str:
    """The lexicon family ``family`` as matched here: on text without diacritics."""
    return lexicon.alternatives(family, folded=True)


#: (pattern on text without diacritics, lower case; kind), built of the lexicon's families. A
#: "vedoucí" (head) is an official only with the unit they lead; alone (a project lead, a site
#: manager of a supplier) an employee. "účetní" only right before a name or its titles ("účetní
#: paní Bc. X"), not as an adjective ("účetní doklady").
_FUNCTIONS: tuple[tuple[str, str], ...] = (
    (_lex("official_functions"), OFFICIAL),
    (_lex("entrusted_with"), EITHER),
    (rf"{_lex('head_of_unit')}(?:[ \n]+(?:[^\W\d_]+[ \n]+){{0,2}}?{_lex('office_units')})", OFFICIAL),
    # a job at a unit of an office or at an official ("referentka odboru", "asistentka starosty")
    (
        rf"{_lex('job_titles')}(?:[ \n]+(?:[^\W\d_]+[ \n]+){{0,2}}?"
        rf"(?:{_lex('office_units')}|{_lex('official_functions')}))",
        OFFICIAL,
    ),
    (_lex("ranks"), OFFICIAL),
    (_lex("statutory_functions"), STATUTORY),
    (rf"{_lex('board_members')}[ \n]+{_lex('boards')}", STATUTORY),
    (_lex("statutory_bodies"), STATUTORY),
    (_lex("financial_control_roles"), STAFF),
    (_lex("job_titles"), STAFF),
    (rf"{_lex('accountants')}(?=[ \n]*(?:[,:;)\n]|$|{_lex('mister_missus')}\b|[a-z]{{2,6}}\.))", STAFF),
    (_lex("directors"), EITHER),
    (_lex("chairs"), EITHER),
)
_ANY_FUNCTION = "|".join(f"(?:{p})" for p, _ in _FUNCTIONS)
_FUNCTION_RE = [(re.compile(rf"(?<![^\W\d_])(?:{p})(?![^\W\d_])"), kind) for p, kind in _FUNCTIONS]

#: Words that may stand between a function and the name it belongs to: no conjunction or pronoun
#: opening a clause, no verb.
_BETWEEN_WORD = (
    rf"(?!{_lex('between_function_and_name')}\b)"
    rf"(?![a-z]+{_lex('verb_endings')}\b)"
    r"[^\W\d_]+\.?"
)
#: Titles and "pan"/"paní" between a function and a name; "et" joins two titles ("Mgr. et Mgr.").
_TITLE_OR_ADDRESS = rf"(?:{_lex('mister_missus')}|p\.|[a-z]{{2,6}}\.(?:[ ]?[a-z]{{2,5}}\.)?|et(?=[ ]+[a-z]{{2,6}}\.))"

#: "zastoupený", "jednající", "oprávněn k jednání", "pověřen zastupováním": the name after it acts
#: for the party whose block it stands in (up to four words between, titles "Ing. Mgr." too).
REPRESENTATION = re.compile(
    rf"{_lex('representation')}(?:/\w+)?[ \n]*:?[ \n]*"
    r"(?:[^\W\d_()]+\.?[ \n,]+|\([^)]*\)[ \n]*){0,4}$"
)


@dataclass(frozen=True)
class Function:
    """A function of office linked to a name: its ``kind`` (:data:`OFFICIAL`,
    :data:`STATUTORY` or :data:`EITHER`), the words as written (``cue``) and where it stands
    (``before``, ``after``, ``line above`` or ``below``: under the name in its column)."""

    kind: str
    cue: str
    where: str


def _fold(text: str) -> str:
    folded = strip_diacritics(text)
    return (folded if len(folded) == len(text) else text).lower()


def _opening_function(phrase: str) -> tuple[str, int] | None:
    """``(kind, length)`` of the function ``phrase`` starts with (folded, compared in lower case)."""
    low = _fold(phrase)
    for pattern, kind in _FUNCTION_RE:
        m = pattern.match(low)
        if m:
            return kind, m.end()
    return None


def function_kind(phrase: str) -> str | None:
    """The kind of the function ``phrase`` starts with ("Starostka obce" -> OFFICIAL), else None."""
    found = _opening_function(phrase.strip())
    return found[0] if found else None


def is_function_word(word: str) -> bool:
    """True for a single word that is a function noun in any case ("Poslanec", "Starostou",
    "Jednatel"): never a person's name."""
    low = _fold(word)
    return any(p.fullmatch(low) for p, _k in _FUNCTION_RE) or bool(re.fullmatch(_lex("function_nouns"), low))


#: The spaces between two words of one phrase: three stand for the gap between two columns of an
#: OCR line (a signature row: "…, starosta   Jan X" is two signatories), which a function is not
#: linked across (:data:`redactor.read.extraction.COLUMN_BREAK`).
_SP = "[ ]{1,2}"
_BEFORE = re.compile(
    rf"(?<![^\W\d_])(?P<fn>{_ANY_FUNCTION})"
    # "poslanec/poslankyně", "(poslanec)": the other gender's form and a closing bracket of a label
    rf"(?:/[^\W\d_]+)?\)?"
    rf"(?:{_SP}{_BETWEEN_WORD}){{0,4}}?[ ]{{0,2}}(?:[,:][ ]{{0,2}})?(?:(?:{_TITLE_OR_ADDRESS})[ ]{{0,2}})*$"
)
#: A function opening a line (a signature block's line above the name), compiled with the module:
#: the vocabulary's alternation costs milliseconds to compile in every process that meets it.
_FUNCTION_AT_START = re.compile(rf"(?P<fn>{_ANY_FUNCTION})")
_AFTER = re.compile(
    rf"^[ ]*(?P<sep>,|[–-]|\n)[ \n]*(?:{_lex('in_capacity')}[ \n]+(?:[^\W\d_]+[ \n]+)?)?"
    rf"(?P<fn>{_ANY_FUNCTION})"
)


def _kind_of(cue: str) -> str:
    for pattern, kind in _FUNCTION_RE:
        if pattern.match(cue):
            return kind
    return EITHER


def _printed(text: str, origin: int, m: re.Match[str]) -> str:
    """The function ``m`` matched in a folded window (no diacritics, lower case) as the document
    prints it: the same span of ``text``, the window starting at offset ``origin`` ("primátorem",
    not "primatorem"); the folded words when folding changed the window's length."""
    fn = m.group("fn")
    printed = text[origin + m.start("fn") : origin + m.end("fn")] if origin >= 0 else ""
    return " ".join(printed.split()) if _fold(printed).split() == fn.split() else fn


def function_near(text: str, start: int, end: int) -> Function | None:
    """The function of office linked to the name at ``text[start:end]`` (offsets into ``text``,
    titles around the name included or not), or None. See the module docstring for the
    positions checked; the function never reaches across a full stop, a semicolon or a name's
    own line break except for the signature-block layouts."""
    before = _fold(text[max(0, start - 90) : start])
    lines = before.split("\n")
    line_before = lines[-1]
    if len(lines) >= 2 and _only_titles(line_before):
        line_before = lines[-2] + " " + line_before  # "… poslance PS PČR pana\nJana X"
    m = _BEFORE.search(line_before)
    if m is None and len(lines) >= 2 and not _only_titles(lines[-1]) and ":" not in lines[-1]:
        # a function that a line break cuts from its complement and the name: "… a vedoucí⏎oddělení
        # správy majetku Elena X jej projednala" (the same limit of words between applies)
        m = _BEFORE.search(lines[-2] + " " + lines[-1])
    if m:
        window_start = start - len(m.string)  # the window is the end of ``before``, a line break as a space
        return Function(_kind_of(m.group("fn")), _printed(text, window_start, m), "before")
    after = _fold(text[end : end + 80])
    stripped = _strip_titles_after(after)
    m = _AFTER.match(stripped)
    # on the next line only under a name that stands alone on its line or after its label (a
    # signature block, a form: "Zastoupená: Mgr. X⏎vedoucím …"), not at the end of a sentence
    # whose next line goes on ("předá Janu X⏎předseda.")
    if m and (m.group("sep") != "\n" or _only_titles(lines[-1]) or _only_titles(lines[-1].split(":", 1)[-1])):
        return Function(_kind_of(m.group("fn")), _printed(text, end + len(after) - len(stripped), m), "after")
    # a signature block: the function on the line above a line that holds only the name
    own_line_start = lines[-1]
    rest_of_line = after.split("\n", 1)[0]
    if len(lines) >= 2 and _only_titles(own_line_start) and _only_titles(rest_of_line):
        above = lines[-2].strip()
        if above and len(above.split()) <= 8:
            m = _FUNCTION_AT_START.match(above)
            if m:
                line_start = start - len(lines[-1]) - 1 - len(lines[-2])
                above_start = line_start + len(lines[-2]) - len(lines[-2].lstrip())
                return Function(_kind_of(m.group("fn")), _printed(text, above_start, m), "line above")
    return None


def function_in_cell(cell: str | None) -> Function | None:
    """The function that opens ``cell``, the words printed under a name in its column of a
    signature block ("místostarosta", "ředitelka odboru hospodářské správy"; see
    :meth:`redactor.read.columns.ColumnCells.below`), as a :class:`Function` standing ``below``
    the name; None when the cell opens with anything else."""
    words = re.sub(r"^\W+", "", cell or "")
    found = _opening_function(words)
    return Function(found[0], words[: found[1]], "below") if found else None


_TITLES_AFTER = rf"(?i:{_lex('titles_after')})"
_TITLE_TOKEN = re.compile(rf"^(?:[a-z]{{2,6}}\.(?:[ ]?[a-z]{{2,5}}\.)?|{_TITLES_AFTER}|{_lex('mister_missus')}|et|,)$")


def _only_titles(fragment: str) -> bool:
    """True when ``fragment`` holds nothing but academic titles and punctuation."""
    return all(_TITLE_TOKEN.match(t) for t in fragment.replace(",", " , ").split())


def _strip_titles_after(after: str) -> str:
    """``after`` without the academic titles written after a name (", Ph.D., starosta")."""
    return _TITLES_AFTER_NAME.sub("", after)


_TITLES_AFTER_NAME = re.compile(rf"^(?:[ ]*,?[ ]*(?:{_TITLES_AFTER}|(?i:{_lex('titles_written_after_name')})))+")


#: Cues that name a party's contact person or its person for a kind of matters: "kontaktní
#: osoba", "vyřizuje", "Zpracoval(a):" (a paper's footer), "ve věcech technických/smluvních
#: jedná", "osoba oprávněná jednat ve věcech …", "odpovědná osoba", "technický zástupce",
#: "pověřený pracovník", "stavbyvedoucí". Such a person is an employee named for communication,
#: not a statutory body: a supplier's contact is a private person under the ministry's methodology
#: (employees of a supplier who are not its statutory representatives), a public body's is its
#: employee acting in office. Matched on text without diacritics, lower case, ending right before
#: the name (a role noun, "je", "jedná", "oprávněn(a)", titles and a colon may lie between).
_CONTACT_CUE = (
    rf"{_lex('contact_person')}|{_lex('contact_cues')}|{_lex('clerk')}|{_lex('prepared_by')}(?=[ \n]*:)|"
    rf"{_lex('in_matters')}[ \n]+(?:[^\W\d_]+[ \n]+){{0,2}}?{_lex('matter_kinds')}\w*"
)
_TITLE_SHAPE = r"[a-z]{2,6}\.(?:[ ]?[a-z]{2,5}\.)?"
CONTACT = re.compile(
    rf"(?<![^\W\d_])(?P<cue>{_CONTACT_CUE})(?![^\W\d_])"
    rf"(?:[ \n]+(?:{_lex('contact_party_roles')}\w*|za[ \n]+[^\W\d_]+|{_lex('contact_links')}|{_lex('mister_missus')}"
    rf"|{_TITLE_SHAPE}))*"
    rf"[ \n]*[:\-–]?[ \n]*(?:(?:{_lex('mister_missus')}|{_TITLE_SHAPE}|et(?=[ \n]+[a-z]{{2,6}}\.))[ \n]*)*$"
)


def contact_cue(text: str, start: int) -> str | None:
    """The contact cue ("kontaktní osoba", "vyřizuje", "ve věcech technických") that
    introduces the name starting at ``text[start]`` (an offset into ``text``), as written, or None. The
    cue must stand on the name's line or end the line above it (a form: "Kontaktní osoba:⏎Jan X"),
    within 80 characters, not across a full stop or a semicolon."""
    before = _fold(text[max(0, start - 80) : start])
    lines = before.split("\n")
    window = lines[-1]
    if len(lines) >= 2 and _only_titles(window):
        window = lines[-2] + "\n" + window
    window = re.split(r"[;]|\.(?=\s+[A-Z\d])", window)[-1]
    m = CONTACT.search(window)
    if m is None:
        return None
    origin = max(0, start - 80) + len(before) - len(window)  # the window is a suffix of ``before``
    return " ".join(text[origin + m.start("cue") : origin + m.end("cue")].split())
