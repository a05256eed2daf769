"""The reviewer simulation on the development set: rules learned from one contract save reviewer
actions on the next ones, and nothing the rules decide leaks."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.core.management import call_command

from contracts.models import Contract
from contracts.simulation import simulate, simulation_order
from policy.models import AgencyRule
from tests.conftest import SCORER

pytestmark = pytest.mark.django_db
WORKS = ["dilo_firma_1", "dilo_firma_2", "dilo_firma_3"]


def test_order_round_and_kind(data_dir):
    names = ["kupni_auto_2", "dilo_firma_1", "kupni_auto_1", "dilo_firma_2"]
    assert [p.stem for p in simulation_order(data_dir / "dev", "round", names)] == [
        "dilo_firma_1",
        "kupni_auto_1",
        "dilo_firma_2",
        "kupni_auto_2",
    ]
    assert [p.stem for p in simulation_order(data_dir / "dev", "kind", names)] == [
        "dilo_firma_1",
        "dilo_firma_2",
        "kupni_auto_1",
        "kupni_auto_2",
    ]


def test_the_engine_leaves_the_works_contracts_nothing_to_correct(data_dir):
    """With the product's map the three works contracts need no reviewer action at all (the
    register court's town, once a doubt, is a place the gazetteer knows)."""
    assert [d.actions for d in simulate(data_dir / "dev", names=WORKS, learn=False).documents] == [0, 0, 0]


def test_rules_learned_on_earlier_contracts_save_actions_on_later_ones(data_dir, tmp_path):
    # a map without context (every category primary) makes the reviewer keep towns, companies and
    # seats; what one contract taught decides the same words in the next ones
    learned = simulate(data_dir / "dev", names=WORKS, out_dir=tmp_path, all_primary=True).documents
    baseline = simulate(data_dir / "dev", names=WORKS, learn=False, all_primary=True).documents
    assert [d.actions for d in baseline] == [6, 6, 6]
    assert [d.actions for d in learned] == [6, 6, 4]
    assert [d.rule_decided for d in learned] == [0, 0, 2]
    assert sum(d.rule_errors for d in learned) == 0
    assert all(d.published for d in learned)
    # the simulation leaves nothing in the database
    assert not Contract.objects.exists() and not AgencyRule.objects.exists()
    # what was published passes the independent scorer
    gold = tmp_path / "gold"
    gold.mkdir()
    for name in WORKS:
        (gold / f"{name}.json").write_bytes((data_dir / "dev" / f"{name}.json").read_bytes())
    run = subprocess.run([sys.executable, str(SCORER), str(gold), str(tmp_path)], capture_output=True, text=True)
    assert "leak_rate=0.00%" in run.stdout.splitlines()[-1], run.stdout


def test_the_command_prints_the_curve(data_dir, capsys):
    call_command("simulate_learning", str(data_dir / "dev"), "--only", *WORKS, "--all-primary")
    out = capsys.readouterr().out
    assert "mean actions per contract, by third of the sequence, with rules: 6.00 → 6.00 → 4.00" in out
    assert "no rules:   6.00 → 6.00 → 6.00" in out
    assert "total actions: 16 with rules, 18 without" in out
