"""Recognizer interface and registry (modelled on Presidio's ``EntityRecognizer``)."""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from redactor import rulebook
from redactor.czech import strip_diacritics
from redactor.detect.nlp import NlpArtifacts
from redactor.model import Finding, FindingAttributes, Span


@dataclass
class AnalysisContext:
    """Everything a recognizer may read: the text, the NLP artifacts, earlier findings.

    ``findings`` holds only the findings of the recognizers named in the reading recognizer's
    :attr:`Recognizer.reads` (the registry sets it before each one runs), so what one recognizer
    takes from another is declared, and the registry checks that it runs earlier.
    """

    text: str
    nlp: NlpArtifacts
    sentences: list[Span] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    #: Where the text was read from pixels by OCR, where a digit may be misread (spans of ``text``).
    from_pixels: list[Span] = field(default_factory=list)

    def read_from_pixels(self, start: int, end: int) -> bool:
        """Whether ``text[start:end]`` lies in what OCR read from pixels (:attr:`from_pixels`)."""
        return any(s.start <= start and end <= s.end for s in self.from_pixels)

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


@functools.cache
def _context_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """Any of a recognizer's context ``words`` (regular expressions), compiled once."""
    return re.compile("(" + "|".join(words) + ")")


class Recognizer(ABC):
    """Finds one family of personal (or explicitly public) data in document text.

    Subclasses set ``name`` and ``categories`` (category-map IDs they can emit) and implement
    :meth:`analyze`. :meth:`load` runs once before the first analysis. ``context`` holds the
    context words (regular-expression fragments, lower case) that raise a candidate's score when
    one stands just before it; the registry sets them from its configuration
    (:mod:`redactor.detect.recognizers.registry`). ``reads`` names the recognizers whose findings
    this one uses (its only dependency on others, see :class:`AnalysisContext`).
    """

    name: str = "recognizer"
    categories: tuple[int, ...] = ()
    reads: tuple[str, ...] = ()
    context: tuple[str, ...] = ()

    def load(self) -> None:  # noqa: B027 - optional hook, not abstract
        """Prepare resources (compile patterns, read gazetteers). Default: nothing."""

    @abstractmethod
    def analyze(self, context: AnalysisContext) -> list[Finding]:
        """Return the findings in ``context.text``; never modify ``context``."""

    def finding(
        self,
        category: int,
        start: int,
        end: int,
        text: str,
        score: float,
        evidence: str,
        *,
        holder: str | None = None,
        attributes: FindingAttributes | None = None,
        rule: str | None = None,
    ) -> Finding:
        """Build a :class:`Finding` of ``text[start:end]`` stamped with this recognizer's name and
        the rule that made it (``rule``, an id of the rule book; by default the recognizer's own
        rule, :func:`redactor.rulebook.made_by`) with the ``evidence`` it saw."""
        return Finding(
            category=category,
            span=Span(start, end),
            text=text[start:end],
            score=score,
            recognizer=self.name,
            evidence=evidence,
            holder=holder,
            attributes=attributes if attributes is not None else {},
            rules=[{"id": rule or rulebook.made_by(self.name), "saw": evidence}],
        )

    def context_word(self, context: AnalysisContext, offset: int, chars: int) -> str | None:
        """The last of this recognizer's context words within ``chars`` characters before
        ``offset`` (lower-cased text, line breaks as spaces), or None."""
        if not self.context:
            return None
        matches = list(_context_pattern(self.context).finditer(context.window_before(offset, chars)))
        return matches[-1].group().strip() if matches else None


@dataclass(frozen=True)
class Validated:
    """What :meth:`PatternRecognizer.validate` confirmed about a candidate: the ``evidence``
    (a sentence for the reviewer's detail view), the span when it differs from the pattern's
    group (character offsets into the text) and the ``holder`` the value itself shows."""

    evidence: str
    start: int | None = None
    end: int | None = None
    holder: str | None = None


class PatternRecognizer(Recognizer):
    """Pattern → ``validate`` → context score → finding, for identifiers with a checksum or a
    fixed format (after Presidio's ``PatternRecognizer`` and its ``validate_result`` hook).

    Subclasses set ``category``, ``pattern`` (its group ``group`` is the value), ``score`` (no
    context word before the value; 0 drops it) and ``context_score`` (a context word within
    ``context_chars`` characters before it), ``folded`` to search the text without diacritics,
    and implement :meth:`validate`.
    """

    category: int
    pattern: re.Pattern[str]
    group: int = 0
    score: float = 0.0
    context_score: float = 0.0
    context_chars: int = 40
    folded: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "category" in cls.__dict__ and "categories" not in cls.__dict__:
            cls.categories = (cls.category,)  # the one category it emits

    @abstractmethod
    def validate(self, match: re.Match[str], context: AnalysisContext) -> Validated | None:
        """The checks a candidate must pass (checksum, register, format); None rejects it."""

    def scored(self, match: re.Match[str], found: Validated, context: AnalysisContext) -> tuple[float, str | None]:
        """``(score, context word or None)`` of an accepted candidate."""
        word = self.context_word(context, match.start(), self.context_chars)
        return (self.context_score if word else self.score), word

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        out = []
        for m in self.pattern.finditer(context.folded if self.folded else context.text):
            found = self.validate(m, context)
            if found is None:
                continue
            score, word = self.scored(m, found, context)
            if score <= 0:
                continue
            start = m.start(self.group) if found.start is None else found.start
            end = m.end(self.group) if found.end is None else found.end
            evidence = found.evidence + (f", cue {word!r}" if word else "")
            out.append(self.finding(self.category, start, end, context.text, score, evidence, holder=found.holder))
        return out


class RecognizerRegistry:
    """An ordered collection of recognizers, loaded lazily once. Build the product's with
    :func:`redactor.detect.recognizers.registry.default_registry`.

    Raises ``ValueError`` when a recognizer is added after one that reads its findings (one
    that is absent is no error: there is nothing of it to read).
    """

    def __init__(self, recognizers: list[Recognizer] | None = None):
        self.recognizers: list[Recognizer] = []
        self._loaded = False
        for recognizer in recognizers or []:
            self.add(recognizer)

    def add(self, recognizer: Recognizer) -> None:
        """Append a recognizer (it runs after the ones already registered)."""
        readers = [r.name for r in self.recognizers if recognizer.name in r.reads]
        if readers:
            raise ValueError(f"recognizer {recognizer.name!r} must run before {readers}, which read its findings")
        self.recognizers.append(recognizer)
        self._loaded = False

    def get(self, name: str) -> Recognizer:
        """The registered recognizer called ``name``; raises ``KeyError``."""
        for recognizer in self.recognizers:
            if recognizer.name == name:
                return recognizer
        raise KeyError(name)

    def load(self) -> None:
        """Call :meth:`Recognizer.load` on every recognizer once."""
        if not self._loaded:
            for recognizer in self.recognizers:
                recognizer.load()
            self._loaded = True

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        """Run every recognizer in order; each sees only the findings of those it ``reads``.
        Returns all findings (also left in ``context.findings``)."""
        self.load()
        found: list[Finding] = []
        for recognizer in self.recognizers:
            context.findings = [f for f in found if f.recognizer in recognizer.reads]
            found.extend(recognizer.analyze(context))
        context.findings = found
        return found
