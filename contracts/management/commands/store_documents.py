"""``manage.py store_documents``: once after upgrading, store the document (the rebuilt PDF with
its analysed layer, :class:`redactor.StoredDocument`) of every contract processed before the
product kept it (:func:`contracts.services.processing.contract_document_store`), so that review
and publishing never open their originals again. Until then such a contract's document is built
from its original at each use. Safe to run again: a contract whose document is stored is left
alone."""

from django.core.management.base import BaseCommand

from contracts.models import Contract, Status
from contracts.services.processing import contract_document_store
from redactor import errors


class Command(BaseCommand):
    help = "Store the document of every contract processed before documents were stored (once, after upgrading)."

    def handle(self, *args, **options):
        pending = (
            Contract.objects.exclude(status__in=[Status.DELETED, Status.UPLOADED, Status.PROCESSING])
            .exclude(pages=[])
            .select_related("agency")
            .order_by("pk")
        )
        stored = left = failed = 0
        for contract in pending.iterator():
            try:
                if contract_document_store(contract=contract):
                    stored += 1
                else:
                    left += 1
            except (errors.RedactionError, OSError) as exc:
                failed += 1
                self.stderr.write(f"contract {contract.pk}: {exc}")
        self.stdout.write(f"{stored} documents stored, {left} already stored or not processed, {failed} failed.")
        if failed:
            raise SystemExit(1)
