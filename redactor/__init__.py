"""The engine's front door: what the apps (web, API, jobs, commands) use of it, re-exported
from the stages that define it. The apps import from here only (an import-linter contract in
pyproject.toml); the engine's own modules and the tests may import the stages directly.

The engine is framework-free and runs in stages, one package each, in pipeline order:

- :mod:`redactor.pdf` – rebuild from an allowlist, unpacking limits, active content;
- :mod:`redactor.read` – the text layer with a box for every character, OCR, review pictures;
- :mod:`redactor.detect` – recognizers, parties, who a value belongs to, the agency's identity;
- :mod:`redactor.decide` – the category map, the policy's rules, agency rules, review items;
- :mod:`redactor.publish` – burn-in, verification, text exports;
- :mod:`redactor.engine` – the pipeline (:class:`RedactionEngine`: ``analyze`` then ``redact``);
- :mod:`redactor.registry` – what the registry of contracts reads from an analysis;

over a base of value types (:mod:`~redactor.model`: boxes in PDF points, pages from 1),
categories, errors, reasons, text helpers and Czech resources.
"""

from redactor import categories
from redactor.categories import NAME_CATEGORIES
from redactor.czech import NameGazetteer
from redactor.decide.category_map import ROLES, SCOPES, TYPES, CategoryMap
from redactor.decide.rules import (
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
from redactor.decide.signatures import SIGNATURE_NAME
from redactor.detect.nlp import RuleOnlyNlpEngine, SpacyNlpEngine
from redactor.detect.profile import AgencyProfile
from redactor.engine import Analysis, RedactionEngine
from redactor.errors import (
    ActiveContentError,
    CategoryMapError,
    EncryptedPdfError,
    InvalidPdfError,
    OcrUnavailableError,
    PdfTooLargeError,
    RedactionError,
    VerificationError,
)
from redactor.model import Action, Box, ProposedRedaction, Span
from redactor.pdf.active_content import refuse_active_content
from redactor.pdf.pdf_limits import PdfBombError, PdfLimits, check_pdf_limits
from redactor.pdf.pdf_pages import open_pdf, page_size_check
from redactor.pdf.rebuild import open_rebuilt
from redactor.publish.reader_check import ReaderFinding, review_items
from redactor.publish.text_export import MODES, ExportMode, TextExport, export_layer
from redactor.publish.verify import count_word, extract_texts, normalize
from redactor.read.document import StoredDocument, document_of
from redactor.read.extraction import TextLayer, extract_text_layer
from redactor.read.ocr import OcrPage, StoredOcr, TesseractOcr
from redactor.read.review import (
    COVERAGE_ALERT,
    COVERAGE_WARN,
    REPEAT_SIMILARITY,
    WATCHDOG_HEAVY,
    WATCHDOG_REDACTED,
    WatchdogPage,
    black_areas,
    page_coverage,
    page_signatures,
    render_page,
    repeated_pages,
    signature_similarity,
    spans_in_boxes,
    watchdog_pages,
    watchdog_readable,
)
from redactor.read.stored_layer import LAYER_FORMAT, StoredLayerError, layer_from_bytes, layer_to_bytes, read_stored
from redactor.reasons import Reason
from redactor.registry import isrs
from redactor.registry.metadata import (
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
from redactor.registry.prefill import prefill
from redactor.text import plain_text

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
    "REPEAT_SIMILARITY",
    "ROLES",
    "SCOPES",
    "SIGNATURE_NAME",
    "TYPES",
    "WATCHDOG_HEAVY",
    "WATCHDOG_REDACTED",
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
    "ReaderFinding",
    "Reason",
    "RedactionEngine",
    "RedactionError",
    "RegistryParty",
    "RuleOnlyNlpEngine",
    "RuleOutcome",
    "Source",
    "SpacyNlpEngine",
    "Span",
    "StoredDocument",
    "StoredLayerError",
    "StoredOcr",
    "TesseractOcr",
    "TextExport",
    "TextLayer",
    "VerificationError",
    "WatchdogPage",
    "apply_rules",
    "black_areas",
    "categories",
    "check_pdf_limits",
    "count_word",
    "document_of",
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
    "page_signatures",
    "page_size_check",
    "person_match",
    "phrase_match",
    "plain_text",
    "prefill",
    "read_stored",
    "redacted_names",
    "redacted_texts",
    "redacted_values_in",
    "refuse_active_content",
    "render_page",
    "repeated_pages",
    "review_items",
    "signature_similarity",
    "spans_in_boxes",
    "tokens",
    "watchdog_pages",
    "watchdog_readable",
]
