"""Score redacted PDFs against gold files (format: ``../shared/data/README.md``).

Counts as the registry's scoring does (``../shared/tools/score_redaction.py``): whole-word
occurrences after NFKC and whitespace folding, in the text read by PyMuPDF and pdfplumber
(the worst of the two counts), plus the digit-run check for numbers. Each gold item is also
attributed to the category-map category of the proposal that covered it, so the rates can be
read per category ("IDENTIFIER / bank account number").
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from redactor import count_word, extract_texts, normalize


@dataclass
class Tally:
    """Occurrences that should have been redacted (or kept) and those that were not."""

    total: int = 0
    failed: int = 0

    @property
    def rate(self) -> float:
        """``failed / total`` (0.0 when there is nothing to count)."""
        return self.failed / self.total if self.total else 0.0


@dataclass
class Evaluation:
    """Leak and over-redaction tallies overall and per category, with the misses listed."""

    documents: int = 0
    leaks: Tally = field(default_factory=Tally)
    over: Tally = field(default_factory=Tally)
    leaks_by_category: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    over_by_category: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    missing: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)


def _category_of(item: str, proposals: list[dict]) -> str:
    needle = normalize(item)
    for p in proposals:
        text = normalize(p["text"])
        if needle == text or count_word(text, needle) or count_word(needle, text):
            return p["category_name"].lower()
    return "not proposed"


def _leaked(item: dict, texts: list[str], digit_views: list[str]) -> int:
    """How many of a ``redact`` item's occurrences an extractor still reads (all of them when the
    output cannot be read): the item as a word, or the longest run of six or more of its digits."""
    n = item["occurrences"]
    if not texts:
        return n
    seen = max(count_word(t, item["text"]) for t in texts)
    runs = re.findall(r"\d+", item["text"])
    longest = max(runs, key=len, default="")
    if not seen and len(longest) >= 6 and any(longest in d for d in digit_views):
        seen = 1
    return min(seen, n)


def _count(tallies: tuple[Tally, ...], total: int, failed: int) -> None:
    for tally in tallies:
        tally.total += total
        tally.failed += failed


def _score_item(result: Evaluation, name: str, item: dict, texts: list[str], proposals: list[dict]) -> None:
    """Count one gold ``item`` of document ``name`` against the extractors' ``texts``."""
    n = item["occurrences"]
    if item["expected"] == "redact":
        leaked = _leaked(item, texts, [re.sub(r"\D", "", t) for t in texts])
        key = f"{item['category']} / {_category_of(item['text'], proposals)}"
        _count((result.leaks, result.leaks_by_category[key]), n, leaked)
        if leaked:
            result.misses.append(f"{name}: leaked {item['text']!r} x{leaked} ({key})")
    elif item["expected"] == "keep":
        have = min(count_word(t, item["text"]) for t in texts) if texts else 0
        lost = max(0, n - have)
        key = item["category"]
        _count((result.over, result.over_by_category[key]), n, lost)
        if lost:
            result.misses.append(f"{name}: lost {item['text']!r} x{lost} ({key})")


def evaluate(gold_dir: Path, out_dir: Path) -> Evaluation:
    """Compare ``out_dir/<name>.pdf`` (and ``<name>.json`` for attribution) with each gold file."""
    result = Evaluation()
    for gold_path in sorted(gold_dir.glob("*.json")):
        gold = json.loads(gold_path.read_text(encoding="utf-8"))
        if "items" not in gold:
            continue
        result.documents += 1
        name = gold_path.stem
        pdf = out_dir / f"{name}.pdf"
        report = out_dir / f"{name}.json"
        proposals = json.loads(report.read_text(encoding="utf-8")).get("proposals", []) if report.exists() else []
        texts = list(extract_texts(pdf.read_bytes()).values()) if pdf.exists() else []
        if not texts:
            result.missing.append(name)
        for item in gold["items"]:
            _score_item(result, name, item, texts, proposals)
    return result
