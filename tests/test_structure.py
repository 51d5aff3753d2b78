"""The shape of the code, read with ``ast`` from the project's own packages (not migrations, not tests):

(a) no comparison with a penalty kind (``Penalty.Kind.X``, ``Kind.X``) outside the registry
    (penalties/kinds.py): ask the kind instead;
(b) no function over 80 lines, but for the short list of data tables below;
(c) no function-local import of the project's own modules without a ``# local import: <reason>`` comment
    on its line;
(d) no import cycle among the project's modules, counting the imports inside functions.

Each finding names file:line. The checkers are plain functions of source text, so each is shown to find
what it looks for on a small bad snippet."""

from __future__ import annotations

import ast
import functools
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("config", "tournaments", "scoring", "penalties", "rankings", "idempotency", "notifications")
MAX_LINES = 80
#: the registry of penalty kinds: the one place that may compare with a kind
KIND_REGISTRY = "penalties/kinds.py"
#: functions that are data tables (dicts and lists of constants), "path:qualified name"
DATA_TABLES: frozenset[str] = frozenset()
LOCAL_IMPORT_NOTE = "# local import:"
#: where a finding belongs, most specific first (a subpackage fixed apart from the rest of its package)
AREAS = (
    "tournaments/seating",
    "config",
    "tournaments",
    "scoring",
    "penalties",
    "rankings",
    "idempotency",
    "notifications",
)


# -- reading the project ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    path: str  # relative, with slashes: "scoring/services.py"
    text: str

    @property
    def module(self) -> str:
        parts = self.path.removesuffix(".py").split("/")
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    @property
    def is_package(self) -> bool:
        return self.path.endswith("/__init__.py")


def project_sources(packages: Iterable[str] = PACKAGES) -> list[Source]:
    sources = []
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" in rel or "/tests/" in rel:
                continue
            sources.append(Source(rel, path.read_text(encoding="utf-8")))
    return sources


def _functions(tree: ast.AST) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function with its qualified name (``Class.method``, ``outer.inner``)."""

    def walk(node: ast.AST, prefix: str) -> Iterator:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                yield name, child
                yield from walk(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
            else:
                yield from walk(child, prefix)

    yield from walk(tree, "")


def _is_own(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] in PACKAGES


# -- (a) penalty kinds compared outside the registry ------------------------------------------------------


def _is_kind(node: ast.AST) -> bool:
    """``Kind.X`` or ``<anything>.Kind.X``, and a tuple, list or set holding one."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_kind(element) for element in node.elts)
    if not isinstance(node, ast.Attribute):
        return False
    owner = node.value
    return (isinstance(owner, ast.Name) and owner.id == "Kind") or (
        isinstance(owner, ast.Attribute) and owner.attr == "Kind"
    )


def kind_comparisons(source: Source) -> list[str]:
    if source.path == KIND_REGISTRY:
        return []
    found = []
    for node in ast.walk(ast.parse(source.text)):
        operands = []
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.MatchValue):
            operands = [node.value]
        if any(_is_kind(operand) for operand in operands):
            found.append(f"{source.path}:{node.lineno}: compares with a penalty kind (ask penalties.kinds)")
    return found


# -- (b) long functions -----------------------------------------------------------------------------------


def long_functions(source: Source, allowed: frozenset[str] = DATA_TABLES) -> list[str]:
    found = []
    for name, node in _functions(ast.parse(source.text)):
        size = node.end_lineno - node.lineno + 1
        if size > MAX_LINES and f"{source.path}:{name}" not in allowed:
            found.append(f"{source.path}:{node.lineno}: {name} is {size} lines (at most {MAX_LINES})")
    return found


# -- (c) function-local imports of the project's own modules ----------------------------------------------


def _imported_modules(node: ast.Import | ast.ImportFrom, source: Source) -> list[str]:
    """The project modules an import statement names (a relative import is the project's own)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if _is_own(alias.name)]
    if node.level:
        package = source.module.split(".")
        if not source.is_package:
            package = package[:-1]
        base = package[: len(package) - (node.level - 1)]
        module = ".".join([*base, node.module] if node.module else base)
    else:
        module = node.module or ""
    if not _is_own(module):
        return []
    return [module, *(f"{module}.{alias.name}" for alias in node.names if alias.name != "*")]


def local_imports(source: Source) -> list[str]:
    lines = source.text.splitlines()
    found = []
    for name, function in _functions(ast.parse(source.text)):
        for node in ast.walk(function):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            if not _imported_modules(node, source) or LOCAL_IMPORT_NOTE in lines[node.lineno - 1]:
                continue
            # a nested function's imports are reported once, for the innermost function
            if any(node in ast.walk(inner) for inner in ast.walk(function) if _nested(inner, function)):
                continue
            found.append(f"{source.path}:{node.lineno}: {name} imports {lines[node.lineno - 1].strip()!r}")
    return found


def _nested(node: ast.AST, function: ast.AST) -> bool:
    return node is not function and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)


# -- (d) import cycles ------------------------------------------------------------------------------------


def _type_checking_only(tree: ast.AST) -> set[ast.AST]:
    """The imports under ``if TYPE_CHECKING:``: never run, so no part of a cycle."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skipped.update(ast.walk(child))
    return skipped


def import_graph(sources: list[Source]) -> dict[str, dict[str, str]]:
    """module -> {imported module: "file:line" of the first import of it}. An import of ``a.b.c`` runs
    ``a``, ``a.b`` and ``a.b.c``; ``from a.b import c`` names module ``a.b.c`` when there is one. The
    packages around the importing module are running already and count for nothing."""
    known = {source.module for source in sources}
    graph: dict[str, dict[str, str]] = {}
    for source in sources:
        tree = ast.parse(source.text)
        skipped = _type_checking_only(tree)
        edges = graph.setdefault(source.module, {})
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom) or node in skipped:
                continue
            for name in _imported_modules(node, source):
                parts = name.split(".")
                for cut in range(1, len(parts) + 1):
                    target = ".".join(parts[:cut])
                    if target in known and not _encloses(target, source.module):
                        edges.setdefault(target, f"{source.path}:{node.lineno}")
    return graph


def _encloses(package: str, module: str) -> bool:
    """A module and the packages around it, already running when the module runs: no edge of a cycle."""
    return module == package or module.startswith(f"{package}.")


def _components(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, {}))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
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
                    components.append(sorted(component))
    return components


def _shortest_cycle(graph: dict[str, dict[str, str]], start: str, within: set[str]) -> list[str]:
    """The shortest way from ``start`` back to itself inside one component (breadth first)."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph.get(node, {})):
                if child not in within:
                    continue
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    return []


def cycles_of(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    """Each cycle found: the shortest one through every module of a component, told once."""
    found, seen = [], set()
    for component in _components(graph):
        members = set(component)
        for module in component:
            cycle = _shortest_cycle(graph, module, members)
            key = frozenset(itertools.pairwise(cycle))
            if cycle and key not in seen:
                seen.add(key)
                found.append(cycle)
    return found


def describe(cycle: list[str], graph: dict[str, dict[str, str]]) -> str:
    steps = [f"{a} -> {b} ({graph[a][b]})" for a, b in itertools.pairwise(cycle)]
    return "import cycle: " + "; ".join(steps)


def import_cycles(sources: list[Source]) -> list[str]:
    graph = import_graph(sources)
    return [describe(cycle, graph) for cycle in cycles_of(graph)]


# -- the project ------------------------------------------------------------------------------------------


def area_of(path: str) -> str:
    return next(area for area in AREAS if path == area or path.startswith(f"{area}/"))


SOURCES = project_sources()
CHECKS = {
    "kind comparisons": kind_comparisons,
    "long functions": long_functions,
    "local imports": local_imports,
}


@pytest.mark.parametrize("area", AREAS)
@pytest.mark.parametrize("check", CHECKS)
def test_the_code_keeps_its_shape(check, area):
    found = [line for source in SOURCES if area_of(source.path) == area for line in CHECKS[check](source)]
    assert found == [], f"{check} in {area}:\n" + "\n".join(found)


@functools.cache
def project_graph() -> dict[str, dict[str, str]]:
    return import_graph(SOURCES)


@pytest.mark.parametrize("area", AREAS)
def test_no_import_cycle(area):
    graph = project_graph()
    module_area = {source.module: area_of(source.path) for source in SOURCES}
    mine = [
        describe(cycle, graph)
        for cycle in cycles_of(graph)
        if any(module_area[module] == area for module in cycle)
    ]
    assert mine == [], f"import cycles through {area}:\n" + "\n".join(mine)


def test_the_data_tables_allowed_long_are_few_and_exist():
    assert len(DATA_TABLES) <= 5
    names = {f"{s.path}:{name}" for s in SOURCES for name, _ in _functions(ast.parse(s.text))}
    assert names >= DATA_TABLES


# -- each check finds what it looks for -------------------------------------------------------------------


def snippet(text: str, path: str = "scoring/example.py") -> Source:
    return Source(path, text)


@pytest.mark.parametrize(
    "code",
    [
        "if penalty.kind == Penalty.Kind.CHOMBO:\n    pass\n",
        "ok = Kind.REPLACED != p.kind\n",
        "ok = p.kind in (Kind.DISQUALIFIED, Kind.CHOMBO)\n",
        "match p.kind:\n    case Kind.FALSE_HU:\n        pass\n",
    ],
)
def test_a_comparison_with_a_kind_is_found(code):
    (finding,) = kind_comparisons(snippet(code))
    assert finding.startswith("scoring/example.py:")


def test_a_kind_in_the_registry_or_not_compared_is_not_found():
    assert kind_comparisons(snippet("ok = p.kind == Kind.CHOMBO\n", KIND_REGISTRY)) == []
    assert kind_comparisons(snippet("qs.filter(kind=Kind.REPLACED)\nx = kind_of(p.kind).replaces\n")) == []


def test_a_long_function_is_found_unless_it_is_a_data_table():
    code = "class Form:\n    def build(self):\n" + "".join(f"        x{n} = {n}\n" for n in range(MAX_LINES))
    (finding,) = long_functions(snippet(code))
    assert finding == f"scoring/example.py:2: Form.build is {MAX_LINES + 1} lines (at most {MAX_LINES})"
    assert long_functions(snippet(code), frozenset({"scoring/example.py:Form.build"})) == []
    short = "def f():\n" + "".join(f"    x{n} = {n}\n" for n in range(MAX_LINES - 1))
    assert long_functions(snippet(short)) == []


def test_a_local_import_of_the_project_is_found_unless_it_says_why():
    code = (
        "import json\n"
        "from scoring import services\n"
        "def f():\n"
        "    import json\n"  # not the project's own
        "    from django.db import transaction\n"
        "    from penalties.services import active_penalties\n"  # line 6
        "    from .selectors import table_state\n"  # line 7: relative, the project's own
        "    import rankings.sweep  # local import: celery loads the tasks late\n"
    )
    assert [f.split(": ")[0] for f in local_imports(snippet(code))] == [
        "scoring/example.py:6",
        "scoring/example.py:7",
    ]


def test_an_import_cycle_is_found_with_its_lines():
    sources = [
        snippet("from scoring import selectors\n", "scoring/services.py"),
        snippet("import json\n\ndef f():\n    from scoring.services import x\n", "scoring/selectors.py"),
        snippet("from scoring.rules import base\n", "scoring/models.py"),
        snippet("", "scoring/rules/base.py"),
        snippet("", "scoring/rules/__init__.py"),
        snippet("", "scoring/__init__.py"),
    ]
    (cycle,) = import_cycles(sources)
    assert "scoring.selectors -> scoring.services (scoring/selectors.py:4)" in cycle
    assert "scoring.services -> scoring.selectors (scoring/services.py:1)" in cycle


def test_an_import_under_type_checking_and_a_relative_one_are_read_as_they_run():
    sources = [
        snippet("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import b\n", "scoring/a.py"),
        snippet("from .a import thing\n", "scoring/b.py"),
        snippet("from .d import y\n", "scoring/c.py"),
        snippet("from . import c\n", "scoring/d.py"),
    ]
    (cycle,) = import_cycles(sources)
    assert "scoring.c -> scoring.d (scoring/c.py:1)" in cycle and "scoring.d -> scoring.c" in cycle
