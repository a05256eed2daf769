"""REDACTOR_NLP picks the pipeline; the default runs no model under a non-commercial licence."""

from __future__ import annotations

import pytest
from django.conf import settings

from policy.runtime import nlp_engine
from redactor.detect.nlp import RuleOnlyNlpEngine, SpacyNlpEngine


def test_the_default_pipeline_is_rules_only():
    assert settings.REDACTOR_NLP == "rules"
    assert isinstance(nlp_engine(settings.REDACTOR_NLP, settings.REDACTOR_SPACY_MODEL), RuleOnlyNlpEngine)


def test_a_model_is_named_by_the_setting_or_by_its_package():
    assert nlp_engine("spacy", "cs_core_news_sm").model == "cs_core_news_sm"
    chosen = nlp_engine("cs_core_news_sm", "other_model")
    assert isinstance(chosen, SpacyNlpEngine) and chosen.model == "cs_core_news_sm"


def test_a_missing_model_is_named_with_how_to_install_it():
    with pytest.raises(OSError, match=r"requirements-nc\.txt"):
        nlp_engine("xx_no_such_model", "cs_core_news_sm").load()


def test_the_runtime_requirements_install_no_non_commercial_model():
    from tests.conftest import ROOT

    runtime = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    assert "cs_core_news_sm" not in "".join(line.split("#")[0] for line in runtime.splitlines())
    assert "cs_core_news_sm==" in (ROOT / "requirements-nc.txt").read_text(encoding="utf-8")
