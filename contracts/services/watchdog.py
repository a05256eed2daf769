"""The registry's watchdog's score of a contract, known before it is published and kept after.

Hlídač státu scores every file published in the registry of contracts: a page counts as
redacted when black covers 5 % or more of its black and text, heavily redacted at 20 %
(:data:`redactor.WATCHDOG_REDACTED`, :data:`redactor.WATCHDOG_HEAVY`), and a file with at most
20 characters or 10 words of text is unreadable; the share of an agency's contracts with such
pages feeds its public risk index. The reviewer sees the same figures for the decisions as they
stand (:func:`watchdog_planned`) and the published files keep theirs (:func:`watchdog_published`,
stored on the contract, shown on the registry panel and summed per agency by
:func:`watchdog_agency_summary`).
"""

from __future__ import annotations

import numpy as np
from django.core.cache import cache

from redactor import Box, TextLayer, review

from .. import selectors
from ..models import PUBLISHED_STATES, Contract


def _report(pages: list[review.WatchdogPage], text: str) -> dict:
    return {
        "pages": {str(p.page): round(p.share, 4) for p in pages},
        "redacted": [p.page for p in pages if p.level != "ok"],
        "heavy": [p.page for p in pages if p.level == "heavy"],
        "readable": review.watchdog_readable(text),
        "chars": len("".join(text.split())),
        "words": len(text.split()),
    }


def watchdog_published(layer: TextLayer, boxes: list[Box], text: str, pdf: bytes) -> dict:
    """The score of a publication: ``layer`` as analysed, the ``boxes`` burned in (points), the
    published ``text`` and the published ``pdf`` (whose pictures may carry black bars of their
    own). Returns the dict stored in ``Contract.watchdog`` (see the model)."""
    return _report(review.watchdog_pages(layer, boxes, review.black_areas(pdf)), text)


def _black_in_document(contract: Contract) -> dict[int, np.ndarray]:
    """:meth:`redactor.StoredDocument.black_areas` of the contract's document, kept in the cache
    a day by the rebuild's SHA-256 (the review page asks again after every decision; the
    document never changes)."""
    key = f"watchdog-black:{contract.rebuilt_sha256 or contract.original_sha256}"
    packed = cache.get(key)
    if packed is None:
        areas = selectors.contract_document(contract).black_areas()
        packed = {n: (m.shape, np.packbits(m)) for n, m in areas.items()}
        cache.set(key, packed, 24 * 3600)
    return {
        n: np.unpackbits(bits)[: shape[0] * shape[1]].reshape(shape).astype(bool) for n, (shape, bits) in packed.items()
    }


def watchdog_planned(contract: Contract, layer: TextLayer | None = None) -> dict:
    """The score ``contract`` would get if published with its proposals as decided now (pending
    ones as suggested): the same dict as :func:`watchdog_published`, the text being the analysed
    text without the characters the redactions cover. ``layer`` is the contract's analysed layer
    when the caller has read it; else the stored analysis is read (raises as
    :func:`~contracts.selectors.contract_text_layer`)."""
    layer = layer if layer is not None else selectors.contract_text_layer(contract)
    boxes: list[Box] = []
    for p in selectors.proposals_for_contract(contract=contract):
        if p.will_redact:
            boxes += p.box_list()
    hidden = bytearray(len(layer.text))
    for span in review.spans_in_boxes(layer, boxes):  # what burn-in removes from the text layer
        hidden[span.start : span.end] = b"\x01" * (span.end - span.start)
    kept = "".join(" " if hidden[i] else c for i, c in enumerate(layer.text))
    return _report(review.watchdog_pages(layer, boxes, _black_in_document(contract)), kept)


def watchdog_flagged(report: dict) -> list[dict]:
    """The pages of a score (:func:`watchdog_planned`, :func:`watchdog_published`) the watchdog
    counts, in page order: ``[{"page", "percent", "level"}]``, level "heavy" or "redacted"."""
    heavy = set(report.get("heavy", []))
    return [
        {"page": n, "percent": report["pages"][str(n)] * 100, "level": "heavy" if n in heavy else "redacted"}
        for n in sorted(report.get("redacted", []))
    ]


def watchdog_agency_summary(agency) -> dict:
    """The agency's published contracts as the watchdog counts them: ``{"published": n,
    "redacted": n, "heavy": n, "unreadable": n}`` (a contract counts once, by its worst page);
    contracts published before the score was kept are not counted."""
    scored = [
        c.watchdog
        for c in selectors.contracts_for_agency(agency=agency).filter(status__in=PUBLISHED_STATES).only("watchdog")
        if c.watchdog
    ]
    return {
        "published": len(scored),
        "redacted": sum(1 for w in scored if w.get("redacted")),
        "heavy": sum(1 for w in scored if w.get("heavy")),
        "unreadable": sum(1 for w in scored if not w.get("readable", True)),
    }
