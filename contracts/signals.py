"""What happens to a contract, announced to the apps above contracts (the registry) so that
contracts never import them (Django signals, sent inside the service's transaction: a receiver's
writes commit or roll back with the service's).

- :data:`contract_processed` — the engine analysed the contract and its proposals are stored
  (status *needs review*). Arguments: ``contract`` (saved), ``analysis`` (the engine's
  :class:`redactor.Analysis`), ``profile`` (the :class:`redactor.AgencyProfile` it was decided
  with). The registry pre-fills the contract's registry metadata from it.
"""

from __future__ import annotations

from django.dispatch import Signal

contract_processed = Signal()
