"""Run one recognizer over a text, as the engine would."""

from __future__ import annotations

from redactor.detect.nlp import NlpArtifacts
from redactor.detect.recognizers.base import AnalysisContext, Recognizer
from redactor.detect.recognizers.registry import default_recognizer
from redactor.model import Finding
from redactor.text import sentence_spans


def run(recognizer: Recognizer | str, text: str, findings: list[Finding] | None = None) -> list[Finding]:
    """Findings of ``recognizer`` (an instance, or the name of one as the default registry
    configures it, context words included) in ``text`` (earlier findings may be passed in)."""
    if isinstance(recognizer, str):
        recognizer = default_recognizer(recognizer)
    recognizer.load()
    context = AnalysisContext(text, NlpArtifacts(), sentence_spans(text), list(findings or []))
    return recognizer.analyze(context)


def texts(findings: list[Finding], category: int | None = None) -> list[str]:
    """The matched strings, optionally of one category."""
    return [f.text for f in findings if category is None or f.category == category]
