"""docs/design.md names every module of dsl/ and compiler/ (Modules), and docs/diagnostics.md every
diagnostic code."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _layout_section() -> str:
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    start = text.index("## Modules")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def _modules() -> set[str]:
    """Every module as a path relative to the repository (`compiler/resolve/charts.py`); package
    `__init__.py` files are named by their folder, and empty ones need no line."""
    found = set()
    for package in ("dsl", "compiler"):
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if path.name == "__init__.py":
                continue
            found.add(rel)
    return found


def test_every_module_is_listed_in_the_design_map() -> None:
    section = _layout_section()
    missing = sorted(m for m in _modules() if f"`{m}`" not in section)
    assert not missing, f"docs/design.md does not list: {missing}"


def test_the_design_map_lists_no_module_that_is_gone() -> None:
    listed = set(re.findall(r"`((?:dsl|compiler)/[\w/]+\.py)`", _layout_section()))
    gone = sorted(m for m in listed if not (ROOT / m).is_file())
    assert not gone, f"docs/design.md lists modules that do not exist: {gone}"


def test_the_diagnostics_page_lists_every_code_with_its_severity() -> None:
    from compiler.diagnostics import CODES

    text = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    table = text[text.index("| code | name | severity |") :].split("\n\n")[0]
    listed = re.findall(r"^\| \[(C\d{3})\]\(#c\d{3}-[\w-]+\) \| ([\w-]+) \| (\w+) \|$", table, flags=re.M)
    assert sorted(listed) == sorted((c.code, c.name, c.severity.value) for c in CODES.values())
    assert ("C305", "modified-roll-off-table", "warning") in listed
