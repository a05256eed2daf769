#!/usr/bin/env python
"""Redact a folder of PDFs with the publishing agency's profile for each (issue 31's measure).

usage: .venv/bin/python benchmarks/real_with_profiles.py SRC_DIR OUT_DIR [--profiles DIR]
then:  .venv/bin/python ../shared/tools/score_redaction.py SRC_DIR OUT_DIR

Each ``DIR/*.json`` (default ``benchmarks/profiles/``) is an agency profile
(:meth:`redactor.detect.profile.AgencyProfile.to_dict`) with ``publisher_of``: the file-name
patterns of the contracts that agency published (the registry record names the publisher; a
scan carries no text to tell it). Only public facts about public bodies are in them: names,
IČO, seat, e-mail domain. A PDF no profile claims is redacted without one.
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

from policy.batch import redact_file  # noqa: E402
from policy.runtime import get_engine  # noqa: E402
from redactor.detect.profile import AgencyProfile  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("src", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--profiles", type=Path, default=Path(__file__).resolve().parent / "profiles")
    args = parser.parse_args()
    profiles = []
    for path in sorted(args.profiles.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        profiles.append((data.pop("publisher_of", []), AgencyProfile.from_dict(data), path.stem))
    engine = get_engine()
    claimed = 0
    for pdf in sorted(args.src.glob("*.pdf")):
        match = next(
            ((p, name) for patterns, p, name in profiles if any(fnmatch.fnmatch(pdf.stem, g) for g in patterns)), None
        )
        profile, name = match if match else (None, "-")
        claimed += match is not None
        outcome = redact_file(engine, pdf, args.out, profile=profile)
        print(f"{pdf.name} [{name}]: {'ok' if outcome.ok else 'error'}, {outcome.message[:120]}")
    print(f"{claimed} of the PDFs redacted with their publisher's profile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
