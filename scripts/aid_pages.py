"""Count the pages of every game's player aid, as docs/records/printing.md records them.

    python scripts/aid_pages.py [--chromium] [--landscape] [GAME ...]

For each game and each layout (A4 and Letter, the dense print and `--large-print`) it lays the
aid out in WeasyPrint (what `chartc build --pdf` writes) and, with `--chromium`, prints it in
headless Chromium too (tests/browser.py's flags), then prints one Markdown table row per game:
the pages of the player aid proper + the pages of the rules reference after it (`8 + 17`).
tests/test_print.py pins the same numbers (WeasyPrint exactly, Chromium within one page).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler.build.project import load  # noqa: E402
from compiler.build.render import layout_pdf  # noqa: E402
from compiler.emit.html.aid import emit_game_html  # noqa: E402
from tests import browser  # noqa: E402

LAYOUTS = (("a4", False), ("letter", False), ("a4", True), ("letter", True))


def _parts(aid: int, total: int) -> str:
    return f"{aid} + {total - aid}" if aid < total else str(total)


def weasyprint_parts(html: str) -> tuple[int, int]:
    """The pages of the player aid proper (those before the rules reference's page) and of the
    whole document, laid out by WeasyPrint."""
    document, _ = layout_pdf(html)
    start = next((i for i, page in enumerate(document.pages) if "reference" in page.anchors), len(document.pages))
    return start, len(document.pages)


def chromium_parts(html: str, folder: Path) -> tuple[int, int]:
    """The same counted in the PDF headless Chromium prints: the aid's pages carry "Player aid" in
    their running header, the reference's pages the reference's title."""
    page = folder / "aid.html"
    page.write_text(html, encoding="utf-8")
    pdf = folder / "aid.pdf"
    pdf.unlink(missing_ok=True)
    browser.print_to_pdf(page, pdf)
    texts = browser.page_texts(pdf)
    aid = next((i for i, text in enumerate(texts) if "Player aid" not in text), len(texts))
    return aid, len(texts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every game under charts/)")
    parser.add_argument("--chromium", action="store_true", help="also count the pages Chromium prints")
    parser.add_argument("--landscape", action="store_true", help="landscape pages")
    args = parser.parse_args(argv)
    with contextlib.chdir(ROOT):
        project = load([Path("charts")]).project
    games = args.games or sorted(project.games)
    heads = [f"{paper.upper() if paper == 'a4' else 'Letter'}{' large' if large else ''}" for paper, large in LAYOUTS]
    print("| Game | " + " | ".join(heads) + " |")
    print("|---|" + "---|" * len(heads))
    with tempfile.TemporaryDirectory(prefix="chartc-pages-") as tmp:
        for game_id in games:
            game = project.games[game_id]
            cells = []
            for paper, large in LAYOUTS:
                html = emit_game_html(game, paper, large, game.aid_order, args.landscape)
                cell = _parts(*weasyprint_parts(html))
                if args.chromium:
                    cell += f" ({_parts(*chromium_parts(html, Path(tmp)))})"
                cells.append(cell)
            print(f"| {game.title} | " + " | ".join(cells) + " |", flush=True)
    if args.chromium:
        print("\nEach cell: WeasyPrint pages (Chromium pages), the player aid + the rules reference.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
