"""``manage.py export_text FILE... --out-dir DIR``: contract text without personal data, for research."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from policy.batch import export_file
from policy.management.policy import load_policy
from policy.runtime import get_engine
from redactor import text_export


class Command(BaseCommand):
    help = (
        "Export the text of PDF contracts with the decided personal data removed ([…]), tagged "
        "([JMÉNO_1]) or pseudonymised (other names in the same case, valid fake identifiers); the "
        "decisions are those `redact` burns in. Writes NAME.MODE.txt per file (pages separated by "
        "form feeds) or one export-MODE.jsonl per mode (text and spans)."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="PDF files")
        parser.add_argument("--out-dir", required=True, metavar="DIR", help="directory for the exports")
        parser.add_argument(
            "--mode", choices=[*text_export.MODES, "all"], default="all", help="export mode (default: all)"
        )
        parser.add_argument("--format", choices=["txt", "jsonl"], default="txt", help="file format (default: txt)")
        parser.add_argument("--policy", metavar="MAP.json", help="category map (default: the platform map)")
        parser.add_argument(
            "--seed",
            metavar="SECRET",
            help="pseudonyms stay the same across files and runs with the same secret (default: new ones per file)",
        )

    def handle(self, *args, **options):
        out_dir = Path(options["out_dir"])
        out_dir.mkdir(parents=True, exist_ok=True)
        modes = list(text_export.MODES) if options["mode"] == "all" else [options["mode"]]
        category_map = load_policy(options["policy"])
        engine = get_engine()
        records: dict[str, list[str]] = {mode: [] for mode in modes}
        failed = 0
        for name in options["files"]:
            source = Path(name)
            exports, problem = export_file(
                engine,
                source,
                modes,
                category_map=category_map,
                max_bytes=settings.REDACTOR_MAX_UPLOAD_BYTES,
                seed=options["seed"].encode("utf-8") if options["seed"] else None,
            )
            if not exports:
                failed += 1
                self.stdout.write(f"{name}: error: {problem}")
                continue
            for mode, export in exports.items():
                if options["format"] == "jsonl":
                    records[mode].append(export.to_jsonl_record(source.name))
                else:
                    (out_dir / f"{source.stem}.{mode}.txt").write_text(export.text, encoding="utf-8")
            counts = ", ".join(f"{mode} {len(e.spans)} markers" for mode, e in exports.items())
            self.stdout.write(f"{name}: ok, {counts}")
        if options["format"] == "jsonl":
            for mode, lines in records.items():
                (out_dir / f"export-{mode}.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        if failed:
            raise SystemExit(1)
