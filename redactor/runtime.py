"""The Django side's access to the engine: one engine per process, configured from settings."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings

from redactor.core.category_map import CategoryMap
from redactor.core.engine import RedactionEngine
from redactor.core.nlp import RuleOnlyNlpEngine, SpacyNlpEngine


@lru_cache(maxsize=1)
def get_engine() -> RedactionEngine:
    """The process-wide engine; the NLP model loads lazily on first analysis.

    ``REDACTOR_NLP=rules`` runs without the spaCy model (gazetteers and context rules only).
    """
    nlp = RuleOnlyNlpEngine() if settings.REDACTOR_NLP == "rules" else SpacyNlpEngine(settings.REDACTOR_SPACY_MODEL)
    return RedactionEngine(nlp=nlp, category_map=CategoryMap.default(), max_pages=settings.REDACTOR_MAX_PAGES)
