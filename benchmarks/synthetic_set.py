#!/usr/bin/env python
"""Write a synthetic gold set (random people and identifiers, eight contract kinds).

usage: .venv/bin/python benchmarks/synthetic_set.py OUT_DIR [--seed N] [--count N]
then:  .venv/bin/python manage.py evaluate OUT_DIR
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.synthetic.generator import write_set


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=80)
    args = parser.parse_args()
    paths = write_set(args.out_dir, args.seed, args.count)
    print(f"wrote {len(paths)} contracts with gold files to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
