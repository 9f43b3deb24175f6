"""Validate every game JSON in an output folder against `schemas/chartc-game.schema.json`.

    python scripts/validate_outputs.py generated        # exit 0 valid, 1 a file fails, 2 usage

`chartc build` validates each JSON before writing it (`compiler/build/validate.py`); `.ci/run`
runs this script on the committed outputs as well, so a `generated/` edited by hand, or written by
an older chartc, is caught too. `chartc validate generated` does the same for any JSON file.
"""

from __future__ import annotations

import sys
from pathlib import Path

from compiler.build.validate import InvalidOutput, validate_outputs


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python scripts/validate_outputs.py OUTPUT_FOLDER", file=sys.stderr)
        return 2
    out = Path(argv[0])
    files = {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in sorted(out.glob("*/*.json"))}
    if not files:
        print(f"{out}: no generated JSON (<game>/<game>.json) to validate", file=sys.stderr)
        return 1
    try:
        validate_outputs(files)
    except InvalidOutput as exc:
        print(f"schema validation failed: {exc}", file=sys.stderr)
        return 1
    print(f"{len(files)} generated JSON files in {out} match the schema")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
