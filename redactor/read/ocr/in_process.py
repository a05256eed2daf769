"""Tesseract through its C++ API in this process (tesserocr), for the readings of small pictures:
the font check's samples (:mod:`redactor.read.lying_layer`), the pictures' second reading and the
reader's check read many strips and whole pages of one document, and a ``tesseract`` process per
call spends most of a strip's time starting and loading its model.

API objects are made on first use (a model loads in about 0.1 s) and kept for the process, one
per reading at once: a thread takes an idle one and puts it back, so a job loads its model once
whatever threads read its pages. The worker's warm-up contract
(:func:`contracts.worker.warm_engine`) makes one before the worker forks its first horse, so every
horse starts with the model loaded, shared copy-on-write. Tesseract runs single-threaded here
(the wheel's library is built without OpenMP). The words come back as Tesseract's TSV, the same
columns ``pytesseract.image_to_data`` gives, so both ways read alike. The library's wheel carries
its own libtesseract (5.5); the models are the system's (``tesseract --list-langs`` names their
folder).
"""

from __future__ import annotations

import functools
import re
import subprocess
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

#: Idle API objects by language: a thread takes one for a reading and puts it back, so the
#: models stay loaded across the threads of successive documents.
_IDLE: dict[str, list[Any]] = {}
_LOCK = threading.Lock()


@functools.cache
def tessdata_dir() -> str | None:
    """The folder of the installed Tesseract models, as the ``tesseract`` program names it; None
    when the program is missing."""
    try:
        listed = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.search(r'"([^"]+)"', listed.stdout + listed.stderr)
    return found.group(1) if found else None


@functools.cache
def usable() -> bool:
    """Whether tesserocr imports and the system's models can be found."""
    try:
        # optional (the program is the fallback); the package ships no type information
        import tesserocr  # type: ignore[import-untyped]  # noqa: F401, PLC0415
    except ImportError:
        return False
    return tessdata_dir() is not None


def _take(language: str) -> Any:
    """An idle API object for ``language``, made when none is idle."""
    with _LOCK:
        idle = _IDLE.setdefault(language, [])
        if idle:
            return idle.pop()
    import tesserocr  # noqa: PLC0415

    return tesserocr.PyTessBaseAPI(path=tessdata_dir(), lang=language)


def _put_back(language: str, api: Any) -> None:
    with _LOCK:
        _IDLE.setdefault(language, []).append(api)


def image_to_data(image: Image.Image, language: str, psm: int) -> dict[str, list[Any]]:
    """Tesseract's words of ``image`` as ``pytesseract.image_to_data(…, output_type=DICT)`` gives
    them (``text``, ``conf``, ``left``, ``top``, ``width``, ``height``, ``block_num``, ``par_num``,
    ``line_num``; pixels of ``image``), read with segmentation mode ``psm``."""
    api = _take(language)
    try:
        api.SetPageSegMode(psm)
        api.SetImage(image)
        api.Recognize()
        tsv = api.GetTSVText(0)
        api.Clear()
    finally:
        _put_back(language, api)
    keys = ("block_num", "par_num", "line_num", "left", "top", "width", "height", "conf", "text")
    data: dict[str, list[Any]] = {k: [] for k in keys}
    for row in tsv.splitlines():
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5":
            continue
        _level, _page, block, par, line, _word, left, top, width, height, conf = cells[:11]
        for key, value in zip(keys, (block, par, line, left, top, width, height), strict=False):
            data[key].append(int(value))
        data["conf"].append(float(conf))
        data["text"].append("\t".join(cells[11:]))
    return data
