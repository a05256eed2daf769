"""The redaction engine: analyse a PDF into proposals, then burn in and verify accepted ones.

Usage::

    engine = RedactionEngine()                     # default recognizers, rules only, default map
    analysis = engine.analyze(pdf_bytes)            # proposals with action redact/keep/review
    result = engine.redact(analysis.document, analysis.to_redact())   # burned in and verified

``analysis.document`` (:class:`~redactor.read.document.StoredDocument`) is the rebuilt PDF with
its analysed text layer: what a caller stores, and what review and redaction read afterwards
instead of the upload.

Like Presidio's ``AnalyzerEngine``, the engine receives its recognizer registry, NLP engine
and category map in the constructor; none of them is a global.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

import pymupdf

from redactor import categories, rulebook
from redactor.decide.category_map import CategoryMap
from redactor.decide.decision_rules import Assessment
from redactor.decide.decisions import decide, resolve_overlaps
from redactor.decide.repeats import align_addresses, repeat_values
from redactor.decide.signatures import signature_proposals
from redactor.decide.suspicious import (
    DOUBT_CONFIDENCE,
    SUSPICIOUS,
    covered_decisions,
    ocr_doubts,
    suspicious_spans,
    unsure_words,
)
from redactor.detect.linking import Person, PersonDict
from redactor.detect.nlp import NlpEngine, RuleOnlyNlpEngine
from redactor.detect.parties import find_parties, organisations_named_again
from redactor.detect.profile import AgencyProfile, mark_agency_names
from redactor.detect.recognizers.base import AnalysisContext, RecognizerRegistry
from redactor.detect.recognizers.registry import default_registry
from redactor.errors import VerificationError
from redactor.model import (
    Action,
    Box,
    PageDict,
    PageInfo,
    Party,
    PartyDict,
    ProposalDict,
    ProposedRedaction,
    Span,
    VerificationResult,
)
from redactor.pdf.ink import widen_to_ink
from redactor.pdf.rebuild import open_rebuilt, rebuilt
from redactor.pdf.rebuilt import Rebuilt
from redactor.progress import JobProgress, Step
from redactor.publish.burn import burn_in, label_size
from redactor.publish.legibility import boxes_for
from redactor.publish.picture_check import legibility_reader, legible_in_pictures, legible_problem
from redactor.publish.reader_check import PAGE_DPI, ReaderFinding, reader_check
from redactor.publish.text_export import published_text
from redactor.publish.text_writing import WrittenText, publish_as_pictures
from redactor.publish.verify import verify
from redactor.read.columns import ColumnCells
from redactor.read.covered import earlier_boxes
from redactor.read.document import StoredDocument
from redactor.read.extraction import TextLayer, extract_text_layer, scan_ink
from redactor.read.looks import PageLook
from redactor.read.ocr import SCAN_MIN_IMAGE_COVERAGE, OcrPage, OcrWord, TesseractOcr, layers_off
from redactor.read.ocr.stored import ReadAgain
from redactor.text import blank_spans, sentence_spans

#: Default upper bound on pages per document (a registry contract rarely exceeds 300 pages).
MAX_PAGES = 2000
#: Times values still legible in a page's picture are covered before verification fails.
COVER_ROUNDS = 2


class AnalysisDict(TypedDict):
    """:meth:`Analysis.to_dict`'s shape."""

    category_map: str
    pages: list[PageDict]
    pages_needing_ocr: list[int]
    parties: list[PartyDict]
    persons: list[PersonDict]
    proposals: list[ProposalDict]
    removed: dict[str, int]
    covered: list[list[float]]
    timings: dict[str, float]


@dataclass
class Analysis:
    """Everything the engine found in one PDF."""

    pages: list[PageInfo]
    text_layer: TextLayer
    parties: list[Party]
    persons: dict[str, Person]
    proposals: list[ProposedRedaction]
    category_map: str
    timings: dict[str, float] = field(default_factory=dict)
    #: What the allowlist rebuild removed before analysis, by kind (:class:`~redactor.pdf.rebuild.Rebuilt`).
    removed: dict[str, int] = field(default_factory=dict)
    #: Black rectangles and white-outs already in the input over live text
    #: (:func:`~redactor.read.covered.earlier_boxes`):
    #: an earlier redaction that left the text readable; the text under them is proposed for redaction.
    covered: list[Box] = field(default_factory=list)
    #: The rebuilt PDF with :attr:`text_layer` (:meth:`RedactionEngine.analyze`; None from
    #: :meth:`RedactionEngine.decide_layer`): what is stored and redacted.
    document: StoredDocument | None = None

    @property
    def pages_needing_ocr(self) -> list[int]:
        """Page numbers (from 1) without a usable text layer: nothing on them was analysed."""
        return [p.number for p in self.pages if p.needs_ocr]

    def to_redact(self) -> list[ProposedRedaction]:
        """The proposals whose action is redact (what the CLI accepts without review)."""
        return [p for p in self.proposals if p.action == Action.REDACT]

    def to_dict(self) -> AnalysisDict:
        """JSON-ready summary: pages, parties, persons and proposals."""
        return {
            "category_map": self.category_map,
            "pages": [p.to_dict() for p in self.pages],
            "pages_needing_ocr": self.pages_needing_ocr,
            "parties": [p.to_dict() for p in self.parties],
            "persons": [p.to_dict() for p in self.persons.values()],
            "proposals": [p.to_dict() for p in self.proposals],
            "removed": dict(self.removed),
            "covered": [[b.page, *b.as_list()] for b in self.covered],
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }


@dataclass
class RedactionResult:
    """A burned-in PDF with its verification (``verification.ok`` is True)."""

    pdf: bytes
    verification: VerificationResult
    boxes: list[Box]
    #: ``{page number: problems}``: pages published as pictures with the analysed words as their
    #: text layer, because the first verification could not explain their text (see :meth:`RedactionEngine.redact`)
    pictured: dict[int, list[str]] = field(default_factory=dict)
    #: Boxes (points) added over redacted values still legible on a page's picture after the
    #: first burn-in (:meth:`RedactionEngine.redact`); included in :attr:`boxes`.
    covered: list[Box] = field(default_factory=list)
    #: The published text beside the PDF (UTF-8 plain text, pages separated by form feeds,
    #: :func:`~redactor.publish.text_export.published_text`), verified like the PDF's text; None
    #: when ``redact`` was given no text layer.
    text: str | None = None
    #: Personal data a reader can still read in the published pages that the analysis did not
    #: decide (:func:`~redactor.publish.reader_check.reader_check`): when not empty, the result
    #: must not be published as it is; each is a review item with a box proposed on it.
    findings: list[ReaderFinding] = field(default_factory=list)
    #: :attr:`pdf` as verification opened it (MuPDF), for the readers after it within
    #: :meth:`RedactionEngine.redact`, which closes it; None outside.
    document: pymupdf.Document | None = field(default=None, repr=False, compare=False)

    def published(self) -> bytes | pymupdf.Document:
        """What the readers after verification read: :attr:`document` while open (a document of
        no pages is falsy, hence no ``or``), else :attr:`pdf`."""
        return self.document if self.document is not None else self.pdf

    def close(self) -> None:
        """Close :attr:`document`, when open."""
        if self.document is not None:
            self.document.close()
            self.document = None


class RedactionEngine:
    """Finds personal data, decides with a category map, burns in and verifies.

    ``registry`` defaults to :func:`~redactor.detect.recognizers.registry.default_registry`, ``nlp`` to
    :class:`~redactor.detect.nlp.RuleOnlyNlpEngine` (no statistical model; pass a
    :class:`~redactor.detect.nlp.SpacyNlpEngine` for ``cs_core_news_sm``), ``category_map`` to the
    platform default map, ``ocr`` to Tesseract with the Czech model (``False``: no OCR; scanned
    pages are then only reported). Models load lazily on first use (:meth:`load` forces it).
    """

    def __init__(
        self,
        registry: RecognizerRegistry | None = None,
        nlp: NlpEngine | None = None,
        category_map: CategoryMap | None = None,
        max_pages: int = MAX_PAGES,
        ocr: TesseractOcr | bool | None = True,
    ):
        self.nlp = nlp if nlp is not None else RuleOnlyNlpEngine()
        # True: Tesseract when installed (scanned pages are reported as needing OCR otherwise)
        self.ocr = TesseractOcr() if ocr is True else (ocr or None)
        self.registry = registry or default_registry(nlp_enabled=not isinstance(self.nlp, RuleOnlyNlpEngine))
        self.category_map = category_map or CategoryMap.default()
        self.max_pages = max_pages
        self.loaded = False

    def load(self) -> float:
        """Load the NLP model and recognizer resources (once; ``loaded`` is then True); returns the
        seconds it took."""
        started = time.perf_counter()
        self.nlp.load()
        self.registry.load()
        self.loaded = True
        return time.perf_counter() - started

    # -- analysis ---------------------------------------------------------------------------
    def analyze(
        self,
        pdf: bytes,
        category_map: CategoryMap | None = None,
        progress: JobProgress | None = None,
        profile: AgencyProfile | None = None,
    ) -> Analysis:
        """Extract, recognise and decide. Raises ``InvalidPdfError`` (and subclasses) for
        input that cannot be processed; pages without text are reported, not refused.
        ``profile`` is the publishing agency's own identity (:mod:`redactor.detect.profile`): its
        names make a public-body party, its own values and officials are kept.
        ``progress`` follows the job's steps (:mod:`redactor.progress`): the upload prepared,
        each page read, another tool's layer checked and the pages found off read again, the
        text decided on, each scanned page searched for signatures.
        Another tool's OCR layer kept on a scanned page is checked where a proposal would be
        redacted (:func:`~redactor.read.ocr.layers_off`): a page whose layer is off the pixels
        there is read by OCR instead and the document analysed again."""
        cmap = category_map or self.category_map
        tracker = progress or JobProgress()
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        tracker.start(Step.PREPARING, 1)
        doc, prepared = open_rebuilt(pdf, max_pages=self.max_pages)  # refuses active content too
        timings["rebuild"] = time.perf_counter() - t0
        tracker.pages_known(doc.page_count)
        distrust: set[int] = set()
        earlier: dict[int, OcrPage] = {}  # what the first extraction read by OCR
        try:
            covered: list[Box] | None = None
            whited: list[Box] = []
            while True:
                t1 = time.perf_counter()
                # a second pass reads only the distrusted pages again; the rest replay the first
                ocr = ReadAgain(self.ocr, earlier, distrust) if distrust and self.ocr is not None else self.ocr
                tracker.start(Step.REREADING if distrust else Step.READING)
                layer = extract_text_layer(
                    doc,
                    prepared.pdf,
                    _reading_progress(tracker, distrust),
                    ocr=ocr,
                    regions=prepared.regions,
                    distrust=distrust,
                    images=prepared.images,
                    logs=prepared.logs,
                )
                earlier = layer.ocr_pages
                if covered is None:  # the black boxes and white-outs already in the file, read once
                    covered, whited = earlier_boxes(doc, layer)
                timings["extract"] = timings.get("extract", 0.0) + time.perf_counter() - t1
                kept = [] if distrust or self.ocr is None else [p for p in layer.pages if p.scan_layer]
                if not distrust:  # the first pass tells what the steps after it will be
                    tracker.plan(Step.CHECKING, len(kept))
                    tracker.plan(Step.SIGNATURES, sum(p.image_coverage >= SCAN_MIN_IMAGE_COVERAGE for p in layer.pages))
                tracker.start(Step.DECIDING, len(layer.text) / 1000)
                analysis = self._decide(layer, cmap, timings, profile, covered, whited)
                # the boxes of a kept layer must lie on the pixels of what they redact: a layer a
                # line off there is replaced by OCR (once), and the page analysed again
                if kept:
                    tracker.start(Step.CHECKING)
                off = layers_off(self.ocr, doc, kept, analysis[3]) if kept and self.ocr is not None else set()
                if not off:
                    break
                distrust = off
                tracker.plan(Step.REREADING, len(distrust))
            t2 = time.perf_counter()
            layer.ink_marks = scan_ink(doc, layer, tracker.pages(Step.SIGNATURES))
            timings["ink"] = time.perf_counter() - t2
            if layer.ink_marks:  # signatures are decided with the text's parties, persons and values
                proposals = analysis[3]
                proposals += signature_proposals(layer, analysis[0], analysis[1], proposals, cmap, profile)
        finally:
            doc.close()
        tracker.finish()
        for page in layer.pages:
            page.pictured = page.number in prepared.pictured
        parties, persons, _decisions, proposals = analysis
        return Analysis(
            layer.pages,
            layer,
            parties,
            persons,
            proposals,
            f"{cmap.name} v{cmap.version}",
            timings,
            prepared.removed,
            (covered or []) + whited,
            StoredDocument(prepared, layer, upload=pdf),
        )

    def decide_layer(
        self, layer: TextLayer, category_map: CategoryMap | None = None, profile: AgencyProfile | None = None
    ) -> Analysis:
        """Recognise and decide on a text layer already extracted (an earlier :meth:`analyze`'s
        ``text_layer``, or one reopened from storage, :func:`redactor.read.stored_layer`), under
        ``category_map``: no rebuild, extraction or OCR, so deciding a stored scan under another
        map costs what deciding a born-digital page costs. The result's proposals are those
        :meth:`analyze` would give for the same layer, map and ``profile``."""
        cmap = category_map or self.category_map
        timings: dict[str, float] = {}
        parties, persons, _decisions, proposals = self._decide(layer, cmap, timings, profile)
        return Analysis(layer.pages, layer, parties, persons, proposals, f"{cmap.name} v{cmap.version}", timings)

    def _decide(
        self,
        layer: TextLayer,
        cmap: CategoryMap,
        timings: dict[str, float],
        profile: AgencyProfile | None = None,
        covered: list[Box] | None = None,
        whited: list[Box] | None = None,
    ) -> tuple[list[Party], dict[str, Person], list[Assessment], list[ProposedRedaction]]:
        """Recognise and decide on ``layer``'s text: ``(parties, persons, decisions, proposals)``;
        the text under ``covered`` (black already in the input) and ``whited`` (white-outs) is
        redacted."""
        t1 = time.perf_counter()
        text = layer.text
        sentences = sentence_spans(text)
        context = AnalysisContext(text, self.nlp.process(text), sentences, from_pixels=layer.pixel_spans())
        timings["nlp"] = timings.get("nlp", 0.0) + time.perf_counter() - t1
        t2 = time.perf_counter()
        findings = mark_agency_names(text, resolve_overlaps(self.registry.analyze(context)), profile)
        findings = organisations_named_again(findings)
        parties, references = find_parties(text, findings)
        cells = ColumnCells(layer)
        decisions, persons = decide(text, sentences, findings, parties, references, cmap, profile, cells.below)
        decisions += repeat_values(text, decisions)
        align_addresses(decisions)
        decisions += suspicious_spans(text, findings, parties, context.nlp, decisions)
        decisions += ocr_doubts(text, unsure_words(layer, DOUBT_CONFIDENCE), decisions)
        decisions += covered_decisions(layer, covered or [], decisions)
        decisions += covered_decisions(layer, whited or [], decisions, white=True)
        proposals = self._proposals(layer, decisions, cmap)
        proposals += signature_proposals(layer, parties, persons, proposals, cmap, profile)
        timings["decide"] = timings.get("decide", 0.0) + time.perf_counter() - t2
        return parties, persons, decisions, proposals

    @staticmethod
    def _proposals(layer: TextLayer, decisions: list[Assessment], cmap: CategoryMap) -> list[ProposedRedaction]:
        proposals: list[ProposedRedaction] = []
        for d in sorted(decisions, key=lambda d: d.finding.span.start):
            f = d.finding
            boxes = layer.span_boxes(f.span)
            if not boxes:
                continue
            rule = cmap.rule(d.category)
            cluster = d.cluster or f"value:{re.sub(r'[^0-9A-Za-z@.]', '', f.text).lower()}"
            proposals.append(
                ProposedRedaction(
                    id=len(proposals) + 1,
                    page=boxes[0].page,
                    boxes=boxes,
                    text=f.text.replace("\n", " "),
                    category=d.category,
                    category_name=rule.name_en if rule else _unmapped_name(d.category),
                    category_type=rule.type if rule else ("suspicious" if d.category == SUSPICIOUS else "unknown"),
                    action=d.action,
                    score=round(f.score, 3),
                    reason=d.reason,
                    recognizer=f.recognizer,
                    evidence=f.evidence,
                    span=f.span,
                    cluster=cluster,
                    rules=[
                        *(f.rules or [{"id": rulebook.made_by(f.recognizer), "saw": f.evidence}]),
                        rulebook.decided(d.reason.code),
                    ],
                )
            )
        return proposals

    # -- redaction --------------------------------------------------------------------------
    def redact(
        self,
        document: StoredDocument | bytes,
        proposals: list[ProposedRedaction],
        text_layer: TextLayer | None = None,
        *,
        others: Sequence[ProposedRedaction] = (),
        category_map: CategoryMap | None = None,
    ) -> RedactionResult:
        """Burn the boxes of ``proposals`` into ``document``, verify the result, judge its
        pictures and check it as a reader sees it.

        ``document`` is the stored document the proposals came from (:attr:`Analysis.document`,
        or one read back from storage): burn-in works on its rebuilt PDF and text layer, and
        verification compares the result with its upload's looks; the upload is not read again.
        An upload's bytes (with the ``text_layer`` analysed from it, or none) are rebuilt first.

        After :meth:`burn_and_verify`, the pictures of the pages whose text OCR read (scans,
        pictures on text pages, pages published as pictures) are read again, independently, where
        a redacted value can be (:func:`~redactor.publish.picture_check.legible_in_pictures`): a
        redacted value still legible there (the analysis misread it, or a box left part of a word)
        is covered by a box over the words that read it and the document is burned and verified
        again (``RedactionResult.covered``); a value legible after that fails verification, naming
        the page. Raises :class:`VerificationError` as :meth:`burn_and_verify` does.

        Then the reader's check (:func:`~redactor.publish.reader_check.reader_check`) reads every
        published page as a reader sees it and looks for personal data that the analysis did not
        decide: ``others`` are the proposals kept (by the analysis or a reviewer) or left for
        review, ``category_map`` (default: the engine's) the categories not redacted at
        all. What it finds is in ``RedactionResult.findings``: nothing of it was decided, so the
        caller must not publish the result as it is (the web app sends the contract back to
        review, the command line lists review items).
        """
        source = self._source(document, text_layer)
        # the published document verification opened is read by the readers after it
        results = [self._burn_and_verify(source, proposals, keep_open=True)]
        try:
            result = results[0]
            reader = legibility_reader(self.ocr)
            if source.layer is None or reader is None:
                result.verification.checks["legible_in_pictures"] = "not read: no OCR engine"
            else:
                result = self._cover_legible(source, proposals, source.layer, reader, results)
            self._check_as_reader(result, proposals, others, category_map or self.category_map, reader)
        finally:
            for done in results:
                done.close()
        return result

    def _source(self, document: StoredDocument | bytes, text_layer: TextLayer | None) -> _Source:
        """What burn-in and verification work on: a stored document's parts, or an upload's
        rebuild (raises as :func:`~redactor.pdf.rebuild.rebuilt`)."""
        if isinstance(document, StoredDocument):
            return _Source(document.rebuilt, document.looks(), text_layer if text_layer is not None else document.layer)
        prepared = rebuilt(document, max_pages=self.max_pages)
        # a clerk's own redaction marks, applied by the rebuild, change the look on purpose
        looks = prepared.pdf if prepared.removed.get("redaction marks applied") else document
        return _Source(prepared, looks, text_layer)

    def _cover_legible(
        self,
        source: _Source,
        proposals: list[ProposedRedaction],
        text_layer: TextLayer,
        reader: TesseractOcr,
        results: list[RedactionResult],
    ) -> RedactionResult:
        """:meth:`redact`'s rounds of covering redacted values still legible in a page's picture,
        from the last of ``results``, to which each round's result is added; returns the final
        result. Raises :class:`VerificationError` when a value is still legible after
        :data:`COVER_ROUNDS`."""
        covered: list[Box] = []
        result = results[-1]
        for attempt in range(COVER_ROUNDS + 1):
            found, checked = legible_in_pictures(
                result.published(), result.boxes, proposals, text_layer, reader, list(result.pictured)
            )
            checked["covered"] = len(covered)
            result.verification.checks["legible_in_pictures"] = checked
            if not found:
                return result
            if attempt == COVER_ROUNDS:
                break
            covered += boxes_for(found)  # a box may reveal a line of the same value below it: one more round
            result.close()
            result = self._burn_and_verify(source, proposals, extra=covered, keep_open=True)
            results.append(result)
            result.covered = covered
        problems = [legible_problem(f, proposals) for f in found]
        result.verification.problems += problems
        result.verification.ok = False
        raise VerificationError("verification failed: " + "; ".join(problems[:5]), result.verification)

    def _check_as_reader(
        self,
        result: RedactionResult,
        proposals: list[ProposedRedaction],
        others: Sequence[ProposedRedaction],
        category_map: CategoryMap,
        band_reader: TesseractOcr | None,
    ) -> None:
        """Run the reader's check on ``result`` and keep its findings and figures there."""
        page_reader = None
        if band_reader is not None and isinstance(self.ocr, TesseractOcr):
            page_reader = self.ocr.reading(dpi=PAGE_DPI, psm=3, parallel=self.ocr.parallel)
        checked = reader_check(
            result.published(),
            boxes=result.boxes,
            redacted=proposals,
            others=others,
            category_map=category_map,
            ocr=page_reader,
            band_reader=band_reader,
        )
        result.findings = checked.findings
        result.verification.checks["reader_check"] = checked.checked

    def burn_and_verify(
        self,
        document: StoredDocument | bytes,
        proposals: list[ProposedRedaction],
        text_layer: TextLayer | None = None,
        extra: list[Box] | None = None,
    ) -> RedactionResult:
        """Burn the boxes of ``proposals`` (and ``extra`` boxes, points) into ``document`` (a
        stored document or an upload's bytes, as :meth:`redact` takes them) and verify the result.

        On pages read by OCR each box first grows to the whole word's ink
        (:func:`~redactor.pdf.ink.widen_to_ink`): a box from a split OCR word never leaves the
        last letters of a surname legible beside it.

        ``text_layer`` (the one the proposals came from) lets verification allow strings that
        legitimately remain elsewhere in the text and check that every word outside the
        redactions is still read. A page whose published text an extractor reads other than it
        was analysed (a stray glyph no other reader sees, kept words it no longer reads as words)
        is published the way a scan is: its picture, the boxes burned into the pixels, and the
        analysed words outside the boxes as its invisible text layer
        (:func:`~redactor.publish.text_writing.publish_as_pictures`); ``RedactionResult.pictured`` names
        those pages and why, and the whole result is verified again. Only when those are the
        first verification's only problems: a leak is never turned into a picture. Raises
        :class:`VerificationError` when the output still exposes a redacted string or fails
        the second verification; the input bytes are never modified.
        """
        return self._burn_and_verify(self._source(document, text_layer), proposals, extra)

    def _burn_and_verify(
        self,
        given: _Source,
        proposals: list[ProposedRedaction],
        extra: list[Box] | None = None,
        *,
        keep_open: bool = False,
    ) -> RedactionResult:
        """:meth:`burn_and_verify` of a resolved source; with ``keep_open``, the result keeps the
        published document as verification opened it (:attr:`RedactionResult.document`, the
        caller closes it)."""
        boxes = [b for p in proposals for b in p.boxes] + list(extra or ())
        texts = sorted({p.text for p in proposals})
        prepared, text_layer = given.prepared, given.layer
        source = prepared.pdf
        spans = [p.span for p in proposals if p.span.end > p.span.start]
        if text_layer is not None:  # a box from OCR words never leaves part of a word legible
            boxes = widen_to_ink(source, boxes, [p.number for p in text_layer.pages if p.ocr])
        pages = text_layer.written_pages() if text_layer is not None else {}
        written, covered = _written(text_layer, pages, spans, boxes) if text_layer is not None else (None, [])
        labels = [(box, p.label) for p in proposals if p.label for box in p.boxes]
        output = burn_in(
            source,
            boxes,
            texts,
            written=written,
            unread_layers=text_layer.unread_layers if text_layer is not None else None,
            labels=labels,
            known_images=prepared.images,
        )
        # the pixel check compares with the upload itself, so damage done by the rebuild is caught too
        looks = given.looks

        def published(covered: list[Span]) -> str | None:
            return published_text(text_layer, spans, boxes, covered) if text_layer is not None else None

        opened: list[pymupdf.Document] = []  # the output verification read last, open

        def check(
            output: bytes,
            covered: list[Span],
            written: dict[int, WrittenText] | None,
            companion: str | None,
            pictures: Iterable[int] = (),
        ) -> VerificationResult:
            residual = analysed = None
            if text_layer is not None:
                residual = blank_spans(text_layer.text, spans + covered)
                analysed = {page.number: residual[page.start : page.end] for page in text_layer.pages}
            _close(opened)
            try:
                opened.append(pymupdf.open(stream=output, filetype="pdf"))
            except Exception:  # an output MuPDF cannot read: verification reports it
                pass
            return verify(
                output,
                texts,
                boxes=boxes,
                residual_text=residual,
                analysed_pages=analysed,
                source=looks,
                written_pages=set(written or ()),
                layer_source=source,
                upside_down={n for n, text in (written or {}).items() if text.turn == 180},
                pictures=pictures,
                companion_text=companion,
                document=opened[0] if opened else None,
            )

        pictured: dict[int, list[str]] = {}
        companion = published(covered)

        def as_pictures(pages: dict[int, list[str]]) -> VerificationResult:
            """Publish ``pages`` (number -> why) as pictures with the analysed words, verify again."""
            nonlocal output, written, covered, companion
            assert text_layer is not None  # only the pages of an analysed text layer go as pictures
            pictured.update(pages)
            redrawn, hidden = _written(text_layer, dict.fromkeys(pages), spans, boxes)
            output = publish_as_pictures(output, redrawn, boxes)
            written = {**(written or {}), **redrawn}
            covered = [c for c in covered if text_layer.page_of(c.start) not in pages] + hidden
            companion = published(covered)
            checked = check(output, covered, written, companion, pictured)
            checked.checks["pages_as_pictures"] = {str(n): problems for n, problems in pictured.items()}
            return checked

        try:
            # a page whose visible text lost its diacritics goes as the picture its analysis read
            misread = {p.number: [MISREAD_TEXT] for p in text_layer.pages if p.text_misread} if text_layer else {}
            result = as_pictures(misread) if misread else check(output, covered, written, companion)
            more = {n: problems for n, problems in result.pages.items() if n not in pictured}
            if not result.ok and more and text_layer is not None and _only_page_text(result):
                result = as_pictures(more)
            if labels:  # printed as pictures: the glyph and text checks above saw no code as text
                printed = sum(label_size(box, code) is not None for box, code in labels)
                result.checks["labels"] = {"printed": printed, "too_small": len(labels) - printed}
            if not result.ok:
                raise VerificationError("verification failed: " + "; ".join(result.problems[:5]), result)
        except BaseException:
            _close(opened)
            raise
        if not keep_open:
            _close(opened)
        return RedactionResult(output, result, boxes, pictured, text=companion, document=opened[0] if opened else None)


def _close(documents: list[pymupdf.Document]) -> None:
    """Close and forget the open ``documents``."""
    for doc in documents:
        doc.close()
    documents.clear()


@dataclass(frozen=True)
class _Source:
    """What one redaction burns into and verifies against: the rebuild (``prepared``), how the
    upload looks (its bytes, or the stored :class:`~redactor.read.looks.PageLook`) and the
    analysed ``layer`` (None: the caller gave none)."""

    prepared: Rebuilt
    looks: bytes | Sequence[PageLook]
    layer: TextLayer | None


#: Why a page whose visible text lost the diacritics its glyphs show is published as a picture.
MISREAD_TEXT = "its text layer lost the diacritics its glyphs show; published as read by OCR"


def _reading_progress(tracker: JobProgress, distrust: set[int]) -> Callable[[int, int], None]:
    """The extraction's ``progress(page, pages)`` as the job's reading step, or, on the pass that
    reads again the pages whose other tool's layer was off (``distrust``), as the rereading step
    counting those pages only (the others are replayed)."""
    if not distrust:
        return tracker.pages(Step.READING)
    reread = tracker.pages(Step.REREADING)
    return lambda number, _pages: reread(sum(1 for n in distrust if n <= number), len(distrust))


def _only_page_text(result: VerificationResult) -> bool:
    """Whether every problem of ``result`` concerns one page's text layer (text that was not
    analysed, kept words not read): a page published as a picture settles those. A leak, a
    glyph under a box, a hidden layer or a changed picture is never settled that way: the
    contract goes back to review."""
    listed = {p for problems in result.pages.values() for p in problems}
    return all(p in listed for p in result.problems)


def _written(
    layer: TextLayer, pages: dict[int, Span | None], redacted: list[Span], boxes: list[Box]
) -> tuple[dict[int, WrittenText], list[Span]]:
    """The words burn-in writes into the published text layer of ``pages`` (as
    :meth:`TextLayer.written_pages` gives them: None for a whole page, which replaces the page's
    text), without the ``redacted`` spans, and the spans of the words left out because their box
    overlaps a redaction box (points): OCR boxes of a poor scan overlap their neighbours', and a
    word written there would put its glyphs under the black box, hidden and still readable."""
    written: dict[int, WrittenText] = {}
    covered: list[Span] = []
    for number, span in pages.items():
        here = [b for b in boxes if b.page == number]
        words = []
        for word_span, word in layer.layer_words(number, span, redacted):
            if any(_overlap(word, b) for b in here):
                covered.append(word_span)
            else:
                words.append(word)
        written[number] = WrittenText(words, replace=span is None)
    return written, covered


def _overlap(word: OcrWord, box: Box) -> bool:
    """Whether a word's box and a redaction box overlap by more than half a point across, on the
    same row: the word's vertical centre lies within the box's height. The boxes of a line set
    tighter than its font's height overlap the lines above and below; their words are written
    with their glyphs' centres outside the box (which is what verification checks)."""
    across = min(word.x1, box.x1) - max(word.x0, box.x0)
    return across > 0.5 and box.y0 < (word.y0 + word.y1) / 2 < box.y1


def _unmapped_name(category: int) -> str:
    return categories.SUSPICIOUS_NAME["en"] if category == SUSPICIOUS else str(category)
