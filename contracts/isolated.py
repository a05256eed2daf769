"""The upload check (:func:`redactor.check_upload`) in a process of its own, with a memory cap
and a deadline, so that no parser that can crash or hang runs on an uploaded file inside the
process that serves other requests.

MuPDF and qpdf are C libraries: a PDF built against them (bookmarks nested sixty thousand levels
deep overflow MuPDF's C stack; millions of objects packed behind a broken cross-reference table
keep its repair busy for minutes) can end or hold the process that reads it. Each check runs in
a child forked from a small server process that has the PDF libraries loaded (Python's
``forkserver``: one per web worker, started at its first check, so a check costs a fork, not an
interpreter start). The child runs under ``RLIMIT_AS`` (:func:`contracts.memory.limit_memory`)
and ``RLIMIT_CPU``; the caller waits at most ``seconds`` and kills it after. A crash, a kill and
an exhausted cap become :class:`~redactor.errors.PdfUnreadableError`, which the upload refuses
with a sentence; the web worker and the other requests it serves go on.

No Django here: the child imports only the engine's PDF checks."""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.util
import os
import resource
import signal
import tempfile
from multiprocessing.connection import Connection
from typing import Any

from contracts.memory import limit_memory
from redactor import check_upload
from redactor.errors import InvalidPdfError, PdfUnreadableError

#: The fork server's context; it imports this module (and so the PDF libraries) once.
_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload([__name__])

log = logging.getLogger(__name__)


def _short_socket_folder() -> None:
    """The fork server listens on a Unix socket in multiprocessing's temporary folder, and such a
    path holds at most 107 bytes (unix(7)): where ``TMPDIR`` is long, that folder is made in
    ``/tmp`` instead (multiprocessing keeps the first one it made for the whole process)."""
    if len(tempfile.gettempdir()) <= 48 or not os.access("/tmp", os.W_OK):
        return
    saved, tempfile.tempdir = tempfile.tempdir, "/tmp"
    try:
        multiprocessing.util.get_temp_dir()
    finally:
        tempfile.tempdir = saved


_short_socket_folder()


def _check_in_child(conn: Connection, data: bytes, options: dict, memory_bytes: int, seconds: float) -> None:
    """In the child: cap memory and processor time, check, send back what came of it."""
    limit_memory(memory_bytes)
    _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    cpu = int(seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu if hard == resource.RLIM_INFINITY else min(cpu, hard), hard))
    try:
        facts = check_upload(data, **options)
        outcome: tuple[str, Any] = ("facts", (facts.pages, facts.scan_pages))
    except InvalidPdfError as exc:
        outcome = ("refused", exc)
    except MemoryError:
        outcome = ("refused", PdfUnreadableError("memory", seconds))
    except Exception as exc:  # a reader's own error the check did not expect (RecursionError, …)
        outcome = ("crashed", repr(exc))
    conn.send(outcome)
    conn.close()


def check_upload_isolated(data: bytes, *, seconds: float, memory_bytes: int, **options) -> tuple[int, list[int]]:
    """:func:`redactor.check_upload` of ``data`` (``options`` passed on: ``max_pages``,
    ``max_page_points``, ``limits``) in a child process of its own that may use ``memory_bytes``
    beyond what it starts with and ``seconds`` of time (wall and processor).

    Returns what the check learned: the page count and the pages that look scanned (from 1).
    Raises what the check raises
    (an :class:`~redactor.errors.InvalidPdfError` subclass), and
    :class:`~redactor.errors.PdfUnreadableError` when the child ended by a signal
    (``"crashed"``), ran out of time (``"too_slow"``, the child killed) or of memory
    (``"memory"``)."""
    receive, send = _CONTEXT.Pipe(duplex=False)
    child = _CONTEXT.Process(target=_check_in_child, args=(send, data, options, memory_bytes, seconds), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            child.kill()
            child.join()
            raise PdfUnreadableError("too_slow", seconds)
        try:
            kind, value = receive.recv()
        except (EOFError, OSError):  # the child ended without an answer: a signal, or an exit
            child.join()
            log.warning("the upload check's process ended with %s", child.exitcode)
            raise PdfUnreadableError("too_slow" if child.exitcode == -signal.SIGXCPU else "crashed", seconds) from None
    finally:
        receive.close()
    child.join()
    if kind == "crashed":
        log.warning("the upload check's reader failed: %s", value)
        raise PdfUnreadableError("crashed", seconds)
    if kind == "refused":
        raise value
    return value
