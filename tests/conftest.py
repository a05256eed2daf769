"""Shared fixtures: engines (loaded once per module), paths to the shared data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from redactor.core.engine import RedactionEngine
from redactor.core.nlp import RuleOnlyNlpEngine, SpacyNlpEngine

ROOT = Path(__file__).resolve().parent.parent
#: The shared data and tools live next to the checkout (``../shared``) unless SHARED_DIR says otherwise.
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))
DATA = SHARED / "data"
SCORER = SHARED / "tools" / "score_redaction.py"


@pytest.fixture(scope="session")
def engine() -> RedactionEngine:
    """The engine with the optional statistical model: default recognizers, spaCy
    cs_core_news_sm, default map (the product's default is :func:`rules_engine`'s pipeline)."""
    eng = RedactionEngine(nlp=SpacyNlpEngine())
    eng.load()
    return eng


@pytest.fixture(scope="session")
def rules_engine() -> RedactionEngine:
    """The engine without the statistical model (gazetteers and rules only)."""
    eng = RedactionEngine(nlp=RuleOnlyNlpEngine())
    eng.load()
    return eng


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """``../shared/data`` (development contracts, real contracts, identifier vectors)."""
    if not DATA.is_dir():
        pytest.fail(f"shared data not found at {DATA}")
    return DATA
