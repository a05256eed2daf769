"""What the allowlist rebuild (:mod:`redactor.pdf.rebuild`) and its MuPDF part
(:mod:`redactor.pdf.page_repair`) hand each other and the engine: the rebuilt PDF and what was
removed or changed. A module of its own, so that neither of the two imports the other's type."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Rebuilt:
    """A rebuilt PDF (``pdf``) and what the rebuild removed or changed, by kind, for the record
    (``{"hidden layer content": 2, "annotations flattened": 5, ...}``)."""

    pdf: bytes
    removed: dict[str, int] = field(default_factory=dict)
    #: Pages (from 1) turned into pictures because their visible text cannot be read from the
    #: text layer; they are read by OCR like scans.
    pictured: list[int] = field(default_factory=list)
    #: ``{page number: [(x0, y0, x1, y1)]}`` (points): regions of a text page whose glyphs have no
    #: meaning (vector outlines, a Type3 font without a Unicode map) that became pictures of
    #: themselves; extraction reads them by OCR whatever their size.
    regions: dict[int, list[tuple[float, float, float, float]]] = field(default_factory=dict)
    #: ``{page number: [(x0, y0, x1, y1)]}`` (points, unrotated): the images each page of ``pdf``
    #: draws, for the pages the rebuild measured and left as they were (MuPDF's bbox log runs the
    #: whole page: extraction and burn-in take these instead of running it again).
    images: dict[int, list[tuple[float, float, float, float]]] = field(default_factory=dict)
    #: ``{page number: bbox log}`` of the same pages (MuPDF's ``get_bboxlog()``, what extraction
    #: looks for ink in), when ``pdf`` is the very file that was measured (none after a page was
    #: changed); kept in memory for the analysis of this rebuild, not stored.
    logs: dict[int, list[tuple[str, tuple[float, float, float, float]]]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def note(self, kind: str, count: int = 1) -> None:
        """Count ``count`` more removals of ``kind``."""
        if count:
            self.removed[kind] = self.removed.get(kind, 0) + count
