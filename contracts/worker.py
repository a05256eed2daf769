"""The RQ worker of the product: the engine is loaded once, in the worker, before any job.

RQ's default worker forks a work horse for every job, and the horse dies with the job: whatever
the job loaded (the engine's modules, gazetteers, the spaCy model when one is configured, MuPDF's
and PDFium's fonts) was loaded again by the next job, 1–2 s of a 2-page contract's job. This worker
loads the engine in its own process before it takes the first job and runs one small contract
through it, so every horse forks from a warm process and shares those pages copy-on-write. The
horse is still a separate process, so RQ's job timeout still kills it, and a crash or an
out-of-memory kill of one job leaves the worker and its engine intact.

The category map and the agency's learned rules are not part of the loaded engine: each job reads
the ones in force from the database (two small queries), so a change applies to the next job
without restarting workers. A change of the engine itself (a new release, other settings) needs a
restart of the workers, as any code change does.

Selected in settings (``RQ["WORKER_CLASS"]``), so ``manage.py rqworker`` uses it everywhere.
"""

from __future__ import annotations

import gc
import logging
import time

from django.conf import settings
from django.db import connections
from rq import Worker

from contracts.memory import limit_memory

log = logging.getLogger(__name__)

#: The warm-up contract: one page with a person's name, birth number, address, account and phone,
#: a price, a date and a signature block, so that every recognizer, the decisions, the burn-in,
#: the verification and the registry's reading run once (made up values).
WARM_UP_TEXT = (
    "Kupni smlouva c. 1/2020\n"
    "Prodavajici: Jan Novak, nar. 3. 4. 1975, rodne cislo 750403/1238,\n"
    "bytem Hlavni 12, 110 00 Praha 1, cislo uctu 19-2000145399/0800, tel. 603 817 091.\n"
    "Kupujici: Mesto Dolni Lhota, ICO 00231151, zastoupene starostou.\n"
    "Kupni cena cini 120 000 Kc. V Dolni Lhote dne 5. 5. 2020\n"
    "starosta\n"
    "Ing. Petr Svoboda\n"
)


def warm_up_pdf() -> bytes:
    """A one-page PDF (A4, Helvetica) with :data:`WARM_UP_TEXT`, made in memory."""
    import pymupdf  # noqa: PLC0415 - the worker's parent only; the web never warms an engine

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), WARM_UP_TEXT, fontsize=11)
    try:
        return doc.tobytes()
    finally:
        doc.close()


def warm_storage() -> None:
    """Build the file storage's client before the fork: with ``REDACTOR_STORAGE=s3`` boto3's client
    and the models of the operations jobs use (~0.1 s each horse would pay again). No request is
    made, so the horses share no open connection with the worker or with each other; local disk
    needs nothing."""
    from django.core.files.storage import default_storage  # noqa: PLC0415

    connection = getattr(default_storage, "connection", None)  # S3Storage only
    if connection is not None:
        model = connection.meta.client.meta.service_model
        for operation in ("PutObject", "GetObject", "HeadObject", "DeleteObject", "ListObjectsV2"):
            model.operation_model(operation)


def warm_engine() -> float:
    """Load the process-wide engine (:func:`policy.runtime.get_engine`) and the job modules,
    then analyse, burn in, verify and read the registry metadata of :func:`warm_up_pdf` once
    (what a horse would otherwise build again for every job: compiled patterns, libphonenumber's
    Czech metadata); returns the seconds it took."""
    started = time.perf_counter()
    import contracts.jobs  # noqa: F401, PLC0415 - the modules every job imports, loaded before the fork
    from policy.runtime import get_engine  # noqa: PLC0415
    from redactor import metadata  # noqa: PLC0415

    engine = get_engine()
    engine.load()
    data = warm_up_pdf()
    analysis = engine.analyze(data)
    engine.redact(analysis.document or data, analysis.to_redact())
    metadata.prefill(analysis)  # the registry's reading of a processed contract, which every processing job runs
    return time.perf_counter() - started


class EngineWorker(Worker):
    """An RQ worker that loads the engine before its first job (:func:`warm_engine`); otherwise
    RQ's forking worker, job timeouts and all. Each work horse runs under a memory cap
    (:func:`contracts.memory.limit_memory`, ``REDACTOR_JOB_MEMORY_BYTES``)."""

    def handle_work_horse_killed(self, job, retpid, ret_val, rusage):
        """In the worker, when a horse ended by a signal (killed, out of memory, a crash inside a
        library): the job's own failure callback runs now — a contract's run fails with the
        clerk's sentence and its retry, an audit step or an import fails with its reason —
        instead of staying *running* until a sweep. RQ calls no job failure callback for a horse
        that dies so (rq 3.0: only for an exception inside the horse)."""
        super().handle_work_horse_killed(job, retpid, ret_val, rusage)
        callback = job.failure_callback
        if callback is None:
            return
        try:
            callback(job, self.connection, None, f"waitpid returned {ret_val}", None)
        except Exception:  # the worker goes on with its next job whatever the callback met
            log.exception("job %s: the failure callback of a killed work horse failed", job.id)
        finally:
            connections.close_all()  # the next horse must not inherit this process's connection

    def main_work_horse(self, job, queue):
        """In the forked horse only: cap its memory, then run the job as RQ does."""
        limit_memory(settings.REDACTOR_JOB_MEMORY_BYTES)
        return super().main_work_horse(job, queue)

    def work(self, *args, **kwargs):
        """Warm the engine, then take jobs as :meth:`rq.Worker.work` does, always with RQ's
        scheduler: the jobs queued with a delay (a webhook's retries) of every queue this worker
        serves are then moved to their queue in any topology, whatever flags started the worker
        (RQ's scheduler locks each queue, so one of the workers serving it acts). What is loaded
        by then is moved out of the garbage collector's sight (``gc.freeze``, as the Python
        documentation advises for a process that forks without exec): a horse's full collection
        (a long scan's job makes several) would otherwise walk, and so copy, every page of the
        engine it shares with the worker."""
        kwargs["with_scheduler"] = True
        seconds = warm_engine()
        warm_storage()
        gc.collect()
        gc.freeze()
        log.info("worker %s: engine loaded in %.2f s; its jobs share it", self.name, seconds)
        return super().work(*args, **kwargs)
