"""Periodic jobs, loaded by RQ's cron scheduler: ``manage.py rqcron contracts.cron`` (bin/start
and the container run it next to the workers). No page or API read writes; what must happen
without a request happens here."""

from rq import cron

from contracts.jobs import fail_stale_runs

#: Seconds between two checks for runs whose worker died (the run's own staleness threshold is
#: ``REDACTOR_JOB_STALE_SECONDS``).
STALE_RUN_CHECK_SECONDS = 60

cron.register(fail_stale_runs, "default", interval=STALE_RUN_CHECK_SECONDS)
