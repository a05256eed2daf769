"""``manage.py registry_audit_dump DUMP [--ico ICO] [--csv FILE]``

Which records of a registry's monthly open-data dump (``dump_mesice.xsd``, as the registry
publishes it) name private persons as parties in their published metadata: each party is read by
the engine (:func:`redactor.metadata.metadata_exposures`) as a contract's header would introduce
it. ``--ico`` keeps the records an agency published (its IČO as the publisher). Prints the counts;
``--csv`` writes one row per party that names a person (record, link, party, kind, whether the
name is known to the gazetteer, the fields exposed). Nothing is sent to the registry.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from policy.runtime import get_engine
from redactor import metadata
from registry import isrs


class Command(BaseCommand):
    help = "List the records of a registry dump whose published metadata names private persons as parties."

    def add_arguments(self, parser):
        parser.add_argument("dump", type=Path, help="a monthly open-data dump of the registry of contracts (XML)")
        parser.add_argument("--ico", default="", help="only the records this IČO published")
        parser.add_argument("--csv", type=Path, help="write a row per party that names a person here")

    def handle(self, *args, dump: Path, ico: str, csv: Path | None, **options):
        try:
            records = isrs.parse_dump(dump.read_bytes())
        except OSError as exc:
            raise CommandError(f"cannot read {dump}: {exc.strerror or exc}") from None
        except isrs.RegistryXmlError as exc:
            raise CommandError(f"{dump} is not a valid registry dump: {exc}") from None
        if ico:
            records = [r for r in records if r.metadata.publisher.ico == ico]
        engine = get_engine()
        if not engine.loaded:
            engine.load()
        rows: list[list[object]] = []
        kinds: Counter[str] = Counter()
        known: Counter[bool] = Counter()
        named = 0
        for record in records:
            exposures = metadata.metadata_exposures(engine, record.metadata)
            named += bool(exposures)
            for found in exposures:
                party = record.metadata.parties[found.index - 1]
                kinds[found.kind.value] += 1
                known[found.known] += 1
                rows.append(
                    [record.record_id, record.version_id, record.link, found.index, found.kind.value,
                     "yes" if found.known else "no", " ".join(found.fields), party.name, party.ico]
                )  # fmt: skip
        parties = sum(len(r.metadata.parties) for r in records)
        self.stdout.write(
            f"{len(records)} records, {parties} parties: {named} records name a private person as a party "
            f"({sum(kinds.values())} parties: {kinds['sole_trader']} sole traders, {kinds['natural_person']} natural "
            f"persons; {known[True]} with a name the gazetteer knows, {known[False]} by the entry's shape alone)"
        )
        if csv is not None:
            _write(csv, rows)
            self.stdout.write(f"{len(rows)} rows written to {csv}")


def _write(path: Path, rows: list[list[object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["record", "version", "link", "party", "kind", "known_name", "fields", "name", "ico"])
        writer.writerows(rows)
