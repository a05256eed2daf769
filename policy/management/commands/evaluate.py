"""``manage.py evaluate GOLD_DIR [--out-dir DIR] [--policy MAP.json]``"""

from __future__ import annotations

import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from policy.batch import redact_file
from policy.evaluation import evaluate
from policy.management.policy import load_policy
from policy.runtime import get_engine


class Command(BaseCommand):
    help = (
        "Redact every PDF of a gold directory (NAME.pdf + NAME.json) as 'manage.py redact' does and print "
        "leak and over-redaction rates per category."
    )

    def add_arguments(self, parser):
        parser.add_argument("gold_dir", metavar="GOLD_DIR")
        parser.add_argument("--out-dir", metavar="DIR", help="keep the redacted files here (default: a temp dir)")
        parser.add_argument("--policy", metavar="MAP.json", help="category map (default: the platform map)")

    def handle(self, *args, **options):
        gold_dir = Path(options["gold_dir"])
        if not gold_dir.is_dir() or not any(gold_dir.glob("*.json")):
            raise CommandError(f"{gold_dir} holds no gold files (NAME.pdf + NAME.json)")
        category_map = load_policy(options["policy"])
        with tempfile.TemporaryDirectory() as tmp:
            out_dir = Path(options["out_dir"] or tmp)
            engine = get_engine()
            failures = 0
            for pdf in sorted(gold_dir.glob("*.pdf")):
                outcome = redact_file(
                    engine, pdf, out_dir, category_map=category_map, max_bytes=settings.REDACTOR_MAX_UPLOAD_BYTES
                )
                if not outcome.ok:
                    failures += 1
                    self.stdout.write(f"{pdf.name}: error: {outcome.message}")
            result = evaluate(gold_dir, out_dir)
        self._print(result)
        if failures:
            raise SystemExit(1)

    def _print(self, result):
        w = self.stdout.write
        w(f"{'must redact: category / map category':<58} {'leaked':>12} {'leak rate':>10}")
        for key, tally in sorted(result.leaks_by_category.items()):
            w(f"{key:<58} {f'{tally.failed}/{tally.total}':>12} {tally.rate:>10.2%}")
        w(f"{'must keep: category':<58} {'lost':>12} {'over-red.':>10}")
        for key, tally in sorted(result.over_by_category.items()):
            w(f"{key:<58} {f'{tally.failed}/{tally.total}':>12} {tally.rate:>10.2%}")
        for miss in result.misses:
            w(f"  {miss}")
        w(
            f"documents={result.documents} missing={len(result.missing)} "
            f"leak_rate={result.leaks.rate:.2%} ({result.leaks.failed}/{result.leaks.total}) "
            f"over_redaction={result.over.rate:.2%} ({result.over.failed}/{result.over.total})"
        )
