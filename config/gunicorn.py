"""gunicorn's settings (bin/serve passes ``--config``): each web worker runs under a memory cap and
is replaced when it has grown, so no request can take the machine's memory or keep what one
large request left behind.

- ``REDACTOR_WEB_MEMORY_BYTES`` (1 GiB): what a worker may allocate above what it held when it was
  forked (``RLIMIT_AS``, :func:`contracts.memory.limit_memory`); past it, the request fails instead
  of the machine.
- ``REDACTOR_WEB_RECYCLE_BYTES`` (512 MiB): a worker whose resident memory has passed this after a
  request finishes it and is replaced by a fresh one (gunicorn's graceful worker restart).
- ``GUNICORN_MAX_REQUESTS`` (2000): a worker is replaced after this many requests anyway (with a
  10 % jitter so that workers are not replaced all at once).
"""

from __future__ import annotations

from config.env import env_int
from contracts.memory import limit_memory, resident

#: gunicorn's access log line with the client's address nginx saw (X-Real-IP; gunicorn's own
#: ``%(h)s`` is the Unix socket nginx connects through) and the time taken (ms)
access_log_format = '%({x-real-ip}i)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'

max_requests = env_int("GUNICORN_MAX_REQUESTS", 2000)
max_requests_jitter = max_requests // 10
_ALLOWANCE = env_int("REDACTOR_WEB_MEMORY_BYTES", 1024**3)
_RECYCLE = env_int("REDACTOR_WEB_RECYCLE_BYTES", 512 * 1024**2)


def post_fork(server, worker):
    """In each new worker: cap its memory."""
    cap = limit_memory(_ALLOWANCE)
    worker.log.info("web worker %s: address space capped at %s bytes", worker.pid, cap)


def post_request(worker, req, environ, resp):
    """After each request: a worker grown past the recycling size finishes and is replaced."""
    size = resident()
    if size > _RECYCLE and worker.alive:
        worker.log.warning("web worker %s holds %d MB after a request: replaced", worker.pid, size >> 20)
        worker.alive = False
