#!/usr/bin/env python
"""Print the registry metadata pre-filled from each PDF of a folder, for reading by eye (issue 32).

usage: .venv/bin/python benchmarks/registry_prefill.py SRC_DIR [--profiles DIR] [--json OUT.json]

Each document's fields are printed with the line they were read from, so that a reader can mark
each one right, wrong or empty against the PDF; docs/registry.md's pre-fill table counts those marks. The
publishing agency's profile is taken as ``benchmarks/real_with_profiles.py`` takes it (the
registry record names the publisher; the profile tells its own party apart).
"""

import argparse
import fnmatch
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from policy.runtime import get_engine  # noqa: E402
from redactor.detect.profile import AgencyProfile  # noqa: E402
from redactor.errors import RedactionError  # noqa: E402
from redactor.metadata import prefill  # noqa: E402

FIELDS = ("subject", "date_concluded", "number", "signed_by", "value_without_vat", "value_with_vat", "foreign_value")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("src", type=Path)
    parser.add_argument("--profiles", type=Path, default=Path(__file__).resolve().parent / "profiles")
    parser.add_argument("--json", type=Path, help="also write every document's metadata to this file")
    args = parser.parse_args()
    profiles = []
    for path in sorted(args.profiles.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        profiles.append((data.pop("publisher_of", []), AgencyProfile.from_dict(data)))
    engine = get_engine()
    everything = {}
    for pdf in sorted(args.src.glob("*.pdf")):
        profile = next((p for patterns, p in profiles if any(fnmatch.fnmatch(pdf.stem, g) for g in patterns)), None)
        try:
            analysis = engine.analyze(pdf.read_bytes(), profile=profile)
        except RedactionError as exc:
            print(f"== {pdf.name}: {exc}")
            continue
        meta = prefill(analysis, profile).to_dict()
        everything[pdf.name] = meta
        sources = meta["sources"]
        print(f"== {pdf.name}{' [profile]' if profile else ''}")
        for name in FIELDS:
            where = sources.get(name) or {}
            shown = meta[name] if meta[name] not in (None, "") else "—"
            print(f"  {name:<18} {shown!s:<60} p.{where.get('page', '-')}: {where.get('text', '')[:90]}")
        for i, party in enumerate(meta["parties"], 1):
            facts = ", ".join(
                f"{k}={party[k]}" for k in ("ico", "data_box", "address", "recipient") if party[k] not in ("", None)
            )
            print(f"  party {i:<12} {party['name'][:60]:<60} {facts}")
        print(f"  own party          {(sources.get('publisher') or {}).get('text', '—')[:90]}")
    if args.json:
        args.json.write_text(json.dumps(everything, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
