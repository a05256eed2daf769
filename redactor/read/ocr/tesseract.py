"""The Tesseract driver (:class:`TesseractOcr`), pictures on text pages (:func:`picture_regions`,
:func:`read_pictures`), reading pages ahead in parallel (:class:`ReadAhead`) and the check of
another tool's layer under proposals (:func:`layers_off`)."""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard

import numpy as np
import pymupdf

from redactor.errors import OcrUnavailableError
from redactor.model import PageInfo, ProposedRedaction
from redactor.read.ocr import in_process
from redactor.read.ocr.page import OCR_DPI, OcrPage, OcrWord
from redactor.read.ocr.render import render_gray
from redactor.read.ocr.repairs import repair_emails, repair_numbers
from redactor.read.ocr.rescue import band_shift, line_worth_keeping, missed_bands, strip_of, worth_keeping

if TYPE_CHECKING:  # Pillow is imported only when a page is read
    from PIL import Image

#: A whole page read with a lower mean word confidence (0..100) gets its orientation checked ...
ORIENTATION_MIN_CONFIDENCE = 50.0
#: ... and is turned when Tesseract's orientation detection is at least this confident.
ORIENTATION_MIN_OSD = 2.0


#: A word as :meth:`TesseractOcr._read` gives it: ``(text, confidence, x0, y0, x1, y1, (block,
#: paragraph, line))``, the box in the image's pixels.
Found = tuple[str, float, float, float, float, float, tuple[int, int, int]]


class PageReader(Protocol):
    """What :func:`layers_off` asks of an OCR engine (:class:`~redactor.read.ocr.protocol.Ocr`
    has it): a page, or a clip of it, read."""

    def recognize(self, page: pymupdf.Page, clip: pymupdf.Rect | None = None) -> OcrPage | None: ...


#: Tesseract block number from which the lines read again by :meth:`TesseractOcr._rescue` count.
RESCUE_BLOCK = 1000


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two boxes share more than a third of the smaller one's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return False
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h > smaller / 3


def _mean(found: list[Found]) -> float:
    """Mean confidence of words found by :meth:`TesseractOcr._read` (0.0 for none)."""
    return sum(w[1] for w in found) / len(found) if found else 0.0


def _vertical(found: list[Found]) -> bool:
    """True when most words of three or more characters found by :meth:`TesseractOcr._read` are
    taller than wide: Tesseract read a page lying on its side line by line down the page."""
    long = [w for w in found if len(w[0]) >= 3]
    tall = sum(1 for w in long if (w[5] - w[3]) > 1.5 * (w[4] - w[2]))
    return bool(long) and tall > len(long) / 2


def _turned_back(
    box: tuple[float, float, float, float], turn: int, size: tuple[int, int]
) -> tuple[float, float, float, float]:
    """A box ``(x0, y0, x1, y1)`` read in an image turned ``turn`` degrees clockwise, in the
    pixels of the image as it was (``size``: its width and height)."""
    width, height = size
    x0, y0, x1, y1 = box
    if turn == 90:  # (x, y) -> (height - y, x) when turning; back: x = v, y = height - u
        return y0, height - x1, y1, height - x0
    if turn == 180:
        return width - x1, height - y1, width - x0, height - y0
    return width - y1, x0, width - y0, x1  # 270: (x, y) -> (y, width - x); back: x = width - v, y = u


#: A picture on a text page is read by OCR from this size on (points) ...
PICTURE_MIN_WIDTH = 150.0
PICTURE_MIN_HEIGHT = 40.0
#: ... and this share of the page area.
PICTURE_MIN_SHARE = 0.03
#: A picture with this many visible characters of the text layer on it is a scan under its own text.
PICTURE_MAX_CHARS_OVER = 10
#: A smaller picture is read when another tool's invisible text lies on it, from this size (points).
LAYERED_MIN_WIDTH = 40.0
LAYERED_MIN_HEIGHT = 10.0
#: Words of such a picture read with less confidence (0..100) are noise: logos, signatures.
PICTURE_MIN_CONFIDENCE = 60.0


class TesseractOcr:
    """OCR with the Tesseract command-line program (through pytesseract).

    ``language`` is a Tesseract model name (``ces`` by default; ``ces+eng`` reads both);
    ``psm`` Tesseract's page segmentation mode (3: a page of blocks found by itself; 6: one
    uniform block, as a strip of cut-out lines is read by :mod:`redactor.publish.legibility`).
    ``threads`` caps Tesseract's OpenMP threads (1: one page on one core, and a worker does not
    starve the other jobs); ``parallel`` pages of a document are read at once (one core each,
    :meth:`read_ahead`; 1 by default, since a machine runs a worker per core). Raises
    ``OcrUnavailableError`` from :meth:`recognize` when Tesseract or the model is missing;
    :meth:`available` tells beforehand.
    """

    def __init__(self, language: str = "ces", dpi: int = OCR_DPI, threads: int = 1, parallel: int = 1, psm: int = 3):
        self.language = language
        self.dpi = dpi
        self.psm = psm
        self.threads = threads
        #: Pages of one document read at the same time (one Tesseract process each); 1: one after another.
        self.parallel = max(1, parallel)
        #: Read through Tesseract's API in this process (:mod:`.in_process`) rather than a
        #: ``tesseract`` process per call, when tesserocr is installed.
        self.in_process = False
        self._available: bool | None = None

    def reading(self, *, dpi: int, psm: int, parallel: int = 1) -> TesseractOcr:
        """Another reader with this one's language and threads at ``dpi`` and ``psm`` (a second,
        independent reading), which knows already whether Tesseract is installed: asking
        Tesseract again for its models under load can fail and make a working OCR look absent.
        It reads in this process (:mod:`.in_process`): the readers after burn-in read many
        strips of one document, where a process per call costs more than the reading."""
        other = TesseractOcr(language=self.language, dpi=dpi, threads=self.threads, parallel=parallel, psm=psm)
        other._available = self._available
        other.in_process = True
        return other

    def available(self) -> bool:
        """True when the ``tesseract`` program and every model of ``language`` are installed."""
        if self._available is None:
            self._available = False
            if shutil.which("tesseract"):
                import pytesseract  # noqa: PLC0415 - OCR is optional: the tesseract program may be absent

                langs: set[str] = set()
                for _attempt in range(3):  # a busy machine may fail to start it once: asked again
                    try:
                        langs = set(pytesseract.get_languages(config=""))
                        break
                    except Exception:  # a broken installation is "not available"
                        continue
                self._available = all(part in langs for part in self.language.split("+"))
        return self._available

    def recognize(self, page: pymupdf.Page, clip: pymupdf.Rect | None = None) -> OcrPage:
        """Read ``page`` (or only its ``clip``, a rectangle of an unrotated page in points);
        word boxes in PDF points (PyMuPDF page space, y down), page from 1.

        A whole page read with a mean confidence under :data:`ORIENTATION_MIN_CONFIDENCE`, or
        read as mostly vertical words, may lie on its side or upside down (a sheet fed the wrong
        way, with no /Rotate to say so): its
        orientation is then detected once (Tesseract's OSD, ``osd`` model) and, when it is turned,
        the page is read again upright; the better read is kept, its words carry the angle
        (:attr:`OcrWord.angle`) and boxes on the page as it is."""
        return self.start(page, clip)()

    def start(self, page: pymupdf.Page, clip: pymupdf.Rect | None = None) -> Callable[[], OcrPage]:
        """Render ``page`` now (MuPDF, in the calling thread) and return the call that reads it
        (Tesseract, a separate program: any thread may make the call, see :meth:`read_ahead`)."""

        if not self.available():
            raise OcrUnavailableError(f"Tesseract with the '{self.language}' model is not installed")
        started = time.perf_counter()
        image = render_gray(page, self.dpi, clip)
        turnable, number = clip is None and not page.rotation, page.number + 1
        # pixel -> point: the page was rendered from its rect (rotation included) at self.dpi
        to_page = ~page.rotation_matrix if page.rotation else None
        area = page.rect if clip is None else pymupdf.Rect(clip) & page.rect
        sx, sy = area.width / image.width, area.height / image.height
        rendering = time.perf_counter() - started

        def read() -> OcrPage:
            reading = time.perf_counter()
            found, turn = self._read(image), 0
            sideways = _vertical(found)
            if turnable and (sideways or _mean(found) < ORIENTATION_MIN_CONFIDENCE):
                turn = self._orientation(image)
                if turn:
                    upright = self._read(image.rotate(-turn, expand=True))  # PIL turns counter-clockwise
                    if sideways or _mean(upright) > _mean(found):
                        found = [
                            (t, c, *_turned_back((x0, y0, x1, y1), turn, image.size), line)
                            for t, c, x0, y0, x1, y1, line in upright
                        ]
                    else:
                        turn = 0
            if clip is None and not turn:
                found = self._rescue(image, found)
            result = OcrPage(number)
            for text, conf, x0, y0, x1, y1, line in found:
                rect = pymupdf.Rect(x0 * sx, y0 * sy, x1 * sx, y1 * sy) + (area.x0, area.y0, area.x0, area.y0)
                if to_page is not None:
                    rect = rect * to_page
                result.words.append(OcrWord(text, rect.x0, rect.y0, rect.x1, rect.y1, conf, line, turn))
            result.words = repair_numbers(repair_emails(result.words))
            result.seconds = rendering + time.perf_counter() - reading
            return result

        return read

    def read_ahead(
        self, doc: pymupdf.Document, numbers: list[int], bands: dict[int, pymupdf.Rect] | None = None
    ) -> ReadAhead | None:
        """Pages ``numbers`` (from 1) of ``doc`` read :attr:`parallel` at a time in threads (each
        thread waits on its own Tesseract process), in order, at most :attr:`parallel` rendered
        pages held ahead, and the ``bands`` (``{page: band}``, :meth:`check_layer`'s samples of
        pages whose other tool's layer is checked) with them; None when :attr:`parallel` is 1 or
        fewer than two reads are to be made."""
        bands = {n: b for n, b in (bands or {}).items() if n not in numbers}
        if self.parallel <= 1 or len(numbers) + len(bands) < 2 or not self.available():
            return None
        return ReadAhead(self, doc, numbers, bands)

    def _tesseract(self, call: Callable[..., Any], image: Image.Image, **kwargs: object) -> Any:
        """Run one pytesseract ``call`` on ``image`` (``kwargs`` passed on) with Tesseract capped at
        ``threads`` threads. Under :class:`ReadAhead` the limit is already this value, so what each
        thread puts back is the same and threads cannot undo one another's setting."""
        with thread_limit(self.threads):
            return call(image, **kwargs)

    def read_image(self, image: Image.Image, psm: int | None = None) -> list[Found]:
        """Tesseract's words of a picture made elsewhere (``image``, grey): as :meth:`_read` (``psm``
        overrides the segmentation mode), with no orientation check and no repairs. Raises
        ``OcrUnavailableError`` when Tesseract or the model is missing."""
        if not self.available():
            raise OcrUnavailableError(f"Tesseract with the '{self.language}' model is not installed")
        return self._read(image, psm)

    def _rescue(self, image: Image.Image, found: list[Found]) -> list[Found]:
        """``found`` with the words of the lines the page reading missed (:mod:`.rescue`: ink
        outside every word's box, in bands of a line's height, read again as one strip with
        ``--psm 6``), each such line put before the first line read below it; its words carry
        blocks of their own (from :data:`RESCUE_BLOCK`)."""
        from PIL import Image  # noqa: PLC0415 - only with OCR

        pixels = np.asarray(image)
        bands = missed_bands(pixels, [(w[2], w[3], w[4], w[5]) for w in found])
        if not bands:
            return found
        strip, offsets = strip_of(pixels, bands)
        rescued: dict[tuple[int, int, int], list[Found]] = {}
        for text, conf, x0, y0, x1, y1, line in self._read(Image.fromarray(strip), psm=6):
            placed = band_shift(offsets, y0, y1)
            if placed is None or not worth_keeping(text, conf):
                continue
            band, shift = placed
            box = (x0, y0 + shift, x1, y1 + shift)
            if any(_overlap(box, (w[2], w[3], w[4], w[5])) for w in found):
                continue
            key = (RESCUE_BLOCK + band, line[1], line[2])
            rescued.setdefault(key, []).append((text, conf, *box, key))
        lines: list[list[Found]] = []
        for w in found:
            if lines and lines[-1][0][6] == w[6]:
                lines[-1].append(w)
            else:
                lines.append([w])
        for words in rescued.values():
            if not line_worth_keeping([(w[0], w[1]) for w in words]):
                continue
            at = next((i for i, line in enumerate(lines) if min(w[3] for w in line) > words[0][3]), len(lines))
            lines.insert(at, words)
        return [w for line in lines for w in line]

    def _read(self, image: Image.Image, psm: int | None = None) -> list[Found]:
        """Tesseract's words of ``image``: ``(text, confidence, x0, y0, x1, y1, (block, par, line))``
        in the image's pixels, empty and unrecognised (negative confidence) entries left out;
        ``psm`` overrides the reader's segmentation mode."""
        if self.in_process and in_process.usable():
            data = in_process.image_to_data(image, self.language, psm or self.psm)
        else:
            import pytesseract  # noqa: PLC0415 - OCR is optional: the tesseract program may be absent

            data = self._tesseract(
                pytesseract.image_to_data,
                image,
                lang=self.language,
                config=f"--psm {psm or self.psm}",
                output_type=pytesseract.Output.DICT,
            )
        out: list[Found] = []
        for i, text in enumerate(data["text"]):
            text, conf = (text or "").strip(), float(data["conf"][i])
            if not text or conf < 0:
                continue
            x, y, w, h = data["left"][i], data["top"][i], data["width"][i], data["height"][i]
            out.append(
                (text, conf, x, y, x + w, y + h, (data["block_num"][i], data["par_num"][i], data["line_num"][i]))
            )
        return out

    def _orientation(self, image: Image.Image) -> int:
        """Clockwise degrees (0, 90, 180, 270) that turn ``image`` upright, by Tesseract's OSD on a
        half-resolution copy; 0 when it finds too little text to tell or is not sure."""
        import pytesseract  # noqa: PLC0415

        try:
            osd = self._tesseract(
                pytesseract.image_to_osd,
                image.reduce(2),
                lang="osd",
                config="--psm 0",
                output_type=pytesseract.Output.DICT,
            )
        except pytesseract.TesseractError:  # "Too few characters": nothing to turn
            return 0
        turn = int(osd.get("rotate", 0)) % 360
        return turn if turn in (90, 180, 270) and float(osd.get("orientation_conf", 0)) >= ORIENTATION_MIN_OSD else 0

    def check_layer(self, page: pymupdf.Page, band: pymupdf.Rect) -> OcrPage:
        """Read only ``band`` (:func:`layer_sample`) of scanned page ``page``, to check another
        tool's text layer against it; the result remembers the band (``clip``)."""
        result = self.recognize(page, clip=band)
        result.clip = tuple(round(v, 2) for v in band)
        return result

    def read_pictures(self, page: pymupdf.Page, regions: list[pymupdf.Rect]) -> OcrPage | None:
        """Words of the pictures ``regions`` (:func:`picture_regions`) of text page ``page``
        (:func:`read_pictures`), or None when none of their words is read with confidence."""
        result = read_pictures(self, page, regions) if regions else None
        return result if result is not None and result.words else None


def picture_regions(
    page: pymupdf.Page,
    visible: list[tuple[float, float, float, float]],
    images: list[pymupdf.Rect],
    invisible: Sequence[tuple[float, float, float, float]] = (),
) -> list[pymupdf.Rect]:
    """Pictures on a text page large enough to hold readable text (a pasted ID card, a scanned
    annex, a certificate): at least ``PICTURE_MIN_WIDTH`` × ``PICTURE_MIN_HEIGHT`` points and
    ``PICTURE_MIN_SHARE`` of the page, on an unrotated page, with fewer than
    ``PICTURE_MAX_CHARS_OVER`` of the ``visible`` character boxes (points, ``(x0, y0, x1, y1)``)
    of the text layer on it. ``images`` are the page's image boxes
    (:func:`~redactor.pdf.pdf_pages.image_boxes`). Their text is read by OCR, since no visible
    text describes it; an invisible layer laid over such a picture (another tool's OCR, maybe a
    line off) is not trusted. A smaller picture (down to ``LAYERED_MIN_WIDTH`` ×
    ``LAYERED_MIN_HEIGHT``) is read too when ``invisible`` character boxes (another tool's
    invisible layer) lie on it or a line off it (:func:`layer_area`): the pixels, not that layer,
    decide where its boxes go."""
    if page.rotation:
        return []
    area = abs(page.rect) or 1.0
    out: list[pymupdf.Rect] = []
    for image in images:
        rect = image & page.rect
        x0, y0, x1, y1 = layer_area(rect)
        layered = sum(1 for a, b, c, d in invisible if x0 <= (a + c) / 2 <= x1 and y0 <= (b + d) / 2 <= y1)
        x0, y0, x1, y1 = rect
        small = (
            rect.width < PICTURE_MIN_WIDTH or rect.height < PICTURE_MIN_HEIGHT or abs(rect) < PICTURE_MIN_SHARE * area
        )
        if small and not (layered >= 3 and rect.width >= LAYERED_MIN_WIDTH and rect.height >= LAYERED_MIN_HEIGHT):
            continue
        # a picture with visible text laid over it (a scan under its own text) is described by that text
        over = sum(1 for a, b, c, d in visible if x0 <= (a + c) / 2 <= x1 and y0 <= (b + d) / 2 <= y1)
        if over >= PICTURE_MAX_CHARS_OVER:
            continue
        if not any(rect in r for r in out):
            out.append(rect)
    return out


def described_pictures(
    page: pymupdf.Page, visible: list[tuple[float, float, float, float]], images: list[pymupdf.Rect]
) -> list[pymupdf.Rect]:
    """The pictures of ``page`` (``images``, points) that the text layer describes: at least
    :data:`PICTURE_MAX_CHARS_OVER` of its ``visible`` character boxes lie on them (a scan under its
    own visible text). Their ink is the text's, not text of their own to read."""
    out = []
    for image in images:
        x0, y0, x1, y1 = image & page.rect
        over = sum(1 for a, b, c, d in visible if x0 <= (a + c) / 2 <= x1 and y0 <= (b + d) / 2 <= y1)
        if over >= PICTURE_MAX_CHARS_OVER:
            out.append(pymupdf.Rect(x0, y0, x1, y1))
    return out


def layer_area(picture: pymupdf.Rect) -> pymupdf.Rect:
    """Where another tool's invisible OCR layer of ``picture`` (points) may lie: the picture and a
    line above and below it (its height, at least 14 points), since such a layer may be a line
    off the pixels. That layer gives way to the picture's OCR words and is removed at burn-in."""
    grow = max(picture.height, 14.0)
    return pymupdf.Rect(picture.x0, picture.y0 - grow, picture.x1, picture.y1 + grow)


def read_pictures(ocr: TesseractOcr, page: pymupdf.Page, regions: list[pymupdf.Rect]) -> OcrPage:
    """OCR words of ``regions`` of ``page`` (:func:`picture_regions`) as one :class:`OcrPage`;
    words under ``PICTURE_MIN_CONFIDENCE`` (logos, signatures read as noise) are left out, each
    region's lines are numbered apart from the others'."""
    result = OcrPage(page.number + 1)
    for k, rect in enumerate(regions):
        part = ocr.recognize(page, clip=rect)
        result.seconds += part.seconds
        for w in part.words:
            if w.confidence >= PICTURE_MIN_CONFIDENCE:
                result.words.append(
                    OcrWord(w.text, w.x0, w.y0, w.x1, w.y1, w.confidence, (1000 * (k + 1) + w.line[0], *w.line[1:]))
                )
    return result


class ReadAhead:
    """Whole pages of one document read by Tesseract in threads ahead of extraction
    (:meth:`TesseractOcr.read_ahead`): :meth:`take` a page's result in page order; pages are
    rendered in the caller's thread (MuPDF is not thread-safe), :attr:`~TesseractOcr.parallel`
    at most ahead. :meth:`close` ends it (also after an error)."""

    def __init__(
        self,
        ocr: TesseractOcr,
        doc: pymupdf.Document,
        numbers: list[int],
        bands: dict[int, pymupdf.Rect] | None = None,
    ):
        from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415 - only with parallel OCR

        self.ocr, self.doc = ocr, doc
        self.bands = dict(bands or {})
        self.waiting = sorted({*numbers, *self.bands})
        self.pool = ThreadPoolExecutor(ocr.parallel, thread_name_prefix="ocr")
        self.pending: dict[int, Future[OcrPage]] = {}
        self.limit = thread_limit(ocr.threads)  # once for every thread's Tesseract
        self.limit.__enter__()

    def _fill(self) -> None:
        while self.waiting and len(self.pending) < self.ocr.parallel:
            number = self.waiting.pop(0)
            self.pending[number] = self.pool.submit(self.ocr.start(self.doc[number - 1], self.bands.get(number)))

    def take(self, number: int, band: pymupdf.Rect | None = None) -> OcrPage | None:
        """The read of page ``number`` (of its ``band``, as :meth:`TesseractOcr.check_layer` reads
        it), or None when it was not read ahead so (then the caller reads it itself)."""
        for skipped in [k for k in self.pending if k < number]:  # extraction took another way there
            self.pending.pop(skipped).cancel()
        self._fill()
        ahead_band = self.bands.get(number)
        if (band is None) != (ahead_band is None) or (band is not None and pymupdf.Rect(band) != ahead_band):
            return None  # read ahead otherwise (or not at all): left to finish, unused
        future = self.pending.pop(number, None)
        if future is None:
            return None
        result = future.result()
        if band is not None:
            result.clip = tuple(round(v, 2) for v in band)
        self._fill()
        return result

    def close(self) -> None:
        """Stop reading ahead and put the thread limit back."""
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.limit.__exit__(None, None, None)


#: Share of a proposal's words that OCR must read inside its boxes for another tool's layer to be
#: trusted there, and how alike (0..1, difflib) a read word must be to count.
BOX_MIN_AGREEMENT = 0.5
BOX_WORD_SIMILARITY = 0.7


def layers_off(
    ocr: PageReader, doc: pymupdf.Document, pages: Iterable[PageInfo], proposals: Iterable[ProposedRedaction]
) -> set[int]:
    """Pages (from 1) whose kept OCR layer of another tool is off the pixels where a proposal to
    redact or review lies: OCR reads a band around each of the proposal's boxes (the box and a
    line above and below), and fewer than :data:`BOX_MIN_AGREEMENT` of the proposal's words
    (three letters or more) are read inside the box. The band check of the whole layer
    (:func:`layer_sample`) would miss a block that alone sits a line off; a box placed by such a
    layer would black out the wrong line and leave the name readable in the picture. ``layer``
    are the :class:`~redactor.read.extraction.TextLayer`'s pages, ``proposals`` its proposals;
    unrotated pages only. Tesseract reads :attr:`~TesseractOcr.parallel` bands at once."""

    kept = {p.number for p in pages if p.scan_layer}
    checks: list[tuple[int, list[str], list[pymupdf.Rect]]] = []  # page, words wanted, rectangles
    for proposal in proposals:
        if proposal.action.value == "keep" or proposal.page not in kept:
            continue
        want = [w for w in (re.sub(r"\W", "", t).lower() for t in proposal.text.split()) if len(w) >= 3]
        if doc[proposal.page - 1].rotation or not want:
            continue
        checks.append((proposal.page, want, [pymupdf.Rect(b.x0, b.y0, b.x1, b.y1) for b in proposal.boxes]))
    bands = [
        (number, (rect + (-10, -1.5 * rect.height, 10, 1.5 * rect.height)) & doc[number - 1].rect)
        for number, _want, rects in checks
        for rect in rects
    ]
    # in parallel every band is read at once; one at a time, a page found off is not read further
    ahead = _read_bands(ocr, doc, bands) if _in_parallel(ocr, len(bands)) else None
    off: set[int] = set()  # a page is off when one proposal on it is: the order of the checks does not matter
    at = 0
    for number, want, rects in checks:
        at += len(rects)
        if number in off:
            continue
        read: list[str] = []
        looked = False
        for k, rect in enumerate(rects):
            inside = rect + (-2, -0.25 * rect.height, 2, 0.25 * rect.height)
            index = at - len(rects) + k
            reading = ahead[index] if ahead is not None else ocr.recognize(doc[number - 1], clip=bands[index][1])
            if reading is None:
                continue  # a replay reads nothing new
            looked = True
            for w in reading.words:
                if inside.contains(pymupdf.Point((w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2)):
                    read.append(re.sub(r"\W", "", w.text).lower())
        found = sum(
            1 for w in want if any(difflib.SequenceMatcher(None, w, r).ratio() >= BOX_WORD_SIMILARITY for r in read)
        )
        if looked and found < BOX_MIN_AGREEMENT * len(want):
            off.add(number)
    return off


def _in_parallel(ocr: PageReader, reads: int) -> TypeGuard[TesseractOcr]:
    """Whether ``reads`` bands are read by Tesseract :attr:`TesseractOcr.parallel` at a time."""
    return isinstance(ocr, TesseractOcr) and ocr.parallel > 1 and reads > 1 and ocr.available()


def _read_bands(ocr: TesseractOcr, doc: pymupdf.Document, bands: list[tuple[int, pymupdf.Rect]]) -> list[OcrPage]:
    """What Tesseract reads in each ``(page number, band)``, in order, :attr:`TesseractOcr.parallel`
    at once (rendered in this thread, MuPDF being single-threaded; each read by its own Tesseract
    process)."""
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415 - only with parallel OCR

    with thread_limit(ocr.threads), ThreadPoolExecutor(ocr.parallel, thread_name_prefix="ocr") as pool:
        futures = [pool.submit(ocr.start(doc[number - 1], band)) for number, band in bands]
        return [future.result() for future in futures]


@contextlib.contextmanager
def thread_limit(threads: int) -> Iterator[None]:
    """Tesseract's OpenMP threads set to ``threads`` for the reads made inside (one setting for all
    the threads that run them, put back after)."""
    env = os.environ.get("OMP_THREAD_LIMIT")
    os.environ["OMP_THREAD_LIMIT"] = str(threads)
    try:
        yield
    finally:
        if env is None:
            os.environ.pop("OMP_THREAD_LIMIT", None)
        else:
            os.environ["OMP_THREAD_LIMIT"] = env
