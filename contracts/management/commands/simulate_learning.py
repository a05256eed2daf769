"""``manage.py simulate_learning GOLD_DIR [--order round|kind] [--all-primary] [--out-dir DIR] [--only NAME ...]``"""

from __future__ import annotations

import itertools
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from contracts.simulation import simulate


class Command(BaseCommand):
    help = (
        "Process the contracts of a gold directory one after another as one agency, review each from its "
        "gold file, and print the reviewer actions per contract with and without agency rules "
        "(contracts/simulation.py). Nothing stays in the database."
    )

    def add_arguments(self, parser):
        parser.add_argument("gold_dir", metavar="GOLD_DIR")
        parser.add_argument("--order", choices=("round", "kind"), default="round")
        parser.add_argument(
            "--all-primary",
            action="store_true",
            help="give the agency a map where every category is primary (a detector without context)",
        )
        parser.add_argument("--out-dir", metavar="DIR", help="write the published PDFs (with learning) here")
        parser.add_argument("--only", nargs="+", metavar="NAME", help="only these documents (file stems)")
        parser.add_argument("--no-baseline", action="store_true", help="skip the run without rules")

    def handle(self, *args, **options):
        gold_dir = Path(options["gold_dir"])
        if not gold_dir.is_dir() or not any(gold_dir.glob("*.json")):
            raise CommandError(f"{gold_dir} holds no gold files (NAME.pdf + NAME.json)")
        common = {"order": options["order"], "names": options["only"], "all_primary": options["all_primary"]}
        out_dir = Path(options["out_dir"]) if options["out_dir"] else None
        self.stdout.write("with agency rules …")
        learned = simulate(gold_dir, learn=True, out_dir=out_dir, **common).documents
        baseline = None
        if not options["no_baseline"]:
            self.stdout.write("without rules (baseline) …")
            baseline = simulate(gold_dir, learn=False, **common).documents
        w = self.stdout.write
        w("")
        w(
            f"{'#':>2} {'contract':<20} {'actions':>7} {'no rules':>8} {'review':>6} {'overrule':>8} {'manual':>6} "
            f"{'clicks/occ':>10} {'by rule':>7} {'rule err':>8} {'rules':>5}"
        )
        for i, d in enumerate(learned, start=1):
            base = f"{baseline[i - 1].actions:>8}" if baseline else f"{'':>8}"
            w(
                f"{i:>2} {d.name:<20} {d.actions:>7} {base} {d.decided_review:>6} {d.overruled:>8} {d.manual:>6} "
                f"{d.occurrence_clicks:>10} {d.rule_decided:>7} {d.rule_errors:>8} {d.rules_after:>5}"
            )
            for problem in d.problems:
                w(f"   ! {problem}")
        thirds = _thirds([d.actions for d in learned])
        w("")
        w(f"mean actions per contract, by third of the sequence, with rules: {_fmt(thirds)}")
        if baseline:
            base_thirds = _thirds([d.actions for d in baseline])
            saved = [b - t for b, t in zip(base_thirds, thirds, strict=True)]
            w(f"mean actions per contract, by third of the sequence, no rules:   {_fmt(base_thirds)}")
            w(f"actions saved per contract by the rules:                          {_fmt(saved)}")
        w(
            f"total actions: {sum(d.actions for d in learned)} with rules"
            + (f", {sum(d.actions for d in baseline)} without" if baseline else "")
            + f"; occurrence clicks without propagation: {sum(d.occurrence_clicks for d in learned)}; "
            f"rule errors: {sum(d.rule_errors for d in learned)}; published: "
            f"{sum(d.published for d in learned)}/{len(learned)}"
        )
        if out_dir is not None:
            w(f"published files in {out_dir} (score: ../shared/tools/score_redaction.py GOLD_DIR {out_dir})")


def _thirds(values: list[int]) -> list[float]:
    n = len(values)
    if n < 3:
        return [sum(values) / n] if n else []
    cuts = [0, n // 3, 2 * n // 3, n]
    return [sum(values[a:b]) / (b - a) for a, b in itertools.pairwise(cuts)]


def _fmt(values: list[float]) -> str:
    return " → ".join(f"{v:.2f}" for v in values)
