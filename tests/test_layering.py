"""Import layering: data flows one way through chartc's stages, and no stage reaches back.

Every module of dsl/ and compiler/ is read with Python's `ast` (imports inside functions count:
a lazy import is still a dependency) and placed in a layer of `LAYERS`. A module may import its
own layer and the layers below it, never one above. Three more rules: no module imports another
module's private name (a leading underscore); every module has a layer, so a new module must be
placed here before it can land; and an import inside a function says why it is not at the top
(`# lazy: ...`: it keeps `chartc --help` or `chartc lookup` light, or names an optional dependency).
"""

from __future__ import annotations

import ast
import functools
import re
import shutil
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

# Lowest first. A module belongs to the entry that is the longest dotted prefix of its name
# (`compiler.emit.json` is in `compiler.emit`). Names of modules that do not exist yet are the
# planned homes of code being moved (`compiler.engine.chances`, `compiler.query`, `compiler.build.writer`, ...).
LAYERS: tuple[tuple[str, ...], ...] = (
    # the chart language: grammar, parser, syntax tree with spans; the aid.order format; the
    # dataclass tools the syntax tree and the model share
    ("dsl",),
    # codes, the sink every pass appends to, messages, renderers, the one sanitiser of printed text
    ("compiler.diagnostics",),
    # the resolved, typed chart model (one definition per concept)
    ("compiler.model",),
    # the one meaning of a roll: dice, DRMs, clamps, chances, reach, chains, formulas, odds, shifts,
    # and the answers a player asks for (lookup, follow, compute)
    ("compiler.engine",),
    # errata blocks, applied to the syntax tree before the resolver reads it
    ("compiler.errata",),
    # declare, bind, type: syntax tree -> model
    ("compiler.resolve",),
    # everything that is bound but wrong
    ("compiler.checks",),
    # what `lookup`, `odds`, `compute`, `analyze` print
    ("compiler.query",),
    # json, python, html: model in, {path: text} out
    ("compiler.emit",),
    # read, cache, render, write, journal, record
    ("compiler.build",),
    # fmt, import, export, diff, vectors, the Pygments lexer
    ("compiler.tools",),
    # `chartc lsp`: only compiler.lsp.server imports pygls, so chartc without the `lsp` extra still runs
    ("compiler.lsp",),
    ("compiler.cli",),
)

# Package roots hold no code of a stage; importing them is not a dependency on any layer.
PACKAGE_ROOTS = ("compiler",)

# Imports that break the rules but are allowed for now, each with a comment saying why and what
# removes it; anything not listed here fails the test. An entry covers the modules inside a package
# it names (`compiler.checks` covers `compiler.checks.coverage`). The three violations of main when
# this test was written (checks -> odds, odds -> lookup, diff -> emit.html._environment) are gone.
KNOWN_VIOLATIONS: frozenset[tuple[str, str]] = frozenset()

SOURCE_PACKAGES = ("dsl", "compiler")


@dataclass(frozen=True)
class Import:
    """One import statement's dependency: `importer` needs `target` (a module, or a private name
    as `module._name`) at `line`."""

    importer: str
    target: str
    line: int
    private: bool = False


@dataclass(frozen=True)
class Violation:
    """An import that breaks the layering, with the reason in words."""

    importer: str
    target: str
    line: int
    reason: str

    def known(self) -> tuple[str, str] | None:
        """The entry of KNOWN_VIOLATIONS that allows this import, if any."""
        return next((k for k in KNOWN_VIOLATIONS if _within(self.importer, k[0]) and _within(self.target, k[1])), None)


def _within(module: str, entry: str) -> bool:
    return module == entry or module.startswith(entry + ".")


def module_name(root: Path, path: Path) -> str:
    """`compiler/emit/json.py` -> `compiler.emit.json`; a package's `__init__.py` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_modules(root: Path) -> dict[str, Path]:
    """Every module of the source packages under `root`, by dotted name."""
    return {
        module_name(root, path): path for package in SOURCE_PACKAGES for path in sorted((root / package).rglob("*.py"))
    }


def layer_of(module: str) -> int | None:
    """The index in `LAYERS` of the longest entry that is `module` or a dotted prefix of it."""
    best: tuple[int, int] | None = None
    for index, entries in enumerate(LAYERS):
        for entry in entries:
            if (module == entry or module.startswith(entry + ".")) and (best is None or len(entry) > best[0]):
                best = (len(entry), index)
    return None if best is None else best[1]


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module an `import from` names, resolving `from .x import y`."""
    if node.level == 0:
        return node.module or ""
    base = _package_of(module, path).split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _longest_module(name: str, modules: dict[str, Path]) -> str | None:
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end])
    return None


@functools.cache
def _import_statements(source: bytes) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """The import statements of a module's source, top-level or function-local, in `ast.walk`
    order. By content: the planted-import tests check copies of the tree, mostly unchanged."""
    return tuple(node for node in ast.walk(ast.parse(source)) if isinstance(node, (ast.Import, ast.ImportFrom)))


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> Iterator[Import]:
    """Every dependency of `module` on another source module, top-level or function-local."""
    source = path.read_bytes()
    try:
        statements = _import_statements(source)
    except SyntaxError:
        ast.parse(source, filename=str(path))  # raise it again, naming the file
        raise
    for node in statements:
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _longest_module(alias.name, modules)
                if target is not None:
                    yield Import(module, target, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, path, node)
            if _longest_module(source, modules) is None:
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in modules:
                    yield Import(module, submodule, node.lineno)
                elif alias.name.startswith("_") and source != module:
                    yield Import(module, f"{source}.{alias.name}", node.lineno, private=True)
                else:
                    yield Import(module, _longest_module(source, modules) or source, node.lineno)


def violations(root: Path) -> list[Violation]:
    """Every import under `root` that breaks a rule of this module's docstring."""
    modules = source_modules(root)
    found: list[Violation] = []
    for module, path in modules.items():
        if module in PACKAGE_ROOTS:
            continue
        own = layer_of(module)
        if own is None:
            found.append(
                Violation(module, module, 1, "module has no layer: add it to LAYERS in tests/test_layering.py")
            )
            continue
        for imp in imports_of(module, path, modules):
            if imp.target == module or imp.target in PACKAGE_ROOTS:
                continue
            target_module = imp.target.rpartition(".")[0] if imp.private else imp.target
            target = layer_of(target_module)
            if imp.private and not _same_package(module, target_module):
                found.append(Violation(module, imp.target, imp.line, "imports another module's private name"))
            elif target is not None and target > own:
                found.append(Violation(module, imp.target, imp.line, f"layer {own} imports layer {target} above it"))
    return sorted(set(found), key=lambda v: (v.importer, v.line, v.target))


def _same_package(a: str, b: str) -> bool:
    """Whether `a` and `b` sit in one package below a package root (`compiler.diagnostics.*`)."""
    head_a, head_b = a.split(".")[:2], b.split(".")[:2]
    return head_a == head_b and len(a.split(".")) > 2 and len(b.split(".")) > 2


def describe(found: list[Violation]) -> str:
    return "\n".join(f"{v.importer} (line {v.line}) -> {v.target}: {v.reason}" for v in found)


# ---- the layering of this checkout ----------------------------------------------------------------


def test_every_module_has_a_layer_and_imports_only_downwards() -> None:
    found = violations(ROOT)
    unexpected = [v for v in found if v.known() is None]
    assert unexpected == [], "upward or private imports:\n" + describe(unexpected)
    stale = KNOWN_VIOLATIONS - {v.known() for v in found}
    if stale:
        warnings.warn(f"KNOWN_VIOLATIONS lists imports that are gone, remove them: {sorted(stale)}", stacklevel=1)


def test_layers_name_each_module_once() -> None:
    entries = [entry for layer in LAYERS for entry in layer]
    assert len(entries) == len(set(entries))


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module's dependencies on other modules (a private name counts as its module)."""
    modules = source_modules(root)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        for imp in imports_of(module, path, modules):
            target = imp.target.rpartition(".")[0] if imp.private else imp.target
            if target != module and target not in PACKAGE_ROOTS and target in modules:
                graph[module].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of `graph`: its strongly connected components of two or more modules
    (Tarjan's algorithm, iterative), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
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
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_no_import_cycle() -> None:
    assert cycles(import_graph(ROOT)) == []


# ---- the checker catches what it must -------------------------------------------------------------


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """A copy of dsl/ and compiler/ (Python files only) to plant imports into."""
    for package in SOURCE_PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return tmp_path


def _plant(tree: Path, module: str, code: str) -> None:
    """Append `code` to `module` (a module or a package's `__init__.py`) in the copied tree."""
    path = source_modules(tree)[module]
    path.write_text(path.read_text(encoding="utf-8") + "\n" + code + "\n", encoding="utf-8")


def _new(tree: Path) -> list[Violation]:
    return [v for v in violations(tree) if v.known() is None]


@pytest.mark.parametrize(
    "importer, code, target",
    [
        # the syntax tree reaching the CLI, inside a function: lazy imports count
        ("dsl.ast", "def _f():\n    from compiler.cli import main\n    return main", "compiler.cli"),
        # the model importing the resolver at top level, `import a.b as c` form
        ("compiler.model", "import compiler.resolve as _resolve", "compiler.resolve"),
        # an emitter reaching the build through a relative import
        ("compiler.emit.json", "from .. import build as _build", "compiler.build"),
        # the diagnostics package importing the checks through `from package import module`
        ("compiler.diagnostics.core", "from compiler import checks as _checks", "compiler.checks"),
    ],
)
def test_a_planted_upward_import_fails(tree: Path, importer: str, code: str, target: str) -> None:
    assert _new(tree) == []
    _plant(tree, importer, code)
    [v] = _new(tree)
    assert (v.importer, v.target) == (importer, target)
    assert "above it" in v.reason


def test_a_planted_private_import_fails(tree: Path) -> None:
    _plant(tree, "compiler.cli", "from compiler.build.render import _safe_target as _s")
    [v] = _new(tree)
    assert (v.importer, v.target, v.reason) == (
        "compiler.cli",
        "compiler.build.render._safe_target",
        "imports another module's private name",
    )


def test_a_module_without_a_layer_fails(tree: Path) -> None:
    (tree / "compiler" / "shortcuts.py").write_text('"""A new module nobody placed."""\n', encoding="utf-8")
    [v] = _new(tree)
    assert v.importer == "compiler.shortcuts" and "has no layer" in v.reason


def test_a_downward_import_passes(tree: Path) -> None:
    _plant(tree, "compiler.cli", "from dsl.ast import Span as _Span\nfrom compiler.emit import json as _json")
    assert _new(tree) == []


def test_a_planted_cycle_fails(tree: Path) -> None:
    # within one layer: the resolver's values and chains typing each other (as they once did)
    assert cycles(import_graph(tree)) == []
    _plant(tree, "compiler.resolve.chains", "def _f():\n    from compiler.resolve import values\n    return values")
    assert cycles(import_graph(tree)) == [["compiler.resolve.chains", "compiler.resolve.values"]]


# ---- imports inside functions ----------------------------------------------------------------------
# An import inside a function is a dependency its module's head does not show (issue 29). It stays
# only where it keeps `chartc --help` or `chartc lookup` from importing what they do not need, or
# where it names an optional dependency, and then with a `# lazy: <why>` comment on its line, or on
# a comment line right above it or above the group of imports it belongs to.

LAZY = re.compile(r"#\s*lazy:\s*\S")


def function_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement inside a function (or a lambda) of a module, at any depth."""
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, in_function = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and in_function:
                yield child
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            stack.append((child, inside))


def _explained(lines: list[str], node: ast.Import | ast.ImportFrom) -> bool:
    """Whether the statement's lines, or the comments and imports right above it, say `# lazy:`."""
    if any(LAZY.search(line) for line in lines[node.lineno - 1 : (node.end_lineno or node.lineno)]):
        return True
    for line in reversed(lines[: node.lineno - 1]):
        text = line.strip()
        if LAZY.search(text):
            return True
        if not text.startswith(("#", "import ", "from ")):
            return False
    return False


def unexplained_imports(root: Path) -> list[str]:
    """`path:line: statement` of every import inside a function without a `# lazy:` comment."""
    found = []
    for path in source_modules(root).values():
        source = path.read_text(encoding="utf-8")
        lines = source.split("\n")
        for node in function_imports(ast.parse(source)):
            if not _explained(lines, node):
                found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {ast.unparse(node)}")
    return sorted(found)


def test_every_import_inside_a_function_says_why_it_is_not_at_the_top() -> None:
    assert unexplained_imports(ROOT) == []


def test_a_planted_import_inside_a_function_without_a_reason_fails(tree: Path) -> None:
    assert unexplained_imports(tree) == []
    _plant(tree, "compiler.build.writer", "def _staged():\n    import json\n    return json")
    _plant(tree, "compiler.build.record", "def _kept():\n    # lazy: a reason\n    import json\n    return json")
    writer = source_modules(tree)["compiler.build.writer"]
    [found] = unexplained_imports(tree)
    line = writer.read_text(encoding="utf-8").split("\n").index("    import json") + 1
    assert found == f"compiler/build/writer.py:{line}: import json"


# --- module size ------------------------------------------------------------------------------------

MAX_MODULE_LINES = 500  # issue 29: a module a stranger reads in one sitting; split by responsibility


def modules_over(limit: int, files: list[Path]) -> list[str]:
    """The files of `files` longer than `limit` lines, with their length."""
    return [f"{f}: {n}" for f in files if (n := len(f.read_text(encoding="utf-8").splitlines())) > limit]


def test_no_module_in_dsl_or_compiler_is_over_500_lines() -> None:
    files = sorted(p for top in ("dsl", "compiler") for p in (ROOT / top).rglob("*.py"))
    assert len(files) > 150
    assert modules_over(MAX_MODULE_LINES, files) == []


def test_a_planted_long_module_is_caught(tmp_path: Path) -> None:
    long = tmp_path / "long.py"
    long.write_text("x = 1\n" * (MAX_MODULE_LINES + 1), encoding="utf-8")
    short = tmp_path / "short.py"
    short.write_text("x = 1\n" * MAX_MODULE_LINES, encoding="utf-8")
    assert modules_over(MAX_MODULE_LINES, [long, short]) == [f"{long}: {MAX_MODULE_LINES + 1}"]
