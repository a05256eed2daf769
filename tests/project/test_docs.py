"""The documentation names every setting, README stays short, and neither carries development
history (that is the changelog's)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: A variable read through config.env's helpers or os.environ, by its name in quotes.
_READ = re.compile(r"""(?:\benv(?:_int|_bool|_list)?|environ\.get|getenv)\(\s*["']([A-Z][A-Z0-9_]+)["']""")


def settings_variables() -> set[str]:
    """The environment variables the settings modules read."""
    return {name for path in (ROOT / "config").glob("*.py") for name in _READ.findall(path.read_text())}


def test_the_configuration_page_names_every_variable_the_settings_read():
    variables = settings_variables()
    assert {"SECRET_KEY", "DATABASE_URL", "REDACTOR_SLOW_QUEUE_BYTES", "AWS_STORAGE_BUCKET_NAME"} <= variables
    page = (DOCS / "operations" / "configuration.md").read_text()
    assert sorted(v for v in variables if f"`{v}`" not in page) == []


def test_readme_is_short_and_every_page_is_in_the_site():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 250
    nav = (ROOT / "mkdocs.yml").read_text()
    pages = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    included = (DOCS / "evaluation" / "index.md").read_text()
    for page in pages:
        if page.startswith("evaluation/figures/"):  # a benchmark's row, included by the evaluation page
            assert f'--8<-- "{page}"' in included, page
        else:
            assert page in nav, page


def test_no_issue_numbers_in_readme_or_docs():
    """Development history belongs in CHANGELOG.md, not in what a reader of the product reads."""
    texts = {"README.md": (ROOT / "README.md").read_text()}
    texts |= {str(p.relative_to(ROOT)): p.read_text() for p in DOCS.rglob("*.md")}
    found = {name: re.findall(r"(?i)\bissues? \d+", text) for name, text in texts.items()}
    assert {name: hits for name, hits in found.items() if hits} == {}
