"""The Django side's access to the engine: one engine per process, configured from settings."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings

from redactor import CategoryMap, RedactionEngine, RuleOnlyNlpEngine, SpacyNlpEngine, TesseractOcr


def nlp_engine(setting: str, spacy_model: str) -> RuleOnlyNlpEngine | SpacyNlpEngine:
    """The NLP pipeline ``REDACTOR_NLP`` names: ``rules`` (the default: gazetteers and context
    rules, no statistical model, nothing under a non-commercial licence), ``spacy`` (the model
    package ``spacy_model``, i.e. ``REDACTOR_SPACY_MODEL``) or the name of a spaCy model package
    itself (``cs_core_news_sm``: CC BY-NC-SA 3.0, installed by ``requirements-nc.txt``). A model
    that is not installed raises ``OSError`` when the engine loads, never a download."""
    if setting == "rules":
        return RuleOnlyNlpEngine()
    return SpacyNlpEngine(spacy_model if setting == "spacy" else setting)


@lru_cache(maxsize=1)
def get_engine() -> RedactionEngine:
    """The process-wide engine (:func:`nlp_engine` of ``REDACTOR_NLP``); a model loads lazily on
    first analysis. ``REDACTOR_OCR_PARALLEL`` pages of a scan are read at once."""
    nlp = nlp_engine(settings.REDACTOR_NLP, settings.REDACTOR_SPACY_MODEL)
    return RedactionEngine(
        nlp=nlp,
        category_map=CategoryMap.default(),
        max_pages=settings.REDACTOR_MAX_PAGES,
        ocr=TesseractOcr(parallel=settings.REDACTOR_OCR_PARALLEL),
    )
