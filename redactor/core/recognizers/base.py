"""Recognizer interface and registry (modelled on Presidio's ``EntityRecognizer``)."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from ..czech import strip_diacritics
from ..model import Finding, Span
from ..nlp import NlpArtifacts


@dataclass
class AnalysisContext:
    """Everything a recognizer may read: the text, the NLP artifacts, earlier findings.

    Recognizers run in registry order and see the findings of those before them in
    ``findings`` (the name recognizer uses addresses and organisations found earlier to avoid
    reading "Palackého" in a street or "Kovář" in a company name as a person).
    """

    text: str
    nlp: NlpArtifacts
    sentences: list[Span] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def folded(self) -> str:
        """``text`` without diacritics, same length and offsets (for OCR output that lost them)."""
        if not hasattr(self, "_folded"):
            folded = strip_diacritics(self.text)
            self._folded = folded if len(folded) == len(self.text) else self.text
        return self._folded

    def window_before(self, offset: int, chars: int = 40) -> str:
        """Up to ``chars`` characters before ``offset``, lower-cased, newlines as spaces."""
        return self.text[max(0, offset - chars) : offset].replace("\n", " ").lower()


class Recognizer(ABC):
    """Finds one family of personal (or explicitly public) data in document text.

    Subclasses set ``name`` and ``categories`` (category-map IDs they can emit) and implement
    :meth:`analyze`. :meth:`load` runs once before the first analysis.
    """

    name: str = "recognizer"
    categories: tuple[int, ...] = ()

    def load(self) -> None:  # noqa: B027 - optional hook, not abstract
        """Prepare resources (compile patterns, read gazetteers). Default: nothing."""

    @abstractmethod
    def analyze(self, context: AnalysisContext) -> list[Finding]:
        """Return the findings in ``context.text``; never modify ``context``."""

    def finding(self, category: int, start: int, end: int, text: str, score: float, evidence: str, **kw) -> Finding:
        """Build a :class:`Finding` stamped with this recognizer's name."""
        return Finding(
            category=category,
            span=Span(start, end),
            text=text[start:end],
            score=score,
            recognizer=self.name,
            evidence=evidence,
            **kw,
        )


def context_score(window: str, cues: re.Pattern, base: float, boosted: float) -> tuple[float, str | None]:
    """``(boosted, cue)`` when ``cues`` matches in ``window``, else ``(base, None)``."""
    matches = list(cues.finditer(window))
    if matches:
        return boosted, matches[-1].group().strip()
    return base, None


class RecognizerRegistry:
    """An ordered collection of recognizers, loaded lazily once."""

    def __init__(self, recognizers: list[Recognizer] | None = None):
        self.recognizers: list[Recognizer] = list(recognizers or [])
        self._loaded = False

    def add(self, recognizer: Recognizer) -> None:
        """Append a recognizer (it runs after the ones already registered)."""
        self.recognizers.append(recognizer)
        self._loaded = False

    def load(self) -> None:
        """Call :meth:`Recognizer.load` on every recognizer once."""
        if not self._loaded:
            for recognizer in self.recognizers:
                recognizer.load()
            self._loaded = True

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        """Run every recognizer in order; each sees the findings of the earlier ones."""
        self.load()
        for recognizer in self.recognizers:
            context.findings.extend(recognizer.analyze(context))
        return context.findings

    @classmethod
    def default(cls, nlp_enabled: bool = True) -> RecognizerRegistry:
        """The product's recognizers in the order they must run."""
        from .addresses import AddressRecognizer
        from .contextual import (
            DataBoxRecognizer,
            DateOfBirthRecognizer,
            DocumentNumberRecognizer,
            EmailRecognizer,
            NetworkRecognizer,
            VehicleRecognizer,
        )
        from .identifiers import (
            BankAccountRecognizer,
            BirthNumberRecognizer,
            DicRecognizer,
            IbanRecognizer,
            IcoRecognizer,
            PaymentCardRecognizer,
            PhoneRecognizer,
        )
        from .organizations import OrganizationRecognizer
        from .persons import PersonRecognizer

        return cls(
            [
                IbanRecognizer(),
                BankAccountRecognizer(),
                BirthNumberRecognizer(),
                DicRecognizer(),
                IcoRecognizer(),
                PaymentCardRecognizer(),
                DocumentNumberRecognizer(),
                DateOfBirthRecognizer(),
                VehicleRecognizer(),
                DataBoxRecognizer(),
                NetworkRecognizer(),
                EmailRecognizer(),
                PhoneRecognizer(),
                OrganizationRecognizer(),
                AddressRecognizer(),
                PersonRecognizer(use_ner=nlp_enabled),
            ]
        )
