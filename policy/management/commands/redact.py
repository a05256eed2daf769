"""``manage.py redact FILE [FILE ...] --out-dir DIR [--policy MAP.json] [--profile PROFILE.json | --agency ICO]
[--report] [--text-export MODE] [--jobs N]``"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from policy.management.cli_batch import redact_batch
from policy.management.policy import load_policy, load_profile
from redactor import text_export

#: Exit status when every file was written but some still show personal data nobody decided.
REVIEW_NEEDED = 3


class Command(BaseCommand):
    help = (
        "Redact PDF contracts: accept every proposal whose action is 'redact', burn it in, verify the "
        "result and write DIR/<name>.pdf, its companion text DIR/<name>.txt (the published text without the "
        "redacted data, UTF-8) and DIR/<name>.json. One line per file; exit status 1 if any failed, 3 if none "
        "failed but a written PDF still shows personal data that nobody decided (listed as review items in its "
        "JSON: review it before publishing)."
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
        parser.add_argument(
            "--text-export",
            action="append",
            choices=text_export.MODES,
            default=[],
            metavar="MODE",
            help="also write DIR/<name>.MODE.txt, the text export of the same decisions "
            f"({', '.join(text_export.MODES)}; repeat for several)",
        )
        parser.add_argument(
            "--jobs",
            type=int,
            metavar="N",
            help="files redacted at once, one process each (default: the cores this process may use); the cores "
            "left over read a scan's pages at once",
        )

    def handle(self, *args, **options):
        out_dir = Path(options["out_dir"])
        category_map = load_policy(options["policy"])
        profile = load_profile(options["profile"], options["agency"])
        if options["jobs"] is not None and options["jobs"] < 1:
            raise CommandError("--jobs must be 1 or more")
        failed = review = 0
        for line in redact_batch(
            options["files"],
            out_dir,
            category_map=category_map,
            profile=profile,
            max_bytes=settings.REDACTOR_MAX_UPLOAD_BYTES,
            report=options["report"],
            jobs=options["jobs"],
            text_exports=tuple(options["text_export"]),
        ):
            if line.ok:
                self.stdout.write(f"{line.name}: ok, {line.message} -> {line.pdf_path}")
            else:
                failed += 1
                self.stdout.write(f"{line.name}: error: {line.message}")
            review += line.review_needed > 0
            for text in line.report:
                self.stdout.write(text)
        if failed:
            raise SystemExit(1)
        if review:
            raise SystemExit(REVIEW_NEEDED)
