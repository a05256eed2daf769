"""Periodic jobs, loaded by RQ's cron scheduler: ``manage.py rqcron contracts.cron`` (bin/start
and the container run it next to the workers). No page or API read writes; what must happen
without a request happens here."""

from django.conf import settings
from rq import cron

from contracts.jobs import fail_stale_runs, fetch_registry_replies, prune_exports, sweep_storage

#: Seconds between two checks for runs whose worker died (the run's own staleness threshold is
#: ``REDACTOR_JOB_STALE_SECONDS``).
STALE_RUN_CHECK_SECONDS = 60

cron.register(fail_stale_runs, "default", interval=STALE_RUN_CHECK_SECONDS)
# the registry of contracts replies into the agency's data box, minutes after a submission
cron.register(fetch_registry_replies, "default", interval=settings.REDACTOR_REGISTRY_POLL_SECONDS)
# bulk exports' zips outlive their job's result by at most this long
cron.register(prune_exports, "default", interval=600)
# files no contract names (a removal that failed, a rolled-back upload): once a day
cron.register(sweep_storage, "default", interval=24 * 3600)
