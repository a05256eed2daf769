"""A forward declension of Czech personal names for tests (textbook paradigms only).

Independent of the engine's reverse rules: it generates the genitive, dative and
instrumental singular a contract would print ("Nováka", "Novákovi", "Novákem"), so the tests
can check that every generated form leads back to its nominative.
"""

from __future__ import annotations

SOFT = set("šžčřcjťďň")
_SOFTEN = {"n": "ň", "t": "ť", "d": "ď"}


def fleeting_stem(word: str) -> str | None:
    """Hájek -> Hájk, Vaněk -> Vaňk, Němec -> Němc, Karel -> Karl (the fleeting e)."""
    if len(word) >= 4 and word[-2] in "eě" and word[-1] in "kcl" and word[-3] not in "aeiouyáéěíóúůý":
        before = word[-3]
        if word[-2] == "ě":
            before = _SOFTEN.get(before, before)
        return word[:-3] + before + word[-1]
    return None


def masculine(word: str, fleeting: bool = True) -> list[str]:
    """Genitive, dative, instrumental of a masculine name."""
    if word.endswith("ý"):
        stem = word[:-1]
        return [stem + "ého", stem + "ému", stem + "ým"]
    if word.endswith(("í", "é")):
        return [word + "ho", word + "mu", word + "m"]
    if word.endswith("o"):
        stem = word[:-1]
        return [stem + "a", stem + "ovi", stem + "em"]
    if word.endswith("a"):
        stem = word[:-1]
        return [stem + "y", stem + "ovi", stem + "ou"]
    stem = (fleeting_stem(word) if fleeting else None) or word
    if stem[-1] in SOFT:
        return [stem + "e", stem + "ovi", stem + "em"]
    return [stem + "a", stem + "ovi", stem + "em"]


_DATIVE_A = {
    "k": "ce",
    "h": "ze",
    "g": "ze",
    "r": "ře",
    "d": "dě",
    "t": "tě",
    "n": "ně",
    "m": "mě",
    "b": "bě",
    "p": "pě",
    "v": "vě",
    "f": "fě",
    "l": "le",
    "s": "se",
    "z": "ze",
}


def feminine(word: str) -> list[str]:
    """Genitive, dative, instrumental of a feminine name."""
    if word.endswith("á"):
        stem = word[:-1]
        return [stem + "é", stem + "é", stem + "ou"]
    if word.endswith("a"):
        stem = word[:-1]
        if word.endswith("cha"):
            dative = word[:-3] + "še"
        elif stem[-1] in SOFT:
            dative = stem + "i"
        else:
            dative = stem[:-1] + _DATIVE_A.get(stem[-1], stem[-1] + "e")
        genitive = stem + ("i" if stem[-1] in SOFT else "y")
        return [genitive, dative, stem + "ou"]
    if word.endswith("e"):
        return [word, word[:-1] + "i", word[:-1] + "í"]
    if word.endswith("í"):
        return [word, word, word]
    return [word, word, word]  # Dagmar, Ester: indeclinable in contracts
