"""The NLP pipeline behind the name recognizer, pluggable like Presidio's ``NlpEngine``.

:class:`SpacyNlpEngine` runs the Czech spaCy model ``cs_core_news_sm`` (installed from PyPI,
licence CC BY-NC-SA 3.0, trained on CNEC 2.0). Only the components the engine uses run:
``tok2vec``, ``morphologizer`` (part of speech) and ``ner``; the parser and lemmatizer are
disabled for speed. :class:`RuleOnlyNlpEngine` runs nothing and lets the engine work from
gazetteers and context rules alone (tests, or a deployment that may not use the model's
licence).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # spaCy takes 0.8 s to import; only a pipeline that runs a model imports it
    from spacy.language import Language

#: Longest piece of text handed to spaCy at once; longer documents are cut at line breaks.
CHUNK_CHARS = 20_000


@dataclass(frozen=True)
class NlpEntity:
    """A named entity: label (``PERSON``, ``ORG``, ...) and offsets into the document text."""

    label: str
    start: int
    end: int
    text: str


@dataclass
class NlpArtifacts:
    """What the pipeline produced for one document.

    ``pos`` maps a token's start offset to its universal part of speech (``PROPN``, ``NOUN``).
    """

    entities: list[NlpEntity] = field(default_factory=list)
    pos: dict[int, str] = field(default_factory=dict)


class NlpEngine(Protocol):
    """Anything that turns document text into :class:`NlpArtifacts`."""

    name: str
    load_seconds: float

    def load(self) -> None:
        """Load models; called once, lazily, before the first ``process``."""

    def process(self, text: str) -> NlpArtifacts:
        """Analyse ``text`` (the whole document)."""


class RuleOnlyNlpEngine:
    """An engine without a statistical model: no entities, no parts of speech."""

    name = "rules-only"
    load_seconds = 0.0

    def load(self) -> None:
        """Nothing to load."""

    def process(self, text: str) -> NlpArtifacts:
        """Return empty artifacts."""
        return NlpArtifacts()


def text_chunks(text: str, size: int) -> list[tuple[int, str]]:
    """Cut ``text`` at line breaks into pieces of at most about ``size`` characters:
    ``[(offset, piece), ...]``."""
    pieces, start = [], 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = text.rfind("\n", start, end)
            end = cut + 1 if cut > start else end
        pieces.append((start, text[start:end]))
        start = end
    return pieces


class SpacyNlpEngine:
    """spaCy with a Czech pipeline package (default ``cs_core_news_sm``).

    Raises ``OSError`` from :meth:`load` when the model package is not installed; nothing
    is ever downloaded.
    """

    def __init__(self, model: str = "cs_core_news_sm"):
        self.name = f"spacy:{model}"
        self.model = model
        self.load_seconds = 0.0
        self._nlp: Language | None = None

    def load(self) -> None:
        """Load the model once per process (about half a second)."""
        self._pipeline()

    def _pipeline(self) -> Language:
        if self._nlp is not None:
            return self._nlp
        import spacy  # noqa: PLC0415 - 0.8 s to import; only pipelines that run a model need it

        started = time.perf_counter()
        try:
            nlp = spacy.load(self.model, exclude=["parser", "trainable_lemmatizer", "lemmatizer"])
        except OSError as exc:
            raise OSError(
                f"the spaCy model {self.model!r} is not installed (cs_core_news_sm: pip install -r "
                "requirements-nc.txt, licence CC BY-NC-SA 3.0), or set REDACTOR_NLP=rules"
            ) from exc
        nlp.max_length = CHUNK_CHARS * 2
        self._nlp = nlp
        self.load_seconds = time.perf_counter() - started
        return nlp

    def process(self, text: str) -> NlpArtifacts:
        """Run tagger and NER over ``text`` in chunks; offsets refer to the whole text."""
        nlp = self._pipeline()
        artifacts = NlpArtifacts()
        chunks = text_chunks(text, CHUNK_CHARS)
        for (offset, _), doc in zip(chunks, nlp.pipe(chunk for _, chunk in chunks)):
            for ent in doc.ents:
                artifacts.entities.append(
                    NlpEntity(ent.label_, offset + ent.start_char, offset + ent.end_char, ent.text)
                )
            for tok in doc:
                if not tok.is_space:
                    artifacts.pos[offset + tok.idx] = tok.pos_
        return artifacts
