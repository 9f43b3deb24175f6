"""The size of a keyed game's JSON and the peak memory of building it (issue 35 item 2).

Writes the synthetic game of scripts/bench.py (10,000 rows by default: 2d6 combat charts keyed by
unit type with four DRMs, percentile grids keyed by period, ...), builds it with `chartc build`
in a child process, and prints the JSON's size and the child's peak resident memory:

    python scripts/measure_chances_json.py                 # this checkout's chartc
    python scripts/measure_chances_json.py --rows 2000
    python scripts/measure_chances_json.py --source DIR    # another checkout's compiler (e.g. a
                                                           # `git archive main` unpacked under /tmp)

The build runs with `--jobs 1`, so the peak is one process's (resource.getrusage of the child).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> object:
    """scripts/bench.py as a module (its synthetic game writer)."""
    spec = importlib.util.spec_from_file_location("chartc_bench", ROOT / "scripts" / "bench.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["chartc_bench"] = module
    spec.loader.exec_module(module)
    return module


def measure(rows: int, source: Path) -> dict[str, object]:
    """Build the synthetic game of `rows` rows with the compiler under `source`; its JSON's size,
    the number of chance entries in it and the build's peak memory."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        paths = _bench().write_synthetic(work, rows)  # type: ignore[attr-defined]
        out = work / "generated"
        env = {**os.environ, "PYTHONPATH": str(source)}
        code = "import sys; from compiler.cli import cli; sys.exit(cli())"
        cmd = [sys.executable, "-c", code, "build", str(paths["charts"]), "--out", str(out), "--jobs", "1"]
        done = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, check=False)
        if done.returncode:
            raise SystemExit(f"chartc build failed:\n{done.stdout}\n{done.stderr}")
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        document = out / "synth" / "synth.json"
        doc = json.loads(document.read_text(encoding="utf-8"))
        return {
            "rows": sum(len(c["rows"]) for c in doc["charts"]),
            "json_bytes": document.stat().st_size,
            "probabilities": document.read_text(encoding="utf-8").count('"exact"'),
            "peak_rss_bytes": peak_kib * 1024,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=10000, help="synthetic rows (default 10,000)")
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout whose compiler builds the game")
    args = parser.parse_args(argv)
    got = measure(args.rows, args.source.resolve())
    print(f"compiler:           {args.source}")
    print(f"rows in the JSON:   {got['rows']:,}")
    print(f"JSON size:          {got['json_bytes'] / 1e6:.1f} MB ({got['json_bytes']:,} bytes)")
    print(f"exact probabilities written: {got['probabilities']:,}")
    print(f"peak RSS of the build: {got['peak_rss_bytes'] / 2**20:.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
