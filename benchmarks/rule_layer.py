#!/usr/bin/env python
"""The size of the rule layer: the modules that encode contract wording and layout as code.

usage: .venv/bin/python benchmarks/rule_layer.py [--root CHECKOUT] [--json] [--before REV [--no-docs]]

Counts, over the detection modules (``redactor/detect/``), ``redactor/czech.py``, the rule modules
of ``redactor/decide/`` and the layout readers of ``redactor/read/``:

- lines of Python, all and code only (no blank line, comment or docstring);
- the total cyclomatic complexity (ruff's mccabe, C901, every function counted);
- regex literals that spell a Czech word: a string given to a function of ``re`` or ``regex``
  (or compiled by a name assigned such a string) holding a run of three letters or more once
  escapes (``\\b``, ``\\s`` …) and character classes are taken out;
- hand-written diacritic classes (``[eé]``, ``[rř]`` …) in any string;
- calls that fold the text instead (``strip_diacritics``, ``fold``, ``unidecode``).

``--root`` measures another checkout (e.g. a worktree of an earlier revision); ``--before REV``
measures revision ``REV`` too (a temporary worktree) and writes both into the docs' figures
(``docs/evaluation/figures/rule_layer.md``). Prints one line per figure, or JSON with ``--json``.
Also counts the lexicon's and the rule book's Python and data lines. Timing lives elsewhere; this
counts.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import subprocess
import sys
import tempfile
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
#: The rule layer, as globs under the checkout.
LAYER = (
    "redactor/detect/**/*.py",
    "redactor/czech.py",
    "redactor/decide/suspicious.py",
    "redactor/decide/signatures.py",
    "redactor/decide/decision_rules.py",
    "redactor/decide/repeats.py",
    "redactor/read/layout.py",
    "redactor/read/columns.py",
)
_REGEX_CALLS = {"compile", "search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"}
_ESCAPES = re.compile(r"\\[A-Za-z]|\\.|\[[^\]]*\]|\(\?(?:[:=!>]|<[=!]|P<\w+>|P=\w+\)|[aiLmsux-]+\))|\{[^}]*\}")
_WORD = re.compile(r"[^\W\d_]{3,}")
_DIACRITIC_CLASS = re.compile(r"\[[a-zA-Z][áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ]+\]|\[[áčďéěíňóřšťúůýž][a-z]\]")
_FOLDS = {"strip_diacritics", "fold", "unidecode", "folded", "without_diacritics"}


def _files(root: Path) -> list[Path]:
    found: set[Path] = set()
    for pattern in LAYER:
        found.update(p for p in root.glob(pattern) if p.is_file())
    return sorted(found)


def _code_lines(source: str) -> int:
    """Lines holding code: not blank, not only a comment, not part of a docstring."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            continue
        lines.update(range(tok.start[0], tok.end[0] + 1))
    return len(lines - docstrings)


def _spells_a_word(pattern: str) -> bool:
    return bool(_WORD.search(_ESCAPES.sub(" ", pattern)))


def _pattern_strings(node: ast.AST) -> list[str]:
    """The string literals that make up a pattern expression: constants, f-string parts and
    concatenations, not the arguments of a call or the key of an index inside it (a lexicon family's
    name, a record's field, is no pattern)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Call, ast.Subscript)):  # a call's argument, an index: no pattern
        return []
    return [s for child in ast.iter_child_nodes(node) for s in _pattern_strings(child)]


def _regex_literals(tree: ast.AST) -> int:
    """String literals given to a regex function (directly or through a name assigned them)."""
    assigned: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned.setdefault(node.targets[0].id, []).extend(_pattern_strings(node.value))
    count = 0
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
            continue
        if node.func.attr not in _REGEX_CALLS:
            continue
        owner = node.func.value
        if not (isinstance(owner, ast.Name) and owner.id in ("re", "regex")):
            continue
        first = node.args[0]
        strings = _pattern_strings(first)
        if isinstance(first, ast.Name):
            strings += assigned.get(first.id, [])
        count += sum(_spells_a_word(s) for s in strings)
    return count


def _complexity(root: Path, files: list[Path]) -> int:
    ruff = Path(sys.executable).parent / "ruff"
    done = subprocess.run(
        [str(ruff), "check", "--isolated", "--select", "C901", "--config", "lint.mccabe.max-complexity = 0",
         "--output-format", "concise", "--no-cache", *map(str, files)],
        capture_output=True, text=True, check=False, cwd=root,
    )  # fmt: skip
    return sum(int(n) for n in re.findall(r"is too complex \((\d+) >", done.stdout))


def measure(root: Path) -> dict[str, int]:
    files = _files(root)
    figures = {"modules": len(files), "lines": 0, "code_lines": 0, "regex_literals_with_words": 0,
               "diacritic_classes": 0, "fold_calls": 0}  # fmt: skip
    for path in files:
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        figures["lines"] += source.count("\n")
        figures["code_lines"] += _code_lines(source)
        figures["regex_literals_with_words"] += _regex_literals(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                figures["diacritic_classes"] += len(_DIACRITIC_CLASS.findall(node.value))
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
                figures["fold_calls"] += name in _FOLDS
    figures["cyclomatic_complexity"] = _complexity(root, files)
    return figures


def data_figures(root: Path) -> dict[str, int]:
    """The lexicon's and the rule book's size: their Python (``redactor/lexicon.py``,
    ``redactor/rulebook.py``) and data lines, families and records (0 where a checkout has none)."""
    out = {"lexicon_and_rule_book_python_lines": 0, "lexicon_and_rule_book_data_lines": 0}
    for module in ("redactor/lexicon.py", "redactor/rulebook.py"):
        path = root / module
        out["lexicon_and_rule_book_python_lines"] += (
            path.read_text(encoding="utf-8").count("\n") if path.exists() else 0
        )
    for data in ("redactor/data/lexicon.toml", "redactor/data/rules.toml"):
        path = root / data
        out["lexicon_and_rule_book_data_lines"] += path.read_text(encoding="utf-8").count("\n") if path.exists() else 0
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--before", help="a git revision measured beside (a temporary worktree) for the docs' row")
    parser.add_argument("--no-docs", action="store_true", help="do not write the figures into the docs")
    args = parser.parse_args()
    figures = measure(args.root.resolve()) | data_figures(args.root.resolve())
    if args.before and not args.no_docs:
        _write_row(figures, _measured_at(args.before))
    if args.json:
        print(json.dumps(figures))
    else:
        for name, value in figures.items():
            print(f"{name}: {value}")
    return 0


def _measured_at(revision: str) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), revision], cwd=ROOT, check=True,
                       capture_output=True)  # fmt: skip
        try:
            return measure(tree) | data_figures(tree)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)


def _write_row(after: dict[str, int], before: dict[str, int]) -> None:
    from benchmarks.figures import write_row

    def pair(key: str) -> str:
        return f"{before[key]:,} → **{after[key]:,}**"

    write_row(
        "rule_layer",
        "The rule layer's size before and after the lexicon and the rule book",
        f"lines {pair('lines')} (code {pair('code_lines')}); regex literals spelling a Czech word "
        f"{pair('regex_literals_with_words')}; hand-written diacritic classes {pair('diacritic_classes')}; "
        f"cyclomatic complexity {pair('cyclomatic_complexity')}; lexicon and rule book: "
        f"{after['lexicon_and_rule_book_python_lines']:,} lines of Python, "
        f"{after['lexicon_and_rule_book_data_lines']:,} lines of data",
        "benchmarks/rule_layer.py --before REV",
    )


if __name__ == "__main__":
    sys.exit(main())
