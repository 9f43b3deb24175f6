"""Dependencies earn their place: every package pyproject.toml declares (at run time or in an extra)
is imported by chartc, its tests or its scripts, or is a tool that a test or `.ci/run` runs; and
every third-party package they import is declared. A dependency nothing uses goes.

Imports are read with `ast` from every Python file of dsl/, compiler/, tests/ and scripts/,
imports inside functions included, and so are the modules named to `pytest.importorskip`,
`importlib.import_module` and `importlib.util.find_spec`.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import metadata

import pytest

from tests.conftest import ROOT

SOURCES = ("dsl", "compiler", "tests", "scripts")
FIRST_PARTY = frozenset(SOURCES)
RUNTIME = "dependencies"
"""The group of `[project] dependencies`; the extras are named by their own names."""

IMPORT_NAMES: Mapping[str, str] = {
    "pyyaml": "yaml",
    "python-calamine": "python_calamine",
    "pytest-lsp": "pytest_lsp",
    "pre-commit": "pre_commit",
    "mini-racer": "py_mini_racer",
}
"""Distribution -> the module it installs, where the two names differ beyond `-` and `_`."""


@dataclass(frozen=True)
class Tool:
    """A declared package no code imports, and the file that shows it used."""

    why: str
    file: str
    shows: str


TOOLS: Mapping[str, Tool] = {
    "ruff": Tool("the lint gate", ".ci/run", "ruff check ."),
    "syrupy": Tool("a pytest plugin: the `snapshot` fixture the emitter snapshots compare with",
                   "tests/test_emitters.py", "== snapshot"),
    "interegular": Tool("Lark's `strict=True` finds terminal collisions with it (the grammar test)",
                        "tests/test_parser.py", "strict=True"),
}
"""Type stubs (`types-X`) are used when code `mypy --strict` checks (dsl/, compiler/) imports X."""


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares it: lowercase, runs of `-`, `_`, `.` as one `-`."""
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(pyproject: Mapping[str, object]) -> dict[str, set[str]]:
    """Each declared distribution (normalized) -> the groups declaring it: `dependencies` or an extra."""
    project = pyproject["project"]
    assert isinstance(project, dict)
    groups = {RUNTIME: project.get("dependencies", []), **project.get("optional-dependencies", {})}
    found: dict[str, set[str]] = {}
    for group, requirements in groups.items():
        for requirement in requirements:
            match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
            assert match, requirement
            found.setdefault(normalize(match.group(0)), set()).add(group)
    return found


def module_of(distribution: str) -> str:
    """The top-level module a declared distribution installs."""
    return IMPORT_NAMES.get(distribution, distribution.replace("-", "_"))


@dataclass(frozen=True)
class Use:
    module: str
    """The top-level module imported."""
    file: str
    line: int


def imports(text: str, file: str) -> Iterator[Use]:
    """The third-party modules a Python source imports (top-level names; the standard library and
    chartc's own packages left out)."""
    for node in ast.walk(ast.parse(text, file)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called in ("importorskip", "import_module", "find_spec") and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
        for name in names:
            top = name.split(".")[0]
            if top and top not in sys.stdlib_module_names and top not in FIRST_PARTY and top != "__future__":
                yield Use(top, file, node.lineno)


def repository_imports() -> list[Use]:
    found = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            found += imports(path.read_text(encoding="utf-8"), rel)
    return found


def unused(packages: Mapping[str, set[str]], uses: list[Use], tools: Mapping[str, Tool],
           read: Callable[[str], str] = lambda rel: (ROOT / rel).read_text(encoding="utf-8")) -> list[str]:
    """The declared distributions nothing uses, each with what was looked for."""
    imported = {use.module for use in uses}
    checked_by_mypy = {use.module for use in uses if use.file.split("/")[0] in ("dsl", "compiler")}
    missing = []
    for distribution in sorted(packages):
        if distribution.startswith("types-"):
            if distribution.removeprefix("types-").replace("-", "_") not in checked_by_mypy:
                missing.append(f"{distribution}: stubs of a module dsl/ and compiler/ do not import")
        elif distribution in tools:
            tool = tools[distribution]
            if tool.shows not in read(tool.file):
                missing.append(f"{distribution}: {tool.file} no longer holds {tool.shows!r} ({tool.why})")
        elif module_of(distribution) not in imported:
            missing.append(f"{distribution}: nothing imports `{module_of(distribution)}`")
    return missing


def undeclared(packages: Mapping[str, set[str]], uses: list[Use]) -> list[str]:
    """The imports of a module no declared distribution installs, as `file:line: module`."""
    provided = {module_of(distribution) for distribution in packages}
    return [f"{use.file}:{use.line}: {use.module}" for use in uses if use.module not in provided]


@pytest.fixture(scope="module")
def packages() -> dict[str, set[str]]:
    return declared(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def uses() -> list[Use]:
    return repository_imports()


def test_every_declared_dependency_is_used(packages, uses) -> None:
    assert unused(packages, uses, TOOLS) == []


def test_every_third_party_import_is_declared(packages, uses) -> None:
    assert undeclared(packages, uses) == []


def test_pyyaml_is_a_test_dependency_only(packages, uses) -> None:
    # chartc reads and writes no YAML (a YAML 1.1 reader turns an unquoted odds key 1:3 into 63);
    # the tests read the pre-commit hooks and action.yml, and scripts/bench.py times PyYAML's loader
    assert packages["pyyaml"] == {"test"}
    assert {use.file.split("/")[0] for use in uses if use.module == "yaml"} == {"tests", "scripts"}


def test_the_runtime_dependencies_are_imported_by_chartc_itself(packages, uses) -> None:
    runtime = {module_of(d) for d, groups in packages.items() if RUNTIME in groups}
    by_chartc = {use.module for use in uses if use.file.split("/")[0] in ("dsl", "compiler")}
    assert runtime <= by_chartc, runtime - by_chartc
    assert {"lark", "jsonschema", "jinja2", "click", "markupsafe"} == runtime


def test_the_import_names_are_those_the_installed_distributions_provide(packages) -> None:
    provides = metadata.packages_distributions()
    checked = []
    for distribution in packages:
        if distribution.startswith("types-"):
            continue
        try:
            metadata.distribution(distribution)
        except metadata.PackageNotFoundError:
            continue  # an extra not installed here (`bench`)
        module = module_of(distribution)
        assert distribution in {normalize(d) for d in provides.get(module, [])}, (distribution, module)
        checked.append(distribution)
    assert {"lark", "pyyaml", "python-calamine", "pytest-lsp", "pre-commit"} <= set(checked)


# ---- the checks themselves fail when they should ------------------------------------------------


def test_an_unused_dependency_and_an_undeclared_import_are_caught() -> None:
    packages = {"lark": {RUNTIME}, "pyyaml": {RUNTIME}, "types-requests": {"test"}, "ruff": {"test"}}
    uses = [*imports("import lark\nfrom lark import Lark\n", "dsl/parser.py"),
            *imports("def f():\n    import numpy.linalg\n", "compiler/x.py"),
            *imports("import pytest\npytest.importorskip('weasyprint.pdf')\n", "tests/test_x.py")]
    assert [u.module for u in uses] == ["lark", "lark", "numpy", "pytest", "weasyprint"]
    files = {".ci/run": "pip install -e .\n"}
    assert unused(packages, uses, TOOLS, files.__getitem__) == [
        "pyyaml: nothing imports `yaml`",
        "ruff: .ci/run no longer holds 'ruff check .' (the lint gate)",
        "types-requests: stubs of a module dsl/ and compiler/ do not import",
    ]
    assert undeclared(packages, uses) == ["compiler/x.py:2: numpy", "tests/test_x.py:1: pytest",
                                          "tests/test_x.py:2: weasyprint"]


def test_requirements_are_read_with_their_extras() -> None:
    toml = tomllib.loads('[project]\ndependencies = ["Jinja2>=3.1,<4", "ruamel.yaml"]\n'
                        '[project.optional-dependencies]\ntest = ["pytest>=8", "jinja2"]\n')
    assert declared(toml) == {"jinja2": {RUNTIME, "test"}, "ruamel-yaml": {RUNTIME}, "pytest": {"test"}}


def test_stdlib_and_first_party_imports_are_not_third_party() -> None:
    source = "import os, json\nfrom compiler.build import validate\nfrom . import x\nimport tests.conftest\n"
    assert list(imports(source, "scripts/x.py")) == []
