"""Czech place names: municipalities, their parts and city districts, in every case form.

Many Czech places carry words that are also given names or surnames ("Mladá Boleslav",
"Bohdalice", "Lhota", "Písek"), and contracts inflect them ("v Mladé Boleslavi", "v Brně",
"v Praze", "Ústí nad Labem"). The gazetteer (``data/gazetteers/obce.txt``: RÚIAN names of
municipalities, their parts, city districts and districts, CC BY 4.0, see its README) lets the
engine tell such words from names of persons.

Inflection: place names decline like nouns and adjectives; :func:`place_nominatives` adds the
place paradigms (Brno: Brna, Brnu, Brně, Brnem; Praha: Praze, Prahu; Budějovice: Budějovic,
Budějovicích; Plzeň: Plzni; Labe: Labem; Karlík, *Česká mluvnice*, declension of place names) to
:func:`~redactor.czech.nominative_candidates`.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from importlib import resources

from redactor import lexicon
from redactor.czech import nominative_candidates

#: (ending of the inflected form, nominative ending) for place names.
_PLACE_ENDINGS: tuple[tuple[str, str], ...] = (
    ("ě", "o"),  # Brně, Znojmě
    ("a", "o"),  # Brna
    ("u", "o"),  # Brnu
    ("em", "o"),  # Brnem
    ("ze", "ha"),  # Praze
    ("ce", "ka"),  # Lhotce -> Lhotka
    ("ou", "a"),  # Prahou
    ("ích", "e"),  # Budějovicích
    ("ic", "ice"),  # Bohdalic, Budějovic
    ("icím", "ice"),
    ("icemi", "ice"),
    ("ech", "y"),  # Vinohradech -> Vinohrady
    ("ům", "y"),
    ("ni", "eň"),  # Plzni -> Plzeň
    ("ní", "eň"),  # Plzní
    ("em", "e"),  # Labem -> Labe
    ("ém", "é"),  # Hradci Králové (the adjective keeps its form)
    ("ých", "é"),  # Bílých -> Bílé (plural adjectives in names)
)
_CONNECTORS = (
    lexicon.words("place_name_connectors") | lexicon.words("place_name_connectors", folded=True) | {"-", "–", "—"}
)


@lru_cache(maxsize=50_000)
def place_nominatives(form: str) -> frozenset[str]:
    """Every nominative a word of a place name may come from (``"Brně"`` -> ``{"Brně",
    "Brno", ...}``), the personal-name paradigms included."""
    out = set(nominative_candidates(form))
    for ending, repl in _PLACE_ENDINGS:
        if form.endswith(ending) and len(form) - len(ending) >= 2:
            out.add(form[: len(form) - len(ending)] + repl)
    return frozenset(out)


class PlaceGazetteer:
    """Place names; lookups accept any inflected form of a word or of a two-word name.

    ``names`` are nominative place names ("Mladá Boleslav", "Ústí nad Labem", "Praha 1").
    """

    def __init__(self, names: set[str]):
        self.words: set[str] = set()
        self.pairs: set[tuple[str, str]] = set()
        for name in names:
            parts = [w for w in re.split(r"[\s\-–—]+", name) if w and w.lower() not in _CONNECTORS]
            words = [w for w in parts if w[:1].isupper() and not w.isdigit()]
            self.words.update(words)
            for a, b in itertools.pairwise(words):
                self.pairs.add((a, b))

    @classmethod
    @lru_cache(maxsize=1)
    def default(cls) -> PlaceGazetteer:
        """The bundled RÚIAN list (``data/gazetteers/obce.txt``)."""
        text = resources.files("redactor").joinpath("data/gazetteers/obce.txt").read_text(encoding="utf-8")
        return cls({line.strip() for line in text.splitlines() if line.strip()})

    def is_place_word(self, form: str) -> bool:
        """True when ``form`` (one capitalised word, any case) is a word of some place name:
        "Brně", "Prahu", "Labem", "Mojžíř"."""
        return bool(form[:1].isupper()) and any(c in self.words for c in place_nominatives(_title(form)))

    def is_place_pair(self, first: str, second: str) -> bool:
        """True when two consecutive capitalised words are (part of) one place name in any case:
        "Mladé Boleslavi", "Hradci Králové", "Malá Strana"."""
        a, b = place_nominatives(_title(first)), place_nominatives(_title(second))
        return any((x, y) in self.pairs for x in a for y in b)


def _title(word: str) -> str:
    """``"BRNĚ"`` -> ``"Brně"``: upper-case words (stamps, headings) compare in title case."""
    return word.capitalize() if word.isupper() and len(word) > 2 else word
