"""Structure rules that code review would otherwise have to remember."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_engine_core_imports_no_django():
    run = subprocess.run([Path(sys.executable).parent / "lint-imports"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_is_clean():
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout


def test_public_functions_and_classes_of_the_core_have_docstrings():
    import ast

    missing = []
    for path in (ROOT / "redactor" / "core").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                if not ast.get_docstring(node):
                    missing.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert not missing, missing


def _imports_of(path: Path, root: Path) -> set[str]:
    """The project modules ``path`` imports, under ``TYPE_CHECKING`` too (relative imports resolved)."""
    import ast

    module = ".".join(path.relative_to(root).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name.removesuffix(".__init__") for name in found}


def test_no_two_modules_import_each_other_even_for_type_checking():
    """A pair of modules that import each other (the rebuild and its page repair did, under
    ``TYPE_CHECKING``) is one module in two files: their shared type gets a module of its own."""
    root = Path(__file__).resolve().parent.parent
    files = [p for app in ("accounts", "contracts", "redactor", "config") for p in (root / app).rglob("*.py")]
    modules = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p for p in files}
    imports = {name: _imports_of(path, root) & modules.keys() for name, path in modules.items()}
    pairs = sorted(
        {tuple(sorted((a, b))) for a, targets in imports.items() for b in targets if a in imports.get(b, ())}
    )
    assert pairs == []


#: The most lines a module of the apps may have before it is split by stage or by entity (issue 34).
MODULE_MAX_LINES = 500


def test_no_module_of_the_apps_is_over_500_lines():
    root = Path(__file__).resolve().parent.parent
    sizes = {
        str(p.relative_to(root)): len(p.read_text(encoding="utf-8").splitlines())
        for app in ("accounts", "contracts", "redactor")
        for p in (root / app).rglob("*.py")
        if "migrations" not in p.parts
    }
    assert {name: n for name, n in sizes.items() if n > MODULE_MAX_LINES} == {}


def test_mypy_is_clean(tmp_path):
    """mypy (pyproject's [tool.mypy]: strict on redactor/core, default on the apps, with the Django
    and DRF plugins) finds nothing; a fresh cache each run, since the Django plugin's view of the
    settings does not always follow a change to them through a kept cache."""
    env = {**os.environ, "SECRET_KEY": os.environ.get("SECRET_KEY") or "mypy-reads-the-settings"}
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_type_ignore_says_why():
    """A ``# type: ignore[code]`` silences mypy once, for a reason written beside it (after it on
    the line, or in a comment on the line above), never bare."""
    unexplained = []
    for app in ("accounts", "contracts", "redactor", "config"):
        for path in (ROOT / app).rglob("*.py"):
            lines = path.read_text(encoding="utf-8").splitlines()
            for i, line in enumerate(lines):
                if "# type: ignore" not in line:
                    continue
                after = line.split("# type: ignore", 1)[1]
                coded = after.startswith("[")
                reason = "#" in after or (i > 0 and lines[i - 1].strip().startswith("#"))
                if not (coded and reason):
                    unexplained.append(f"{path.relative_to(ROOT)}:{i + 1}")
    assert unexplained == []
