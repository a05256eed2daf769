"""Writes on contracts, one module per family of operations; the HTML views, the API views, the
management commands and the jobs call these and nothing else to change a contract.

- :mod:`.uploads`: checks of an upload, storing it, idempotent uploads;
- :mod:`.runs`: the life of a background run (queue, claim, progress, failure, retry);
- :mod:`.processing`: the processing job (extraction, detection, proposals);
- :mod:`.reviewing`: reviewer decisions, undo, manual boxes and what they teach;
- :mod:`.publishing`: approval, the publishing job (burn-in, verification), downloads, deletion;
- :mod:`.webhooks`: notifications to agencies' systems;
- :mod:`.common`: the audit trail and the status rule every write shares.

Every service that changes state writes an :class:`~contracts.models.AuditEvent` in the same
transaction. Role checks live here too (:func:`accounts.access.require_role`), so that the doors
cannot disagree; ``user=None`` is the system itself (jobs, management commands).
"""
