"""``manage.py registry_xml FILE [FILE ...] --out-dir DIR [--agency ICO | --profile PROFILE.json]
[--publisher-box ID --publisher-name NAME --publisher-ico ICO --publisher-address ADDR] [--unit UNIT]
[--email ADDR] [--policy MAP.json]``

The offline submission package for agencies that send through their own records system: each
PDF is redacted as ``manage.py redact`` does, and ``DIR/<name>/`` receives ``zverejneni.xml``
(validated against the registry's XSD 1.2.1) with the files it names beside it, exactly so named:
``<name>.pdf`` and ``<name>.txt``. ``DIR/<name>/metadata.json`` holds the metadata pre-filled from
the contract with where each value was found; the redaction report goes to ``DIR/<name>.json``,
outside the package. A contract that does not give a required field (the date of conclusion,
the subject, a party) gets no XML: the line says which, and the exit status is 1.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts.models import Agency
from policy.batch import redact_file
from policy.management.policy import load_policy, load_profile
from policy.runtime import get_engine
from redactor import metadata
from registry import isrs
from registry.services import publishing_body


class Command(BaseCommand):
    help = (
        "Redact PDF contracts and write, for each, DIR/<name>/zverejneni.xml (the registry of contracts' "
        "publication message, validated against its XSD) with the published PDF and text it names beside it, "
        "and DIR/<name>/metadata.json with where each value was found. Exit status 1 if any failed."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="PDF files to publish")
        parser.add_argument("--out-dir", required=True, metavar="DIR", help="directory for the packages")
        parser.add_argument("--agency", metavar="ICO", help="the publishing agency in the database (its profile, "
                            "data box, name, address and registry unit)")  # fmt: skip
        parser.add_argument("--profile", metavar="PROFILE.json", help="the publishing agency's identity (names, "
                            "IČO, data box, addresses, officials) when it is not in the database")  # fmt: skip
        parser.add_argument("--publisher-box", default="", help="subjekt/datovaSchranka (7 characters)")
        parser.add_argument("--publisher-name", default="", help="subjekt/nazev")
        parser.add_argument("--publisher-ico", default="", help="subjekt/ico")
        parser.add_argument("--publisher-address", default="", help="subjekt/adresa")
        parser.add_argument("--unit", default="", help="subjekt/utvar (department)")
        parser.add_argument("--email", default="", help="emailProPotvrzeni: where the registry sends copies")
        parser.add_argument("--policy", metavar="MAP.json", help="category map (default: the platform map)")

    def handle(self, *args, **options):
        out_dir = Path(options["out_dir"])
        category_map = load_policy(options["policy"])
        profile = load_profile(options["profile"], options["agency"])
        publisher = self._publisher(options, profile)
        engine = get_engine()
        failed = 0
        for name in options["files"]:
            source = Path(name)
            package = out_dir / source.stem
            outcome = redact_file(
                engine,
                source,
                package,
                category_map=category_map,
                profile=profile,
                max_bytes=settings.REDACTOR_MAX_UPLOAD_BYTES,
            )
            if outcome.json_path is not None and outcome.json_path.exists():  # the report is not for the registry
                shutil.move(outcome.json_path, out_dir / outcome.json_path.name)
            if not outcome.ok:
                failed += 1
                self.stdout.write(f"{name}: error: {outcome.message}")
                continue
            meta = metadata.prefill(outcome.analysis, profile, unit=publisher.unit)
            payer = meta.publisher.payer
            meta.publisher = metadata.PublishingBody(**{**publisher.__dict__, "payer": payer})
            proposals = outcome.analysis.proposals
            metadata.drop_redacted_values(
                meta, metadata.redacted_texts(proposals), metadata.redacted_names(proposals)
            )  # never what the PDF hides
            (package / "metadata.json").write_text(json.dumps(meta.to_dict(), ensure_ascii=False, indent=1), "utf-8")
            missing = isrs.missing_fields(meta)
            if missing:
                failed += 1
                self.stdout.write(
                    f"{name}: error: the contract does not give {', '.join(missing)}; no zverejneni.xml written "
                    f"(the pre-filled metadata are in {package / 'metadata.json'})"
                )
                continue
            files = [outcome.pdf_path.name, outcome.text_path.name]
            try:
                xml = isrs.publish_xml(meta, files, options["email"])
            except isrs.RegistryXmlError as exc:
                failed += 1
                self.stdout.write(f"{name}: error: the registry's schema refuses the metadata: {exc}")
                continue
            (package / isrs.FILE_NAMES["zverejneni"]).write_bytes(xml)
            self.stdout.write(f"{name}: ok, {outcome.message} -> {package / 'zverejneni.xml'}")
        if failed:
            raise SystemExit(1)

    @staticmethod
    def _publisher(options, profile) -> metadata.PublishingBody:
        if options["agency"]:
            agency = Agency.objects.filter(ico=options["agency"]).first()
            if agency is None:
                raise CommandError(f"no agency with IČO {options['agency']}")
            body = publishing_body(agency)
        else:
            body = metadata.PublishingBody(
                data_box=profile.data_box if profile else "",
                name=profile.names[0] if profile and profile.names else "",
                ico=profile.ico if profile else "",
                address=profile.addresses[0] if profile and profile.addresses else "",
            )
        for key in ("box", "name", "ico", "address"):
            given = options[f"publisher_{key}"]
            if given:
                setattr(body, "data_box" if key == "box" else key, given)
        if options["unit"]:
            body.unit = options["unit"]
        return body
