"""The layers hold: no import circle anywhere, nothing imports upward, every lazy import says
why, and the package maps (docstrings) name exactly the modules in their folders."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from .conftest import ROOT

PACKAGES = ("models", "solvers")
HARNESS_LAYERS = ("tasks", "engine", "results", "pictures", "fuzz", "commands", "cli")
"""solvers.harness's layers, bottom to top: a module may import only its own layer or lower."""


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> list[tuple[str, ast.stmt, bool]]:
    """(imported module, statement, inside a function) for each import of the toolkit's own code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, ast.stmt, bool]] = []

    def visit(node: ast.AST, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.Import):
                found.extend((alias.name, child, lazy) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in child.names:
                    candidate = f"{base}.{alias.name}"
                    found.append((candidate if candidate in MODULES else base, child, lazy))
            elif not isinstance(child, ast.If) or not _type_checking(child):
                visit(child, inner)

    visit(tree, False)
    return [(target, node, lazy) for target, node, lazy in found
            if target.split(".")[0] in PACKAGES and target in MODULES]


def _type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


GRAPH = {name: sorted({target for target, _, _ in _imports(name, path) if target != name})
         for name, path in MODULES.items()}


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH.get(node, []):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
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

    for node in sorted(GRAPH):
        if node not in index:
            connect(node)
    return components


def _package_parents(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def test_no_module_imports_another_that_imports_it_back() -> None:
    # a package's __init__ importing its own modules is not a circle of code; leave those edges out
    circles = [c for c in _cycles() if not all(a in _package_parents(b) or b in _package_parents(a)
                                               for a in c for b in c if a != b)]
    assert circles == []


def test_models_imports_nothing_from_solvers() -> None:
    assert {name: t for name, targets in GRAPH.items() if name.startswith("models")
            for t in targets if t.startswith("solvers")} == {}


@pytest.mark.parametrize("package", ["solvers.backends", "solvers.encodings", "solvers.generate"])
def test_methods_and_shared_machinery_never_import_the_harness(package: str) -> None:
    assert [(name, t) for name, targets in GRAPH.items() if name.startswith(package)
            for t in targets if t.startswith("solvers.harness")] == []


def _layer(name: str) -> int | None:
    parts = name.split(".")
    if parts[:2] != ["solvers", "harness"] or len(parts) < 3:
        return None
    return HARNESS_LAYERS.index(parts[2])


def test_the_harness_imports_only_its_own_layer_or_lower() -> None:
    upward = [(name, target) for name, targets in GRAPH.items() for target in targets
              if (a := _layer(name)) is not None and (b := _layer(target)) is not None and b > a]
    assert upward == []


def test_only_the_package_faces_the_cli_and_the_data_types_sit_at_the_harness_top() -> None:
    top = sorted(p.stem for p in (ROOT / "solvers" / "harness").glob("*.py"))
    assert top == ["__init__", "cli", "tasks"]


def test_the_data_types_module_imports_no_other_part_of_the_harness() -> None:
    assert [t for t in GRAPH["solvers.harness.tasks"] if t.startswith("solvers.harness")] == []


def test_every_import_inside_a_function_says_why() -> None:
    silent = []
    for name, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for _target, node, lazy in _imports(name, path):
            if lazy and not re.search(r"noqa: PLC0415 - \S", lines[node.lineno - 1]):
                silent.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert silent == []


@pytest.mark.parametrize("folder", ["commands", "engine", "results", "pictures", "fuzz"])
def test_each_harness_package_map_names_exactly_its_modules(folder: str) -> None:
    package = ROOT / "solvers" / "harness" / folder
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
    named = {match.group(1) for match in re.finditer(r"^([a-z_]+):", doc, re.M)}
    assert named == {p.stem for p in package.glob("*.py") if p.stem != "__init__"}


def test_the_harness_map_names_exactly_its_layers() -> None:
    doc = ast.get_docstring(ast.parse((ROOT / "solvers" / "harness" / "__init__.py").read_text())) or ""
    assert {m.group(1) for m in re.finditer(r"^([a-z_]+):", doc, re.M)} == set(HARNESS_LAYERS)


def test_every_noqa_and_type_ignore_says_why() -> None:
    silent = []
    for folder in ("models", "solvers", "tests", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == Path(__file__).resolve():
                continue  # this test names the markers it looks for
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if ("# noqa" in line and not re.search(r"noqa: [A-Z0-9, ]+ +- +\S", line)) or (
                        "type: ignore" in line and not re.search(r"type: ignore\[[^]]*\] +# +\S", line)):
                    silent.append(f"{path.relative_to(ROOT)}:{number}")
    assert silent == []
