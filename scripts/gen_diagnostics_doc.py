"""Regenerate docs/diagnostics.md and compiler/diagnostics/examples.json from tests/cases.

    python scripts/gen_diagnostics_doc.py          # write both files
    python scripts/gen_diagnostics_doc.py --check  # exit 1 if either is stale

Each code's example is its case pair: `cNNN_name.chart` (failing input), what chartc reports on
it (human format), and the diff to `cNNN_name.ok.chart` (the fix); for an import code, the table
`cNNN_name.csv`, what `chartc import` reports on it, and the diff to `cNNN_name.ok.csv`.
"""

from __future__ import annotations

import difflib
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler.build.project import load  # noqa: E402
from compiler.diagnostics import CODES, render_human  # noqa: E402
from compiler.diagnostics.explain import EXAMPLES_FILE, render_doc  # noqa: E402
from compiler.tools.table_import import draft, read_table, report  # noqa: E402

CASES = ROOT / "tests" / "cases"
DOC = ROOT / "docs" / "diagnostics.md"
EXAMPLES = ROOT / "compiler" / "diagnostics" / EXAMPLES_FILE
MARKER = "<!-- Everything below is generated from tests/cases by scripts/gen_diagnostics_doc.py. -->\n"


def _report(data: bytes, order: bytes | None = None) -> str:
    """What `chartc check` prints for one case, as if it were charts/t/case.chart (and its
    charts/t/aid.order when the case has an `.aid.order` sidecar)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "charts" / "t"
        folder.mkdir(parents=True)
        (folder / "case.chart").write_bytes(data)
        if order is not None:
            (folder / "aid.order").write_bytes(order)
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            comp = load([Path("charts")])
        finally:
            os.chdir(cwd)
    return "\n\n".join(render_human(d, comp.sources) for d in comp.diagnostics) + "\n"


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="backslashreplace")


def _fix_diff(bad: bytes, good: bytes) -> str:
    diff = difflib.unified_diff(_text(bad).splitlines(True), _text(good).splitlines(True), n=0)
    return "".join(line for line in diff if not line.startswith(("---", "+++", "@@")))


def _sidecar(case: Path, suffix: str) -> bytes | None:
    path = case.with_name(case.stem + suffix)
    return path.read_bytes() if path.is_file() else None


def _import_report(data: bytes) -> str:
    """What `chartc import case.csv` reports on one import case's table."""
    return report("case.csv", draft(read_table(Path("case.csv"), data), "case", "case").findings)


def collect_examples(cases: Path = CASES) -> dict[str, dict[str, str]]:
    """`{code: {case, input, report, fix_diff}}` for every `cNNN_*.chart` with its `.ok.chart`, and
    `{code: {case, command, input, report, fix_diff}}` for every `cNNN_*.csv` with its `.ok.csv`."""
    examples = {}
    for bad_path in sorted(cases.glob("c[0-9][0-9][0-9]_*.csv")):
        if bad_path.name.endswith(".ok.csv"):
            continue
        bad, good = bad_path.read_bytes(), bad_path.with_name(bad_path.stem + ".ok.csv").read_bytes()
        examples["C" + bad_path.name[1:4]] = {
            "case": f"tests/cases/{bad_path.name}",
            "command": "chartc import",
            "input": _text(bad),
            "report": _import_report(bad),
            "fix_diff": _fix_diff(bad, good),
        }
    for bad_path in sorted(cases.glob("c[0-9][0-9][0-9]_*.chart")):
        if bad_path.name.endswith(".ok.chart"):
            continue
        code = "C" + bad_path.name[1:4]
        bad, good = bad_path.read_bytes(), bad_path.with_name(bad_path.stem + ".ok.chart").read_bytes()
        bad_order, good_order = (_sidecar(bad_path, suffix) for suffix in (".aid.order", ".ok.aid.order"))
        report = _report(bad, bad_order)
        if bad_order is not None:  # the finding is in the aid.order file: show and fix that file
            bad, good = b"# aid.order\n" + bad_order, b"# aid.order\n" + (good_order or b"")
        examples[code] = {
            "case": f"tests/cases/{bad_path.name}",
            "input": _text(bad),
            "report": report,
            "fix_diff": _fix_diff(bad, good),
        }
    return dict(sorted(examples.items()))


def _intro() -> str:
    """The hand-written part of docs/diagnostics.md: everything above the marker."""
    text = DOC.read_text(encoding="utf-8")
    if MARKER not in text:
        raise SystemExit(f"{DOC.relative_to(ROOT)} lacks the marker line {MARKER.strip()}")
    return text.split(MARKER)[0]


def generated() -> dict[Path, str]:
    examples = collect_examples()
    missing = sorted(set(CODES) - set(examples))
    if missing:
        raise SystemExit(f"codes without a case in tests/cases: {', '.join(missing)}")
    return {
        EXAMPLES: json.dumps(examples, indent=2, ensure_ascii=False) + "\n",
        DOC: render_doc(_intro() + MARKER, examples),
    }


def main(argv: list[str]) -> int:
    stale = [p for p, text in generated().items() if not p.is_file() or p.read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for p in stale:
            print(f"stale: {p.relative_to(ROOT)} (run `python scripts/gen_diagnostics_doc.py`)")
        return 1 if stale else 0
    for p, text in generated().items():
        p.write_text(text, encoding="utf-8")
    print(f"wrote {len(stale)} file(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
