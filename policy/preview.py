"""Preview of a draft map: the same PDF decided under two maps, and what changes."""

from __future__ import annotations

from dataclasses import dataclass

from policy.i18n import reason_text
from policy.runtime import get_engine
from policy.vocabulary import in_reader_language
from redactor import CategoryMap, TextLayer


@dataclass
class PreviewRow:
    """One finding whose action differs between the maps (``None``: not proposed under that map)."""

    page: int
    text: str
    category: str
    current: str | None
    draft: str | None
    current_reason: str
    draft_reason: str


def map_preview(document: bytes | TextLayer, current: dict, draft: dict) -> tuple[list[PreviewRow], int]:
    """Decide ``document`` under the ``current`` and the ``draft`` map (JSON form); returns the
    findings whose action changes, in reading order, and how many findings there are in all.
    ``document`` is a contract's stored text layer (decided twice, nothing read again: a scan is
    not OCR'd) or a PDF (read once, then decided under both maps). Raises what the engine raises
    for an unreadable PDF (``InvalidPdfError``)."""
    engine = get_engine()
    draft_map = CategoryMap.from_dict(draft)
    if isinstance(document, TextLayer):
        first = engine.decide_layer(document, CategoryMap.from_dict(current))
    else:
        first = engine.analyze(document, CategoryMap.from_dict(current))
    second = engine.decide_layer(first.text_layer, draft_map)
    before = {(p.span.start, p.span.end): p for p in first.proposals}
    after = {(p.span.start, p.span.end): p for p in second.proposals}
    rows = []
    for key in sorted(before.keys() | after.keys()):
        a, b = before.get(key), after.get(key)
        if a is not None and b is not None and a.action == b.action:
            continue
        p = a if a is not None else b
        if p is None:  # the key came from one of the two analyses
            continue
        rows.append(
            PreviewRow(
                page=p.page,
                text=p.text,
                category=_category_label(draft_map, (b or p).category, (b or p).category_name),
                current=a.action.value if a else None,
                draft=b.action.value if b else None,
                current_reason=reason_text(a.reason.code, a.reason.params) if a else "",
                draft_reason=reason_text(b.reason.code, b.reason.params) if b else "",
            )
        )
    return rows, len(before.keys() | after.keys())


def _category_label(cmap: CategoryMap, category: int, fallback: str) -> str:
    """The category's name in the map, in the reader's language (the engine's English name when
    the map lacks it)."""
    rule = cmap.rule(category)
    if rule is None:
        return fallback
    return in_reader_language(rule.name_cs, rule.name_en) or fallback
