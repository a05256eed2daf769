"""The lexicon: the Czech words the rules look for, as data, compiled under one OCR policy.

Every cue word of the rule layer ("bytem", "se sídlem", "vyřizuje", "jednatel", "Ing.") is a
form of a *family* in ``data/lexicon.toml``; a family has its forms, its ``tolerance`` and the
``source`` of the words (a statute, the ministry's methodology, a section of DOMAIN.md, or the
class of document they were observed in). Rules take a family's regular expression from here
and never spell a word themselves, so one word has one spelling and one tolerance everywhere.

Form syntax (expanded when loaded):

- ``(a|b|)`` alternatives inside a form: ``"trval(ý|ým|ého) pobyt(|em|u)"`` is six forms;
- ``*`` any further letters (a stem: ``"zastoupen*"``);
- a space: one or more white-space characters (a line break of a scan included); none or more
  after a dot ("r. č." matches "r.č.") and in an ``ocr`` family, whose words OCR may glue
  ("dálejen");
- any other character stands for itself (``"nar."``, ``"e-mail"``).

Tolerance (:func:`alternatives`): ``pattern`` forms are regular expressions of shapes that are not
words (legal-form abbreviations with optional dots: ``s\\.\\s?r\\.?\\s?o\\.?``), taken as written and in
order; ``exact`` matches a form as written (the caller's flags decide
case); ``ocr`` also matches it as Tesseract misreads Czech scans: a letter with a diacritic as its
base letter or as another diacritic on that base (ě as e or é, ů as u or ú), and one glyph for
another that it resembles (``l``, ``1``, ``I``, ``i``, ``|``, ``!``; ``o`` and ``0``; ``s`` and
``5``; ``b`` and ``8`` — the confusions :mod:`redactor.publish.legibility` folds away). Any
number of such misreadings in one form is matched. Text folded before matching (no diacritics,
:func:`fold`) takes the family's ``folded`` expression.

Raises ``KeyError`` naming the family for an unknown family; a malformed data file raises
``ValueError`` when first loaded.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Literal

Tolerance = Literal["exact", "ocr", "pattern"]

#: Glyphs Tesseract reads one for another on Czech scans, by the letter each group is read as
#: when a reading is folded (:func:`redactor.publish.legibility.fold`); each group is confusable
#: within itself.
OCR_LOOKALIKES: dict[str, frozenset[str]] = {
    "l": frozenset("l1Ii|!"),
    "o": frozenset("oO0"),
    "s": frozenset("sS5"),
    "b": frozenset("bB8"),
}
OCR_GLYPHS: tuple[frozenset[str], ...] = tuple(OCR_LOOKALIKES.values())
_GROUP_OF = {c: group for group in OCR_GLYPHS for c in group}


def fold(text: str) -> str:
    """``"Kolář" -> "Kolar"``: NFD decomposition without combining marks (case kept)."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


@cache
def _letters_on(base: str) -> frozenset[str]:
    """Czech letters whose base letter is ``base`` (``"e"`` -> e, é, ě), ``base`` too."""
    czech = "áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ"
    return frozenset(c for c in czech if fold(c) == base) | {base}


def _class_of(c: str, tolerance: Tolerance) -> str:
    """The regular expression of one character of a form under ``tolerance``."""
    if tolerance == "exact" or not c.isalpha():
        return re.escape(c)
    base = fold(c)
    alternatives = (_letters_on(base) if base != c else {c}) | _GROUP_OF.get(base, frozenset())
    if len(alternatives) == 1:
        return re.escape(c)
    ordered = sorted(alternatives, key=lambda x: (x != c, x != base, x))
    return "[" + "".join(re.escape(x) if x in "\\]^-[" else x for x in ordered) + "]"


def _compile_form(form: str, tolerance: Tolerance) -> str:
    out = []
    for c in form:
        if c == "*":
            out.append(r"\w*")
        elif c == " ":
            # after an abbreviation's dot the space may be missing ("r.č.", "č.ú."), and OCR glues
            # words ("dálejen", "trvalýpobyt")
            glued = tolerance == "ocr" or (out and out[-1] == r"\.")
            out.append(r"\s*" if glued else r"\s+")
        else:
            out.append(_class_of(c, tolerance))
    return "".join(out)


_GROUP = re.compile(r"\(([^()]*)\)")


def expand(form: str) -> list[str]:
    """Every form ``form`` writes with its ``(a|b|)`` alternatives, in order."""
    m = _GROUP.search(form)
    if not m:
        return [form]
    out: list[str] = []
    for alternative in m.group(1).split("|"):
        out.extend(expand(form[: m.start()] + alternative + form[m.end() :]))
    return out


@dataclass(frozen=True)
class Family:
    """A family of cue words: ``forms`` expanded (as written, ``*`` for further letters), the
    ``tolerance`` they are matched with, and the ``source`` of the words."""

    name: str
    forms: tuple[str, ...]
    tolerance: Tolerance
    source: str
    #: A form's stem where the data names one (``"nájemce" -> "nájemc"``): every inflected form
    #: starts with it.
    stems: dict[str, str] = field(default_factory=dict)

    def alternatives(self, folded: bool = False, bounded: bool = False) -> str:
        """A non-capturing group matching any form (longest first, so the longest form found at a
        place wins); on text without diacritics when ``folded``. ``bounded``: no letter or digit
        right before a form, nor right after one that ends in a letter (a stem ``*`` goes on)."""
        if self.tolerance == "pattern":
            return "(?:" + "|".join(fold(f) if folded else f for f in self.forms) + ")"
        forms = {fold(f) if folded else f for f in self.forms}
        ordered = sorted(forms, key=lambda f: (-len(f.replace("*", "")), f))
        compiled = [
            _compile_form(f, self.tolerance) + (r"(?!\w)" if bounded and f[-1].isalpha() else "") for f in ordered
        ]
        return (r"(?<!\w)" if bounded else "") + "(?:" + "|".join(compiled) + ")"

    def words(self, folded: bool = False) -> frozenset[str]:
        """The forms as a set (no stems expected), lower-cased and without diacritics when ``folded``."""
        return frozenset(fold(f).lower() if folded else f for f in self.forms)


def _load() -> dict[str, Family]:
    raw = tomllib.loads(resources.files("redactor").joinpath("data/lexicon.toml").read_text(encoding="utf-8"))
    families = {}
    for name, entry in raw.items():
        tolerance = entry.get("tolerance")
        if tolerance not in ("exact", "ocr", "pattern") or not entry.get("source") or not entry.get("forms"):
            raise ValueError(f"lexicon family {name!r} needs forms, a tolerance (exact, ocr or pattern) and a source")
        written = entry["forms"]
        forms = (
            tuple(written) if tolerance == "pattern" else tuple(dict.fromkeys(f for w in written for f in expand(w)))
        )
        families[name] = Family(name, forms, tolerance, entry["source"], dict(entry.get("stems", {})))
    return families


@cache
def families() -> dict[str, Family]:
    """Every family of the lexicon by name, loaded once."""
    return _load()


def family(name: str) -> Family:
    """The family ``name``. Raises ``KeyError`` for a family the lexicon does not hold."""
    try:
        return families()[name]
    except KeyError:
        raise KeyError(f"the lexicon has no family {name!r}") from None


@cache
def alternatives(name: str, folded: bool = False, bounded: bool = False) -> str:
    """:meth:`Family.alternatives` of the family ``name``, compiled once."""
    return family(name).alternatives(folded, bounded)


def forms(name: str) -> tuple[str, ...]:
    """The expanded forms of the family ``name``, in the data file's order."""
    return family(name).forms


def stem(name: str, form: str) -> str:
    """The stem of ``form`` in the family ``name``: the data's, or the form itself."""
    return family(name).stems.get(form, form)


def words(name: str, folded: bool = False) -> frozenset[str]:
    """:meth:`Family.words` of the family ``name``."""
    return family(name).words(folded)
