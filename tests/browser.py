"""Headless Chromium and poppler-utils helpers for the print tests, and the docs screenshots.

Chromium runs as the machine notes describe (`--headless --no-sandbox ...`, a fresh
`--user-data-dir`, no background networking). Layout facts come from the PDF it prints:
`pdftotext` per page for text, `pdftotext -bbox` for word positions.

`python -m tests.browser [GAME...]` rewrites the screenshots under docs/player-aid/: page 1 and the
first CRT page of each game's PDF as `chartc build --pdf` writes it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-pdf-header-footer",
)
POPPLER = ("pdftotext", "pdfinfo", "pdftoppm")
INSTALL_HINT = "apt-get install -y chromium poppler-utils fonts-dejavu-core (.ci/run installs them)"
MM = 72 / 25.4
"""PDF points per millimetre."""


def chromium() -> str | None:
    """The Chromium binary on PATH (Debian names it `chromium`), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def missing_tools() -> list[str]:
    """The programs the browser tests need that this machine lacks."""
    missing = [] if chromium() else ["chromium"]
    return missing + [tool for tool in POPPLER if shutil.which(tool) is None]


def print_to_pdf(html_path: Path, pdf_path: Path) -> None:
    """Print an HTML file to PDF in headless Chromium, honouring the page's `@page` size."""
    binary = chromium()
    if binary is None:
        raise RuntimeError("no Chromium on PATH (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="chartc-chromium-") as profile:
        cmd = [
            binary,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--print-to-pdf={pdf_path}",
            html_path.resolve().as_uri(),
        ]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)
    if not pdf_path.is_file():
        raise RuntimeError(f"chromium printed nothing for {html_path}")


def page_count(pdf_path: Path) -> int:
    """The number of pages `pdfinfo` reports."""
    info = subprocess.run(["pdfinfo", str(pdf_path)], check=True, capture_output=True, text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))  # type: ignore[union-attr]


def page_texts(pdf_path: Path) -> list[str]:
    """The text of each page, in page order."""
    return [
        subprocess.run(
            ["pdftotext", "-f", str(n), "-l", str(n), str(pdf_path), "-"], check=True, capture_output=True, text=True
        ).stdout
        for n in range(1, page_count(pdf_path) + 1)
    ]


def pdf_text(pdf_path: Path) -> str:
    """The PDF's whole text, as `pdftotext` reads it."""
    return subprocess.run(["pdftotext", str(pdf_path), "-"], check=True, capture_output=True, text=True).stdout


def header_texts(pdf_path: Path, top_mm: float = 14) -> list[str]:
    """The text of each page's top margin (its running header), in page order, on one line."""
    height = str(int(top_mm * MM))
    return [
        " ".join(
            subprocess.run(
                ["pdftotext", "-f", str(n), "-l", str(n), "-x", "0", "-y", "0", "-W", "10000", "-H", height,
                 str(pdf_path), "-"],
                check=True, capture_output=True, text=True,
            ).stdout.split()
        )
        for n in range(1, page_count(pdf_path) + 1)
    ]


@dataclass(frozen=True)
class Word:
    """A word of the PDF and its box, in points from the page's top left corner."""

    page: int
    text: str
    x_min: float
    x_max: float
    page_width: float


def words(pdf_path: Path) -> list[Word]:
    """Every word of the PDF with its position (`pdftotext -bbox`)."""
    html = subprocess.run(["pdftotext", "-bbox", str(pdf_path), "-"], check=True, capture_output=True, text=True).stdout
    found: list[Word] = []
    for number, (width, body) in enumerate(
        re.findall(r'<page width="([\d.]+)" height="[\d.]+">(.*?)</page>', html, re.S), 1
    ):
        for x_min, x_max, text in re.findall(
            r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">(.*?)</word>', body
        ):
            found.append(Word(number, text, float(x_min), float(x_max), float(width)))
    return found


def words_near_the_edge(pdf_path: Path, margin_mm: float) -> list[Word]:
    """The words of the PDF that lie within `margin_mm` of the left or right page edge, or past
    it: text a printer may not print, or that the page cut off (layout rule L3)."""
    margin = margin_mm * MM
    return [w for w in words(pdf_path) if w.x_min < margin or w.x_max > w.page_width - margin]


PROBE_CSS = (
    "<style>section.chart{position:relative}"
    ".chartc-probe{position:absolute;left:0;font-size:3pt;line-height:1;color:#fff}"
    ".chartc-probe.b{top:0}.chartc-probe.e{bottom:0}</style>"
)


def with_probes(html: str) -> tuple[str, list[str]]:
    """The aid with two invisible probes in every chart section: one pinned to its top, one to
    its bottom. Absolutely positioned, they change no layout; a section split across pages has
    its probes on different pages. Returns the HTML and the section ids in document order."""
    opening = re.compile(r'<section class="chart[^"]*" id="([^"]+)">')
    ids = opening.findall(html)
    numbers = iter(range(len(ids)))
    html = opening.sub(lambda m: m.group(0) + f'<span class="chartc-probe b">QQB{next(numbers)}QQ</span>', html)
    parts = html.split("</section>")
    html = "".join(
        part + (f'<span class="chartc-probe e">QQE{i}QQ</span></section>' if i < len(parts) - 1 else "")
        for i, part in enumerate(parts)
    )
    return html.replace("</head>", PROBE_CSS + "</head>", 1), ids


def probe_pages(texts: list[str], count: int) -> list[tuple[list[int], list[int]]]:
    """For each of `count` probed sections, the pages holding its top probe and its bottom probe."""
    return [
        (
            [n for n, t in enumerate(texts, 1) if f"QQB{i}QQ" in t],
            [n for n, t in enumerate(texts, 1) if f"QQE{i}QQ" in t],
        )
        for i in range(count)
    ]


def screenshot(pdf_path: Path, png_path: Path, dpi: int = 80, page: int = 1) -> None:
    """One page of a PDF as a PNG (`pdftoppm`)."""
    stem = png_path.with_suffix("")
    subprocess.run(
        ["pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", str(pdf_path), str(stem)],
        check=True,
    )


# The corpus (every game), and of the test games the one whose classic CRTs the docs show.
SCREENSHOT_TREES: tuple[tuple[Path, frozenset[str] | None], ...] = (
    (Path("charts"), None),
    (Path("tests/data/charts"), frozenset({"crtlab"})),
)


# The games whose aid is also shown on landscape A4 (`build --pdf --landscape`), page 1.
LANDSCAPE_SCREENSHOTS = frozenset({"ia2"})


def crt_page(pdf_path: Path, titles: list[str]) -> int | None:
    """The first page of the PDF that prints one of the CRT `titles`, or None."""
    for number, text in enumerate(page_texts(pdf_path), 1):
        flat = " ".join(text.split())
        if any(" ".join(t.split()) in flat for t in titles):
            return number
    return None


def write_screenshots(root: Path, only: frozenset[str] | None = None) -> list[Path]:
    """Build every game's PDF as `chartc build --pdf` does (WeasyPrint), A4 and Letter, and keep
    page 1 and the page of its first classic CRT under docs/player-aid/, and page 1 on landscape A4
    for the games of `LANDSCAPE_SCREENSHOTS` (only the games named in `only`, when given)."""
    import os

    from compiler.build.project import load
    from compiler.build.render import html_to_pdf, render_outputs
    from compiler.emit.html.aid_view import chart_view
    from compiler.emit.html.views import Layout

    os.chdir(root)
    out = root / "docs" / "player-aid"
    out.mkdir(parents=True, exist_ok=True)
    written = []
    projects = [(load([tree]).project, games) for tree, games in SCREENSHOT_TREES]
    with tempfile.TemporaryDirectory() as tmp:
        for paper in ("a4", "letter"):
            for project, games in projects:
                for rel, text in render_outputs(project, paper).items():
                    game_id = rel.split("/")[0]
                    wanted = (games is None or game_id in games) and (only is None or game_id in only)
                    if not rel.endswith(".html") or not wanted:
                        continue
                    game = project.games[game_id]
                    pdf_path = Path(tmp) / f"{game_id}-{paper}.pdf"
                    pdf_path.write_bytes(html_to_pdf(text))
                    png = out / f"{game_id}-{paper}-page1.png"
                    screenshot(pdf_path, png)
                    written.append(png)
                    printed = [c for c in game.charts if c.kind != "external"]
                    crts = [c.title for c in printed if chart_view(game, c).layout is Layout.CRT]
                    page = crt_page(pdf_path, crts) if crts else None
                    if page is not None:
                        png = out / f"{game_id}-{paper}-crt.png"
                        screenshot(pdf_path, png, page=page)
                        written.append(png)
        for project, games in projects:
            for rel, text in render_outputs(project, "a4", landscape=True).items():
                game_id = rel.split("/")[0]
                wanted = game_id in LANDSCAPE_SCREENSHOTS and (only is None or game_id in only)
                if rel.endswith(".html") and wanted and (games is None or game_id in games):
                    pdf_path = Path(tmp) / f"{game_id}-a4-landscape.pdf"
                    pdf_path.write_bytes(html_to_pdf(text))
                    png = out / f"{game_id}-a4-landscape-page1.png"
                    screenshot(pdf_path, png)
                    written.append(png)
    return written


def write_phone_screenshots(root: Path, only: frozenset[str] | None = None) -> list[Path]:
    """The top of each game's HTML aid as `build` writes it (generated/), at phone width (390 x 844
    CSS px, as tests/test_aid_phone.py opens it), under docs/player-aid/<game>-phone.png."""
    from playwright.sync_api import sync_playwright  # lazy: Playwright, a test dependency

    written = []
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox", "--disable-gpu"])
        context = launched.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = context.new_page()
        for html in sorted((root / "generated").glob("*/*.html")):
            if only is not None and html.stem not in only:
                continue
            page.goto(html.resolve().as_uri())
            png = root / "docs" / "player-aid" / f"{html.stem}-phone.png"
            page.screenshot(path=str(png))
            written.append(png)
        launched.close()
    return written


if __name__ == "__main__":
    if missing_tools():
        sys.exit(f"missing {', '.join(missing_tools())}: {INSTALL_HINT}")
    games = frozenset(sys.argv[1:]) or None  # `python -m tests.browser crtlab`: only those games
    root = Path(__file__).resolve().parent.parent
    for path in write_screenshots(root, games) + write_phone_screenshots(root, games):
        print(path)
