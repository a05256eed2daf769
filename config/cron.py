"""Every periodic job of the service, for RQ's cron scheduler: ``manage.py rqcron config.cron``
(bin/start and the container run one next to the workers). Each app registers its own:
:mod:`contracts.cron` (runs whose worker died, expired exports, orphaned files) and
:mod:`registry.cron` (the registry's replies)."""

import contracts.cron  # noqa: F401  (registers at import)
import registry.cron  # noqa: F401  (registers at import)
