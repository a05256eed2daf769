#!/usr/bin/env python
"""The rule book's harness: every record's examples and counter-examples run through its kind
alone (one recognizer, one function, no PDF), and the ``holder`` records through the whole
analysis of a small PDF made of the example (the stored-layer path).

usage: .venv/bin/python benchmarks/rule_book.py [--json] [--no-holders]

Prints the records by kind, the examples and counter-examples, the failures (each named), the
known failures by family (the part of the id before its first dot) and the run time. Exit status
1 when a record fails where its data does not name a known failure, or when a named known failure
now passes (the data is stale). The suite runs :func:`check` on every record
(``tests/redactor/test_rule_book.py``); timing lives here.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from redactor import categories as cat  # noqa: E402
from redactor import rulebook  # noqa: E402
from redactor.czech import strip_diacritics  # noqa: E402
from redactor.detect.nlp import NlpArtifacts  # noqa: E402
from redactor.detect.recognizers.base import AnalysisContext, Recognizer  # noqa: E402
from redactor.detect.recognizers.registry import default_recognizer  # noqa: E402
from redactor.detect.roles import REPRESENTATION, contact_cue, function_near  # noqa: E402
from redactor.model import Finding  # noqa: E402
from redactor.text import sentence_spans  # noqa: E402

_RECOGNIZERS: dict[str, Recognizer] = {}
_ENGINE = None


def _recognizer(name: str) -> Recognizer:
    if name not in _RECOGNIZERS:
        recognizer = default_recognizer(name)
        if hasattr(recognizer, "use_ner"):
            recognizer.use_ner = False  # rules and gazetteers alone: no model in the harness
        recognizer.load()
        _RECOGNIZERS[name] = recognizer
    return _RECOGNIZERS[name]


def _findings(rule: rulebook.Rule, text: str) -> list[Finding]:
    context = AnalysisContext(text, NlpArtifacts(), sentence_spans(text), [])
    found = _recognizer(rule.params["recognizer"]).analyze(context)
    wanted = rule.params.get("category")
    if wanted is None:
        return found
    categories = {getattr(cat, c) for c in ([wanted] if isinstance(wanted, str) else wanted)}
    return [f for f in found if f.category in categories]


def _covered(findings: list[Finding], span: tuple[int, int]) -> bool:
    return any(f.span.start <= span[0] and span[1] <= f.span.end for f in findings)


def _found(rule: rulebook.Rule, example: str) -> bool:
    """Whether the rule finds what ``example`` marks (or, unmarked, anything of its category)."""
    text, spans = rulebook.marked(example)
    findings = _findings(rule, text)
    if not spans:
        return bool(findings)
    return all(_covered(findings, s) for s in spans)


def _found_none(rule: rulebook.Rule, example: str) -> bool:
    text, spans = rulebook.marked(example)
    findings = _findings(rule, text)
    if not spans:
        return not findings
    return not any(_covered(findings, s) for s in spans)


def _near(rule: rulebook.Rule, example: str) -> bool:
    """Whether the cue of ``rule.params["finds"]`` stands next to the marked name as expected."""
    text, spans = rulebook.marked(example)
    start, end = spans[0]
    finds, expect = rule.params["finds"], rule.params["expect"]
    if finds == "function":
        function = function_near(text, start, end)
        return function is not None and function.kind == expect
    if finds == "contact":
        return contact_cue(text, start) is not None
    if finds == "representation":
        return REPRESENTATION.search(strip_diacritics(text[max(0, start - 90) : start]).lower()) is not None
    raise ValueError(f"rule {rule.id}: finds {finds!r} is none of function, contact, representation")


def _scrawl(page, rect) -> None:
    """A pen's signature across ``rect``: connected loops and a tail, in blue."""
    import math

    points = []
    for i in range(37):
        t = i / 12
        x = rect.x0 + rect.width * 0.75 * i / 36 + 8 * math.cos(t * 2 * math.pi)
        y = rect.y0 + rect.height / 2 + (rect.height / 2 - 3) * math.sin(t * 2 * math.pi)
        points.append((x, y))
    points.append((rect.x1, rect.y0 + rect.height * 0.7))
    page.draw_polyline(points, color=(0.1, 0.2, 0.75), width=1.3)


def _pdf(text: str) -> bytes:
    """A PDF of ``text`` (a paragraph a line); words written ``■…■`` are covered by a black box
    drawn over them, ``□…□`` by a white one (a file redacted or whited out before upload); a line
    holding ``✍`` becomes a handwritten signature, and the page a 150-dpi scan."""
    import pymupdf

    from tests.pdfs import pdf_from_paragraphs

    boxes = [(m.group(2), m.group(1)) for m in re.finditer(r"([■□])(.+?)\1", text)]
    paragraphs = [
        " ".join(["MMMMMMMMMM"] * 2) if "✍" in line else line for line in re.sub(r"[■□]", "", text).split("\n")
    ]
    pdf = pdf_from_paragraphs(paragraphs)
    signed = "✍" in text
    if not boxes and not signed:
        return pdf
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    for page in doc:
        for words, mark in boxes:
            for rect in page.search_for(words):
                colour = (0, 0, 0) if mark == "■" else (1, 1, 1)
                page.draw_rect(rect, color=colour, fill=colour)
        for rect in page.search_for("MMMMMMMMMM MMMMMMMMMM") if signed else []:
            page.draw_rect(rect + (0, -4, 0, 20), color=(1, 1, 1), fill=(1, 1, 1))
            _scrawl(page, pymupdf.Rect(rect.x0, rect.y0 - 4, rect.x0 + 110, rect.y0 + 40))
    if not signed:
        return doc.tobytes()
    scan = pymupdf.open()
    for page in doc:
        pixmap = page.get_pixmap(dpi=150)
        scanned = scan.new_page(width=page.rect.width, height=page.rect.height)
        scanned.insert_image(scanned.rect, pixmap=pixmap)
    return scan.tobytes()


def _actions(rule: rulebook.Rule, example: str) -> set[str]:
    """The actions the whole analysis of a PDF made of ``example`` takes on every occurrence of the
    marked value: a proposal's, or ``keep`` where nothing is proposed (under the record's agency
    ``profile``, when it gives one)."""
    global _ENGINE
    from redactor import RedactionEngine
    from redactor.detect.profile import AgencyProfile

    if _ENGINE is None:
        _ENGINE = RedactionEngine()
        _ENGINE.load()
    text, spans = rulebook.marked(example)
    value = " ".join(re.sub(r"[■□]", "", text[spans[0][0] : spans[0][1]]).split())
    profile = AgencyProfile.from_dict(rule.params["profile"]) if "profile" in rule.params else None
    analysis = _ENGINE.analyze(_pdf(text), profile=profile)
    if value == "✍":  # a handwritten signature: the proposals of its category
        return {p.action.value for p in analysis.proposals if p.category == cat.SIGNATURE} or {"keep"}
    actions = [p.action.value for p in analysis.proposals if value in " ".join(p.text.split())]
    occurrences = " ".join(re.sub(r"[■□]", "", text).split()).count(value)
    return set(actions) | ({"keep"} if len(actions) < occurrences else set())


def _function(rule: rulebook.Rule):
    module, name = rule.params["function"].split(":")
    return getattr(importlib.import_module(module), name)


def passes(rule: rulebook.Rule, example: str, counter: bool) -> bool:
    """Whether ``rule`` does with ``example`` what its record says (``counter``: a counter-example)."""
    kind = rule.kind
    if kind in ("value_after_cue", "labelled_block"):
        return _found_none(rule, example) if counter else _found(rule, example)
    if kind == "veto":  # an example is refused, a counter-example read
        return _found(rule, example) if counter else _found_none(rule, example)
    if kind == "cue_near_name":
        return _near(rule, example) != counter
    if kind == "holder":
        return (_actions(rule, example) == {rule.params["expect"]}) != counter
    if kind == "code":
        return bool(_function(rule)(rulebook.marked(example)[0])) != counter
    raise ValueError(f"rule {rule.id}: no interpreter for kind {kind!r}")


def check(rule: rulebook.Rule) -> tuple[list[str], list[str], list[str]]:
    """``(failures, known, stale)``: examples or counter-examples ``rule`` gets wrong that its data
    does not name, those it names as known failures, and known failures that now pass."""
    failures, known, stale = [], [], []
    for example, counter in [(e, False) for e in rule.examples] + [(c, True) for c in rule.counters]:
        ok = passes(rule, example, counter)
        label = f"{'counter' if counter else 'example'}: {example}"
        if example in rule.known_failures:
            (stale if ok else known).append(label)
        elif not ok:
            failures.append(label)
    return failures, known, stale


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-holders", action="store_true", help="leave out the records run through a PDF")
    parser.add_argument("--no-docs", action="store_true", help="do not write the figures into the docs")
    args = parser.parse_args()
    records = list(rulebook.rules().values())
    started = time.perf_counter()
    failures: dict[str, list[str]] = {}
    stale: dict[str, list[str]] = {}
    known: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for rule in records:
        kinds[rule.kind] += 1
        if args.no_holders and rule.kind == "holder":
            continue
        bad, named, old = check(rule)
        if bad:
            failures[rule.id] = bad
        if old:
            stale[rule.id] = old
        known[rule.id.split(".")[0]] += len(named)
    seconds = time.perf_counter() - started
    figures = {
        "records": len(records),
        "by_kind": dict(sorted(kinds.items())),
        "examples": sum(len(r.examples) for r in records),
        "counters": sum(len(r.counters) for r in records),
        "known_failures": dict(sorted((k, v) for k, v in known.items() if v)),
        "failures": failures,
        "stale_known_failures": stale,
        "seconds": round(seconds, 2),
    }
    if not (args.no_docs or args.no_holders or failures or stale):
        from benchmarks.figures import write_row

        kinds_text = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in figures["by_kind"].items())
        known_text = ", ".join(f"{n} {family}" for family, n in figures["known_failures"].items()) or "none"
        write_row(
            "rule_book",
            "The rule book's harness: every record's examples and counter-examples through its kind alone",
            f"**{figures['records']}** records ({kinds_text}); {figures['examples']} examples, "
            f"{figures['counters']} counter-examples; known failures: {known_text}; "
            f"**{figures['seconds']} s** in all, PDFs of the holder records included",
            "benchmarks/rule_book.py",
        )
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    else:
        for name, value in figures.items():
            print(f"{name}: {value}")
    return 1 if failures or stale else 0


if __name__ == "__main__":
    sys.exit(main())
