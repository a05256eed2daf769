"""``manage.py redact FILE [FILE ...] --out-dir DIR [--policy MAP.json] [--profile PROFILE.json | --agency ICO]
[--report]``"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from policy.batch import redact_file
from policy.management.policy import load_policy, load_profile
from policy.runtime import get_engine


class Command(BaseCommand):
    help = (
        "Redact PDF contracts: accept every proposal whose action is 'redact', burn it in, verify the "
        "result and write DIR/<name>.pdf, its companion text DIR/<name>.txt (the published text without the "
        "redacted data, UTF-8) and DIR/<name>.json. One line per file; exit status 1 if any failed."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="PDF files to redact")
        parser.add_argument("--out-dir", required=True, metavar="DIR", help="directory for the outputs")
        parser.add_argument("--policy", metavar="MAP.json", help="category map (default: the platform map)")
        parser.add_argument(
            "--profile",
            metavar="PROFILE.json",
            help="the publishing agency's own identity (names, addresses, accounts, phones, e-mail domains, "
            "officials), whose values are kept",
        )
        parser.add_argument("--agency", metavar="ICO", help="take the profile in force of this agency in the database")
        parser.add_argument(
            "--report", action="store_true", help="also print every proposal (action, category, page, text, reason)"
        )

    def handle(self, *args, **options):
        out_dir = Path(options["out_dir"])
        category_map = load_policy(options["policy"])
        profile = load_profile(options["profile"], options["agency"])
        engine = get_engine()
        failed = 0
        for name in options["files"]:
            outcome = redact_file(
                engine,
                Path(name),
                out_dir,
                category_map=category_map,
                profile=profile,
                max_bytes=settings.REDACTOR_MAX_UPLOAD_BYTES,
            )
            if outcome.ok:
                self.stdout.write(f"{name}: ok, {outcome.message} -> {outcome.pdf_path}")
            else:
                failed += 1
                self.stdout.write(f"{name}: error: {outcome.message}")
            if options["report"] and outcome.analysis is not None:
                self._report(outcome.analysis)
        if failed:
            raise SystemExit(1)

    def _report(self, analysis):
        for party in analysis.parties:
            self.stdout.write(f"    party {party.index}: {party.kind.value} {party.label!r} {party.name!r}")
        for p in analysis.proposals:
            self.stdout.write(
                f"    {p.action.value:<6} p.{p.page} [{p.category} {p.category_name}] {p.text!r}: {p.reason}"
            )
