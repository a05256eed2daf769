"""The Django side's access to the engine: one engine per process, configured from settings."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings

from redactor.core.category_map import CategoryMap
from redactor.core.engine import RedactionEngine
from redactor.core.nlp import RuleOnlyNlpEngine, SpacyNlpEngine
from redactor.core.ocr import TesseractOcr


@lru_cache(maxsize=1)
def get_engine() -> RedactionEngine:
    """The process-wide engine; the NLP model loads lazily on first analysis.

    ``REDACTOR_NLP=rules`` (the default) runs without a statistical model (gazetteers and context
    rules); ``spacy`` adds ``REDACTOR_SPACY_MODEL``. ``REDACTOR_OCR_PARALLEL`` pages of a scan are
    read at once.
    """
    nlp = SpacyNlpEngine(settings.REDACTOR_SPACY_MODEL) if settings.REDACTOR_NLP == "spacy" else RuleOnlyNlpEngine()
    return RedactionEngine(
        nlp=nlp,
        category_map=CategoryMap.default(),
        max_pages=settings.REDACTOR_MAX_PAGES,
        ocr=TesseractOcr(parallel=settings.REDACTOR_OCR_PARALLEL),
    )
