"""The contracts' periodic jobs, loaded by RQ's cron scheduler through :mod:`config.cron`
(``manage.py rqcron config.cron``; bin/start and the container run it next to the workers). No
page or API read writes; what must happen without a request happens here."""

from rq import cron

from contracts.jobs import fail_stale_runs, offer_lost_runs, prune_exports, sweep_storage

#: Seconds between two checks for runs whose worker died (the run's own staleness threshold is
#: ``REDACTOR_JOB_STALE_SECONDS``).
STALE_RUN_CHECK_SECONDS = 60

cron.register(fail_stale_runs, "default", interval=STALE_RUN_CHECK_SECONDS)
# queued runs whose job Redis lost (the quick start's Redis keeps nothing on disk across a restart)
cron.register(offer_lost_runs, "default", interval=STALE_RUN_CHECK_SECONDS)
# bulk exports' zips outlive their job's result by at most this long
cron.register(prune_exports, "default", interval=600)
# files no contract names (a removal that failed, a rolled-back upload): once a day
cron.register(sweep_storage, "default", interval=24 * 3600)
