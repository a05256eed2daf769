"""The category table (:data:`redactor.categories.CATEGORIES`): one entry per category of the
platform's map, the only place the engine keeps sets of category ids."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import get_args

import pytest

from redactor import categories as cat
from redactor.publish.pseudonyms import OPERATORS, Pseudonymiser
from redactor.publish.text_export import tag_of

ENGINE = Path(cat.__file__).parent
PLATFORM_MAP = ENGINE / "data" / "category_map.json"


def test_every_category_of_the_platform_map_has_one_entry_under_its_key():
    platform = {c["id"]: c["key"] for c in json.loads(PLATFORM_MAP.read_text(encoding="utf-8"))["categories"]}
    assert {c.id: c.key for c in cat.CATEGORIES.values()} == platform
    assert all(number == entry.id for number, entry in cat.CATEGORIES.items())


def test_every_pseudonym_of_the_table_has_its_operator():
    assert set(OPERATORS) == set(get_args(cat.Pseudonym))
    assert {c.pseudonym for c in cat.CATEGORIES.values()} <= set(OPERATORS)


def test_the_sets_are_the_tables_columns():
    assert cat.HARD_IDENTIFIERS == {cat.BIRTH_NUMBER, cat.ID_CARD, cat.PASSPORT, cat.PAYMENT_CARD,
                                    cat.DRIVING_LICENCE, cat.DATE_OF_BIRTH}  # fmt: skip
    assert cat.HARD_IDENTIFIERS <= cat.SAME_EVERYWHERE
    assert cat.OWN_DATA <= cat.PERSONAL_FOR_ANYONE and cat.ADDRESS_RESIDENCE in cat.PERSONAL_FOR_ANYONE
    assert cat.ACCOUNT_CATEGORIES == {cat.BANK_ACCOUNT, cat.IBAN} <= cat.ENTITY_VALUES & cat.CONTACT_CATEGORIES
    assert cat.NAME_CATEGORIES == {cat.GIVEN_NAME, cat.SURNAME, cat.FULL_NAME}


@pytest.mark.parametrize("category", [cat.BIRTH_NUMBER, cat.PHONE, cat.FULL_NAME, 999])
def test_a_category_is_exported_and_pseudonymised_by_its_entry(category):
    entry = cat.category(category)
    assert tag_of(category) == entry.tag
    substitute = Pseudonymiser(b"seed").substitute("Petr Novák" if category == cat.FULL_NAME else "750403/1238",
                                                   category)  # fmt: skip
    assert substitute and substitute not in ("Petr Novák", "750403/1238")


def test_a_category_an_agency_added_has_no_trait_and_the_other_tag():
    entry = cat.category(999)
    assert (entry.id, entry.tag, entry.kind, entry.pseudonym) == (999, cat.OTHER_TAG, "other", "shape")
    assert not (entry.hard or entry.same_everywhere or entry.own_data or entry.contact)


def _category_sets(path: Path) -> list[str]:
    """Module-level names in ``path`` bound to a collection of category ids (a set, tuple or list
    literal, or ``set(…)``/``frozenset(…)`` of one, naming two or more category constants) or to a
    dict keyed by them; a table whose rows pair a category with something else is not one."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = {name for name, value in vars(cat).items() if name.isupper() and isinstance(value, int)}
    aliases, direct = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "redactor":
            aliases |= {a.asname or a.name for a in node.names if a.name == "categories"}
        if isinstance(node, ast.ImportFrom) and node.module == "redactor.categories":
            direct |= {a.asname or a.name for a in node.names if a.name in constants}

    def is_category(n: ast.AST | None) -> bool:
        attribute = isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in aliases
        return (attribute and n.attr in constants) or (isinstance(n, ast.Name) and n.id in direct)

    found = []
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("set", "frozenset"):
            value = value.args[0] if value.args else None
        if isinstance(value, (ast.Set, ast.Tuple, ast.List)):
            elements = value.elts
        elif isinstance(value, ast.Dict):
            elements = value.keys
        else:
            continue
        if sum(map(is_category, elements)) >= 2:
            found.append(ast.unparse(node.targets[0] if isinstance(node, ast.Assign) else node.target))
    return found


def test_no_engine_module_keeps_its_own_set_of_category_ids():
    own = {
        str(path.relative_to(ENGINE)): names
        for path in sorted(ENGINE.rglob("*.py"))
        if path.name != "categories.py" and (names := _category_sets(path))
    }
    assert own == {}, "derive these from redactor.categories.CATEGORIES"


def test_the_check_finds_a_set_kept_outside_the_table(tmp_path):
    module = tmp_path / "rule.py"
    module.write_text(
        "from redactor import categories as cat\n"
        "from redactor.categories import PHONE, IBAN\n"
        "MINE = frozenset({cat.PHONE, cat.IBAN})\n"
        "TAGGED: dict[int, str] = {PHONE: 'T', IBAN: 'I'}\n"
        "LISTED = set((cat.PHONE, cat.VIN))\n"
        "PAIR = (cat.PHONE, cat.VIN)\n"
        "PATTERNS = ((cat.PHONE, 'tel'), (cat.VIN, 'vin'))\n"
    )
    assert _category_sets(module) == ["MINE", "TAGGED", "LISTED", "PAIR"]
