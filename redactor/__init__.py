"""The engine's front door: what the apps (web, API, jobs, commands) use of it. The apps import
from here only (an import-linter contract in pyproject.toml, and a test that every name they
import is listed in ``__all__``); the engine's own modules and the tests may import the stages
directly.

- the pipeline: :class:`RedactionEngine` (``analyze`` then ``redact``), its :class:`Analysis`, and
  the :class:`StoredDocument` a caller keeps of an upload (the rebuilt PDF and its analysed
  :class:`TextLayer`) and reads again for review and publishing; :func:`check_upload` for what
  may come in, with :class:`PdfLimits`; the pipeline's parts a deployment chooses
  (:class:`RuleOnlyNlpEngine`, :class:`SpacyNlpEngine`, :class:`TesseractOcr`);
- value types: :class:`Box` (PDF points, pages from 1), :class:`Span`, :class:`Action`,
  :class:`ProposedRedaction`, :class:`Reason`;
- the policy: :class:`CategoryMap`, the :mod:`categories` table, the agency's own identity
  (:class:`AgencyProfile`) and the :mod:`rules` an agency's reviewers teach;
- what review and publishing read besides: the watchdog's and the coverage figures
  (:mod:`review`), the personal data a reader still finds (:func:`review_items`), text exports
  (:mod:`text_export`), the registry's metadata (:mod:`metadata`), text as verification reads it
  (:func:`normalize`, :func:`count_word`, :func:`extract_texts`) and :func:`plain_text`;
- :mod:`errors`: every error the engine raises on purpose.

The engine is framework-free and runs in stages, one package each, in pipeline order:
:mod:`redactor.pdf` (rebuild from an allowlist, unpacking limits, active content),
:mod:`redactor.read` (the text layer with a box for every character, OCR, the stored document),
:mod:`redactor.detect` (recognizers, parties, who a value belongs to), :mod:`redactor.decide` (the
category map, the policy's rules, learned rules, review items), :mod:`redactor.publish` (burn-in,
verification, text exports), :mod:`redactor.engine` (the pipeline) and :mod:`redactor.metadata`
(what the registry of contracts reads from an analysis), over a base of value types, categories,
errors, reasons, text helpers and Czech resources.
"""

from redactor import categories, errors, metadata
from redactor.decide import rules
from redactor.decide.category_map import CategoryMap
from redactor.detect.nlp import RuleOnlyNlpEngine, SpacyNlpEngine
from redactor.detect.profile import AgencyProfile
from redactor.engine import Analysis, RedactionEngine
from redactor.model import Action, Box, ProposedRedaction, Span
from redactor.pdf.intake import check_upload
from redactor.pdf.pdf_limits import PdfLimits
from redactor.progress import JobProgress, ProgressReport, Step
from redactor.publish import text_export
from redactor.publish.reader_check import review_items
from redactor.publish.verify import extract_texts
from redactor.read import review
from redactor.read.document import StoredDocument
from redactor.read.extraction import TextLayer
from redactor.read.ocr import TesseractOcr
from redactor.reasons import Reason
from redactor.text import count_word, normalize, plain_text

__all__ = [
    "Action",
    "AgencyProfile",
    "Analysis",
    "Box",
    "CategoryMap",
    "JobProgress",
    "PdfLimits",
    "ProgressReport",
    "ProposedRedaction",
    "Reason",
    "RedactionEngine",
    "RuleOnlyNlpEngine",
    "SpacyNlpEngine",
    "Span",
    "Step",
    "StoredDocument",
    "TesseractOcr",
    "TextLayer",
    "categories",
    "check_upload",
    "count_word",
    "errors",
    "extract_texts",
    "metadata",
    "normalize",
    "plain_text",
    "review",
    "review_items",
    "rules",
    "text_export",
]
