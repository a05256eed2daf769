"""The engine's front door: what the apps (web, API, jobs, commands) use of it, re-exported
from the stages that define it. The apps import from here only (an import-linter contract in
pyproject.toml); the engine's own modules and the tests may import the stages directly.

The engine is framework-free and runs in stages, one package each, in pipeline order:

- :mod:`redactor.core.pdf` – rebuild from an allowlist, unpacking limits, active content;
- :mod:`redactor.core.read` – the text layer with a box for every character, OCR, review pictures;
- :mod:`redactor.core.detect` – recognizers, parties, who a value belongs to, the agency's identity;
- :mod:`redactor.core.decide` – the category map, the policy's rules, agency rules, review items;
- :mod:`redactor.core.publish` – burn-in, verification, text exports;
- :mod:`redactor.core.engine` – the pipeline (:class:`RedactionEngine`: ``analyze`` then ``redact``);
- :mod:`redactor.core.registry` – what the registry of contracts reads from an analysis;

over a base of value types (:mod:`~redactor.core.model`: boxes in PDF points, pages from 1),
categories, errors, reasons, text helpers and Czech resources.
"""

from redactor.core import categories
from redactor.core.categories import NAME_CATEGORIES
from redactor.core.czech import NameGazetteer
from redactor.core.decide.category_map import ROLES, SCOPES, TYPES, CategoryMap
from redactor.core.decide.rules import (
    PERSON,
    PHRASE,
    LearnedRule,
    RuleOutcome,
    apply_rules,
    find_occurrences,
    name_tokens,
    person_match,
    phrase_match,
    tokens,
)
from redactor.core.detect.nlp import RuleOnlyNlpEngine, SpacyNlpEngine
from redactor.core.detect.profile import AgencyProfile
from redactor.core.engine import Analysis, RedactionEngine
from redactor.core.errors import (
    ActiveContentError,
    CategoryMapError,
    EncryptedPdfError,
    InvalidPdfError,
    OcrUnavailableError,
    PdfTooLargeError,
    RedactionError,
    VerificationError,
)
from redactor.core.model import Action, Box, ProposedRedaction, Span
from redactor.core.pdf.active_content import refuse_active_content
from redactor.core.pdf.pdf_limits import PdfBombError, PdfLimits, check_pdf_limits
from redactor.core.pdf.pdf_pages import open_pdf, page_size_check
from redactor.core.pdf.rebuild import open_rebuilt
from redactor.core.publish.text_export import MODES, ExportMode, TextExport, export_layer
from redactor.core.publish.verify import count_word, extract_texts, normalize
from redactor.core.read.extraction import extract_text_layer, scan_pages
from redactor.core.read.ocr import OcrPage, StoredOcr, TesseractOcr
from redactor.core.read.review import (
    COVERAGE_ALERT,
    COVERAGE_WARN,
    page_coverage,
    page_words,
    render_page,
    spans_in_boxes,
)
from redactor.core.read.stored_layer import LAYER_FORMAT, StoredLayerError, layer_from_bytes, layer_to_bytes
from redactor.core.reasons import Reason
from redactor.core.registry import isrs
from redactor.core.registry.metadata import (
    MAX_TEXT,
    NOT_PUBLIC,
    ContractMetadata,
    PublishingBody,
    RegistryParty,
    Source,
    drop_redacted_values,
    redacted_names,
    redacted_texts,
    redacted_values_in,
)
from redactor.core.registry.prefill import prefill
from redactor.core.text import plain_text

__all__ = [
    "COVERAGE_ALERT",
    "COVERAGE_WARN",
    "LAYER_FORMAT",
    "MAX_TEXT",
    "MODES",
    "NAME_CATEGORIES",
    "NOT_PUBLIC",
    "PERSON",
    "PHRASE",
    "ROLES",
    "SCOPES",
    "TYPES",
    "Action",
    "ActiveContentError",
    "AgencyProfile",
    "Analysis",
    "Box",
    "CategoryMap",
    "CategoryMapError",
    "ContractMetadata",
    "EncryptedPdfError",
    "ExportMode",
    "InvalidPdfError",
    "LearnedRule",
    "NameGazetteer",
    "OcrPage",
    "OcrUnavailableError",
    "PdfBombError",
    "PdfLimits",
    "PdfTooLargeError",
    "ProposedRedaction",
    "PublishingBody",
    "Reason",
    "RedactionEngine",
    "RedactionError",
    "RegistryParty",
    "RuleOnlyNlpEngine",
    "RuleOutcome",
    "Source",
    "SpacyNlpEngine",
    "Span",
    "StoredLayerError",
    "StoredOcr",
    "TesseractOcr",
    "TextExport",
    "VerificationError",
    "apply_rules",
    "categories",
    "check_pdf_limits",
    "count_word",
    "drop_redacted_values",
    "export_layer",
    "extract_text_layer",
    "extract_texts",
    "find_occurrences",
    "isrs",
    "layer_from_bytes",
    "layer_to_bytes",
    "name_tokens",
    "normalize",
    "open_pdf",
    "open_rebuilt",
    "page_coverage",
    "page_size_check",
    "page_words",
    "person_match",
    "phrase_match",
    "plain_text",
    "prefill",
    "redacted_names",
    "redacted_texts",
    "redacted_values_in",
    "refuse_active_content",
    "render_page",
    "scan_pages",
    "spans_in_boxes",
    "tokens",
]
