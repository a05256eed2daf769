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

import dataclasses
import hashlib

import numpy as np
from django.core.cache import cache

from redactor import Box, StoredDocument, TextLayer, review

from .. import selectors
from ..models import PUBLISHED_STATES, Contract


def _report(pages: list[review.WatchdogPage], text: str) -> dict:
    return {
        "pages": {str(p.page): round(p.share, 4) for p in pages},
        # the part of each page's share the file's own black gives (a scan's dark edges, an
        # earlier redaction): what no decision on this contract changes
        "own": {str(p.page): round(p.own_share, 4) for p in pages if round(p.own_share, 4)},
        "redacted": [p.page for p in pages if p.level != "ok"],
        "heavy": [p.page for p in pages if p.level == "heavy"],
        "readable": review.watchdog_readable(text),
        "chars": len("".join(text.split())),
        "words": len(text.split()),
    }


def _with_own(pages: list[review.WatchdogPage], layer: TextLayer, own_black: dict[int, np.ndarray] | None):
    """``pages`` with the part of their black the document already had (``own_black``)."""
    if own_black is None:
        return pages
    own = {p.page: p.own for p in review.watchdog_pages(layer, [], own_black)}
    return [dataclasses.replace(p, own=min(own.get(p.page, 0.0), p.black)) for p in pages]


def watchdog_published(
    contract: Contract, document: StoredDocument, boxes: list[Box], text: str, pictured: list[int]
) -> dict:
    """The score of a publication of ``document`` with the ``boxes`` burned in (points), the
    ``pictured`` pages published as pictures of themselves and the published ``text``: measured
    as :func:`watchdog_planned` measures the decisions before approval (the same boxes give the
    same figures). Returns the dict stored in ``Contract.watchdog`` (see the model)."""
    pages = document.watchdog(boxes, _planned_black(contract, document, boxes, pictured), pictured)
    return _report(_with_own(pages, document.layer, document_black(contract, document)), text)


def _packed(areas: dict[int, np.ndarray]) -> dict:
    return {n: (m.shape, np.packbits(m)) for n, m in areas.items()}


def _unpacked(packed: dict) -> dict[int, np.ndarray]:
    return {
        n: np.unpackbits(bits)[: shape[0] * shape[1]].reshape(shape).astype(bool) for n, (shape, bits) in packed.items()
    }


def _document_key(contract: Contract) -> str:
    return contract.rebuilt_sha256 or contract.original_sha256


def document_black(contract: Contract, document: StoredDocument | None = None) -> dict[int, np.ndarray]:
    """:meth:`redactor.StoredDocument.black_areas` of the contract's document, kept in the cache
    a day by the rebuild's SHA-256 (the review page asks again after every decision; the
    document never changes)."""
    key = f"watchdog-black:{_document_key(contract)}"
    packed = cache.get(key)
    if packed is None:
        packed = _packed((document if document is not None else selectors.contract_document(contract)).black_areas())
        cache.set(key, packed, 24 * 3600)
    return _unpacked(packed)


def _planned_black(
    contract: Contract, document: StoredDocument, boxes: list[Box], pictured: list[int] | None = None
) -> dict[int, np.ndarray]:
    """Each page's black as it will be published with ``boxes`` (the ``pictured`` pages as
    pictures of themselves): the document's own on a page without a box, else the page drawn
    with its boxes as publishing blackens them (:meth:`redactor.StoredDocument.black_areas`),
    kept an hour by the page's boxes (a decision redraws the pages it touches only)."""
    pictured = pictured or []
    black = document_black(contract, document)
    by_page: dict[int, list[Box]] = {}
    for b in boxes:
        by_page.setdefault(b.page, []).append(b)
    keys = {}
    for number, page_boxes in by_page.items():
        digest = hashlib.sha256(repr(sorted((round(b.x0, 2), round(b.y0, 2), round(b.x1, 2), round(b.y1, 2))
                                            for b in page_boxes)).encode()).hexdigest()  # fmt: skip
        kind = "picture" if number in pictured else "page"
        keys[number] = f"watchdog-{kind}:{_document_key(contract)}:{number}:{digest}"
    found = cache.get_many(list(keys.values()))
    for key in keys.values():
        if key in found:
            black.update(_unpacked(found[key]))
    missing = {n for n, key in keys.items() if key not in found}
    if missing:
        drawn = document.black_areas([b for b in boxes if b.page in missing], pages=missing, pictured=pictured)
        cache.set_many({keys[n]: _packed({n: mask}) for n, mask in drawn.items()}, 3600)
        black.update(drawn)
    return black


def watchdog_planned(contract: Contract, document: StoredDocument | None = None) -> dict:
    """The score ``contract`` would get if published with its proposals as decided now (pending
    ones as suggested): the same dict as :func:`watchdog_published`, measured the same way on
    the pages drawn as publishing will leave them (the boxes grown over a scan's pixels and on a
    page published as a picture, :meth:`redactor.StoredDocument.burned`), the text being the
    analysed text without the characters the redactions cover. A page that verification sends
    out as a picture only at publishing is not foreseen. ``document`` is the contract's stored
    document when the caller has read it; else it is read (raises as
    :func:`~contracts.selectors.contract_document`)."""
    document = document if document is not None else selectors.contract_document(contract)
    layer = document.layer
    boxes: list[Box] = []
    for p in selectors.proposals_for_contract(contract=contract):
        if p.will_redact:
            boxes += p.box_list()
    hidden = bytearray(len(layer.text))
    for span in review.spans_in_boxes(layer, boxes):  # what burn-in removes from the text layer
        hidden[span.start : span.end] = b"\x01" * (span.end - span.start)
    kept = "".join(" " if hidden[i] else c for i, c in enumerate(layer.text))
    pages = document.watchdog(boxes, _planned_black(contract, document, boxes))
    return _report(_with_own(pages, layer, document_black(contract, document)), kept)


def watchdog_flagged(report: dict) -> list[dict]:
    """The pages of a score (:func:`watchdog_planned`, :func:`watchdog_published`) the watchdog
    counts, in page order: ``[{"page", "percent", "level", "own_percent", "own_only"}]``, level
    "heavy" or "redacted"; ``own_percent`` the part of ``percent`` the file's own black gives,
    ``own_only`` whether that part alone makes the page count (no decision here changes it)."""
    heavy = set(report.get("heavy", []))
    own = report.get("own", {})
    out = []
    for n in sorted(report.get("redacted", [])):
        share = own.get(str(n), 0.0)
        out.append(
            {
                "page": n,
                "percent": report["pages"][str(n)] * 100,
                "level": "heavy" if n in heavy else "redacted",
                "own_percent": share * 100,
                "own_only": share >= review.WATCHDOG_REDACTED,
            }
        )
    return out


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
