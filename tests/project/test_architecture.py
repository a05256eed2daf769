"""Structure rules that code review would otherwise have to remember."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The engine and the Django apps, as pyproject names them for import-linter, mypy and coverage.
PACKAGES = ("redactor", "policy", "accounts", "contracts", "registry", "config")


def test_engine_core_imports_no_django():
    run = subprocess.run([Path(sys.executable).parent / "lint-imports"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_service_importing_a_door_breaks_the_contract(tmp_path):
    """The doors contract of pyproject.toml, run on a small project of the same packages: a service
    module that imports a module of a door package (the contracts' review page in
    ``contracts.views``), a door package (the registry's web views) or a door module matched by the
    wildcard (``accounts.views``) fails it, and the same project without that import keeps it."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    doors = [c for c in config["contracts"] if c["name"].startswith("Services and selectors know no door")]
    assert len(doors) == 1
    for package in (
        "accounts",
        "contracts",
        "contracts/services",
        "policy",
        "registry",
        "registry/web",
        "redactor",
        "config",
    ):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    for name in doors[0]["forbidden_modules"]:  # the doors the contract names must exist
        if "*" not in name and name.split(".")[0] in config["root_packages"]:
            (tmp_path / (name.replace(".", "/") + ".py")).write_text("")
    (tmp_path / "registry" / "web" / "views.py").write_text("")
    (tmp_path / "contracts" / "views").mkdir()
    (tmp_path / "contracts" / "views" / "__init__.py").write_text("")
    (tmp_path / "contracts" / "views" / "review.py").write_text("")
    service = tmp_path / "contracts" / "services" / "uploads.py"
    settings = {**config, "contracts": doors}
    (tmp_path / "pyproject.toml").write_text(
        "[tool.importlinter]\n"
        + "".join(f"{k} = {_toml(v)}\n" for k, v in settings.items() if k != "contracts")
        + "".join(
            "[[tool.importlinter.contracts]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in c.items()) for c in doors
        )
    )

    def lint() -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": str(tmp_path)}
        command = [Path(sys.executable).parent / "lint-imports", "--no-cache"]
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=env)

    service.write_text("")
    assert lint().returncode == 0, lint().stdout
    service.write_text("from contracts.views import review\n")
    broken = lint()
    assert broken.returncode == 1 and "contracts.services.uploads -> contracts.views.review" in broken.stdout
    service.write_text("from registry.web import views\n")  # a door package, by wildcard
    broken = lint()
    assert broken.returncode == 1 and "contracts.services.uploads -> registry.web.views" in broken.stdout
    (tmp_path / "accounts" / "views.py").write_text("")
    service.write_text("import accounts.views\n")  # a door module, by wildcard
    broken = lint()
    assert broken.returncode == 1 and "contracts.services.uploads -> accounts.views" in broken.stdout


def _toml(value: object) -> str:
    """``value`` (a string, a boolean or a list of strings) written as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def test_ruff_is_clean():
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout


def test_public_functions_and_classes_of_the_core_have_docstrings():
    import ast

    missing = []
    for path in (ROOT / "redactor").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                if not ast.get_docstring(node):
                    missing.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert not missing, missing


def _imports_of(path: Path, root: Path, modules: frozenset[str] = frozenset()) -> set[str]:
    """The project modules ``path`` imports, under ``TYPE_CHECKING`` too (relative imports resolved).
    ``from package import submodule`` imports the submodule, not the package's ``__init__``, when
    ``modules`` (the project's module names) says it is one."""
    import ast

    module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            names = {f"{base}.{alias.name}" for alias in node.names}
            found.update(names)
            if not names <= modules:  # a name defined in the package, not only its submodules
                found.add(base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name.removesuffix(".__init__") for name in found}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of the apps and the modules of the apps it imports: at the top, inside a
    function, under ``TYPE_CHECKING``; a package's ``__init__`` as the package."""
    files = [p for app in PACKAGES for p in (root / app).rglob("*.py")]
    modules = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p for p in files}
    names = frozenset(modules)
    return {name: (_imports_of(path, root, names) & modules.keys()) - {name} for name, path in modules.items()}


def import_loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module of ``graph`` (Tarjan's algorithm,
    iterative): every set of modules that reach each other through imports, a loop of any length."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        loops.append(sorted(component))
    return loops


def test_import_loops_are_found_at_any_length():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"d"}, "d": {"e"}, "e": {"a"}, "f": {"a"}, "g": {"g"}}
    assert import_loops(graph) == [["a", "b", "c", "d", "e"]]
    assert import_loops({"a": {"b"}, "b": set()}) == []


def test_no_modules_import_each_other_in_a_loop_of_any_length():
    """Modules that reach each other through imports (a pair, or processing → registry →
    submissions → publishing → processing through an import inside a function) are one module in
    several files: the shared type gets a module of its own, or one side announces what happened."""
    graph = import_graph()
    assert "registry.services.submissions" in graph["registry.services"]  # __init__ read
    assert import_loops(graph) == []


#: Modules that still hold a function over the complexity, branch or statement limits of
#: pyproject's ruff settings. The list may only shrink: a module leaves it when its long function
#: becomes named steps, and none joins it.
#: Modules whose functions may pass the limits (none: the list may only shrink, and it is empty).
LONG_FUNCTIONS_ALLOWED: frozenset[str] = frozenset()
#: The most decision points a function may have (ruff's mccabe); pyproject.toml may only lower it.
MAX_COMPLEXITY = 12
_FUNCTION_RULES = ("C901", "PLR0912", "PLR0915")


def test_functions_are_kept_small_and_the_exceptions_only_shrink():
    """Ruff's complexity (C901), branch (PLR0912) and statement (PLR0915) rules bound every function
    of the apps; a module exempt from them in pyproject.toml is one of :data:`LONG_FUNCTIONS_ALLOWED`
    and still needs the exemption (checked by running the rules on it alone)."""
    import tomllib

    lint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert set(_FUNCTION_RULES) <= set(lint["select"])
    assert lint["mccabe"]["max-complexity"] <= MAX_COMPLEXITY
    exempt = {
        path
        for path, codes in lint["per-file-ignores"].items()
        if set(_FUNCTION_RULES) & set(codes) and not path.startswith(("tests/", "benchmarks/"))
    }
    assert exempt <= LONG_FUNCTIONS_ALLOWED, sorted(exempt - LONG_FUNCTIONS_ALLOWED)
    limits = [
        f"lint.mccabe.max-complexity={lint['mccabe']['max-complexity']}",
        f"lint.pylint.max-branches={lint['pylint']['max-branches']}",
        f"lint.pylint.max-statements={lint['pylint']['max-statements']}",
    ]
    command = [sys.executable, "-m", "ruff", "check", "--isolated", "--output-format", "concise"]
    command += ["--select", ",".join(_FUNCTION_RULES)]
    command += [arg for limit in limits for arg in ("--config", limit)]
    if not exempt:
        return
    run = subprocess.run([*command, *sorted(exempt)], cwd=ROOT, capture_output=True, text=True)
    still_long = {line.split(":")[0] for line in run.stdout.splitlines() if any(c in line for c in _FUNCTION_RULES)}
    assert sorted(exempt - still_long) == []  # an exemption nothing needs any more is removed


def test_mypy_is_clean(tmp_path):
    """mypy (pyproject's [tool.mypy]: strict on redactor/, default on the apps, with the Django
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
    for app in PACKAGES:
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


def test_the_drawing_of_the_house_is_current_and_shows_no_import_against_the_floors(tmp_path):
    """``bin/draw-house`` draws the rooms and floors from :func:`import_graph`; the committed
    picture in the docs is what it draws today, and no import runs up a floor."""
    import importlib.util
    from importlib.machinery import SourceFileLoader

    loader = SourceFileLoader("draw_house", str(ROOT / "bin" / "draw-house"))
    spec = importlib.util.spec_from_loader("draw_house", loader)
    assert spec is not None
    house = importlib.util.module_from_spec(spec)
    loader.exec_module(house)
    counts, loops = house.edges()
    floors = house.floor_of()
    assert {room for pair in counts for room in pair} <= floors.keys()  # every module has a room
    assert [(a, b) for (a, b) in counts if floors[b] < floors[a]] == []
    assert loops == []
    picture, summary = house.svg()
    assert summary.endswith("0 running up a floor, 0 import loops")
    assert (ROOT / "docs" / "development" / "house.svg").read_text(encoding="utf-8") == picture, "run bin/draw-house"


#: The apps, whose every use of the engine goes through its front door.
APPS = ("accounts", "contracts", "config", "policy", "registry")
#: The most names the front door may list: what the apps need, not an index of the stages.
FACADE_MAX = 30


def _front_door_imports(paths: list[Path], root: Path) -> dict[str, list[str]]:
    """``{name: ["file:line", …]}`` of every ``from redactor import name`` in ``paths``."""
    import ast

    found: dict[str, list[str]] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "redactor" and node.level == 0:
                for alias in node.names:
                    found.setdefault(alias.name, []).append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def _not_listed(used: dict[str, list[str]]) -> dict[str, list[str]]:
    import redactor

    return {name: where for name, where in used.items() if name not in redactor.__all__}


def test_the_front_door_is_a_facade_and_the_apps_use_only_what_it_lists():
    import redactor

    assert len(redactor.__all__) <= FACADE_MAX, f"{len(redactor.__all__)} names: the front door became an index"
    assert len(set(redactor.__all__)) == len(redactor.__all__)
    assert all(hasattr(redactor, name) for name in redactor.__all__)
    used = _front_door_imports([p for app in APPS for p in (ROOT / app).rglob("*.py")], ROOT)
    assert len(used) > 10, "the walk found (almost) no import of the front door"
    assert _not_listed(used) == {}, "names the apps import that the front door does not list"
    assert set(redactor.__all__) - set(used) == set(), "names the front door lists that no app needs"


def test_the_facade_check_finds_a_name_the_front_door_does_not_list(tmp_path):
    (tmp_path / "door.py").write_text("from redactor import Box, open_rebuilt\nfrom redactor.engine import Analysis\n")
    used = _front_door_imports([tmp_path / "door.py"], tmp_path)
    assert used == {"Box": ["door.py:1"], "open_rebuilt": ["door.py:1"]}
    assert _not_listed(used) == {"open_rebuilt": ["door.py:1"]}


#: Where the tests of each part of the code live: the engine's by stage, each app's by door.
TEST_HOMES = {
    "redactor": {p.name for p in (ROOT / "redactor").iterdir() if (p / "__init__.py").exists()},
    **{app: {"services", "api", "web"} for app in ("accounts", "contracts", "policy", "registry")},
    "project": set(),
}


def test_the_tests_mirror_the_code():
    """Every test module is in ``tests/<package>/`` (the engine, an app, or the project), and one
    folder further only in one that names a part of its package (an engine stage's package; an
    app's services, API or web door)."""
    misplaced = []
    for path in (ROOT / "tests").rglob("test_*.py"):
        parts = path.relative_to(ROOT / "tests").parts
        home, inner = parts[0], parts[1:-1]
        if home not in TEST_HOMES or len(inner) > 1 or (inner and inner[0] not in TEST_HOMES[home]):
            misplaced.append(str(path.relative_to(ROOT)))
    assert misplaced == []
    assert {"pdf", "read", "detect", "decide", "publish", "metadata"} <= TEST_HOMES["redactor"]
