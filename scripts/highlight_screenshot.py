"""Render a chart file highlighted by the Pygments `chart` lexer to a PNG for docs/ (headless Chromium).

    python scripts/highlight_screenshot.py [CHART] [--lines N] [--out docs/highlighting.png]

The page is Pygments' own HTML (`pygmentize -l chart -f html -O full`), so the screenshot shows
exactly what the lexer plugin gives any Pygments user.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chart", nargs="?", default=str(ROOT / "charts" / "ia2" / "combat.chart"))
    parser.add_argument("--lines", type=int, default=40, help="how many lines of the file to show")
    parser.add_argument("--out", default=str(ROOT / "docs" / "highlighting.png"))
    args = parser.parse_args()

    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("needs chromium on PATH", file=sys.stderr)
        return 2
    lines = Path(args.chart).read_text(encoding="utf-8").split("\n")[: args.lines]
    formatter = HtmlFormatter(full=True, style="default", linenos="inline", title=Path(args.chart).name,
                              cssstyles="font-size: 15px; margin: 12px;", prestyles="font-family: 'DejaVu Sans Mono';")
    page = highlight("\n".join(lines) + "\n", get_lexer_by_name("chart"), formatter)
    height = 80 + 19 * len(lines)  # the heading, then one 19 px line each
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "chart.html"
        html.write_text(page, encoding="utf-8")
        subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={tmp}/p",
             f"--window-size=1100,{height}", f"--screenshot={Path(args.out).resolve()}", html.as_uri()],
            check=True, capture_output=True,
        )
    print(f"wrote {args.out}: {len(lines)} lines of {Path(args.chart).name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
