"""Every Markdown link and image of README.md and docs/**/*.md stays inside the repository and
lands: the file (or folder) it names exists, and the anchor it names is a heading of that page,
slugged as GitHub slugs headings. Links inside code (fenced blocks and `code spans`) are text, not
links; a bare http(s) address in prose is a link too, since GitHub makes it one."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import ROOT

# [text](target "title") and ![alt](target); the target may be wrapped in <...>
_INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
_AUTOLINK = re.compile(r"<([a-z][a-z0-9+.-]*:[^>\s]*)>", re.I)
_BARE = re.compile(r"\b(?:https?://|www\.)[^\s)>\]]+", re.I)
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


@dataclass(frozen=True)
class Link:
    page: Path
    line: int
    target: str

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}: {self.target}"


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _prose(text: str) -> str:
    """The text with fenced code blocks and code spans blanked out (line numbers kept)."""
    lines = text.split("\n")
    fence: str | None = None
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            lines[i] = ""
        elif fence is not None:
            if stripped.startswith(fence):
                fence = None
            lines[i] = ""
    joined = "\n".join(lines)
    return _CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), joined)


def links(page: Path) -> list[Link]:
    return [Link(page, line, target) for line, target in _targets(page.read_text(encoding="utf-8"))]


def _targets(text: str) -> list[tuple[int, str]]:
    """(line, target) of every link of a page's text; a bare address is one outside the others."""
    prose = _prose(text)
    found = []
    for pattern in (_INLINE, _REFERENCE, _AUTOLINK):
        for match in pattern.finditer(prose):
            found.append((prose.count("\n", 0, match.start()) + 1, match.group(1)))
        prose = pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), prose)
    for match in _BARE.finditer(prose):
        found.append((prose.count("\n", 0, match.start()) + 1, match.group(0)))
    return sorted(found)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its rendered text in lower case, every character that is not a
    letter, mark, number, connector (`_`), space or hyphen dropped, spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link reads as its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    kept = "".join(c for c in text.lower() if c in " -" or unicodedata.category(c)[0] in "LMN" or c == "_")
    return kept.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """Every anchor of a page: its headings' slugs (a repeated one gets -1, -2, ...) and HTML anchors."""
    prose = _prose_keeping_code_spans(page.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    found = set(_HTML_ANCHOR.findall(prose))
    for line in prose.split("\n"):
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def _prose_keeping_code_spans(text: str) -> str:
    """The text with fenced code blocks blanked out: a heading may hold a code span."""
    kept, fence = [], None
    for line in text.split("\n"):
        stripped = line.lstrip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            kept.append("")
        elif fence is not None:
            fence = None if stripped.startswith(fence) else fence
            kept.append("")
        else:
            kept.append(line)
    return "\n".join(kept)


def problem(link: Link) -> str | None:
    """Why a link does not land, or None."""
    target = link.target
    if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith(("//", "www.")):
        return "leaves the repository"
    path_part, _, anchor = target.partition("#")
    path = (link.page.parent / path_part).resolve() if path_part else link.page
    if not path.is_relative_to(ROOT):
        return "leaves the repository"
    if not path.exists():
        return "names no file"
    if anchor:
        if path.suffix != ".md":
            return "an anchor into a file that is not Markdown"
        if anchor not in anchors(path):
            return f"no heading of {path.relative_to(ROOT)} has the anchor #{anchor}"
    return None


def test_every_link_lands_inside_the_repository() -> None:
    all_links = [link for page in pages() for link in links(page)]
    assert len(all_links) > 100  # README's docs, the diagnostics index, the cross-references
    broken = [f"{link}: {why}" for link in all_links if (why := problem(link))]
    assert broken == []


def test_the_readme_shows_the_aid_and_links_each_page_of_docs() -> None:
    targets = {link.target for link in links(ROOT / "README.md")}
    assert "docs/player-aid/ia2-a4-page1.png" in targets
    top = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")}
    records = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs" / "records").glob("*.md")}
    assert top | records <= targets


@pytest.mark.parametrize(
    "heading, expected",
    [
        ("Formatting: `chartc fmt`", "formatting-chartc-fmt"),
        ("A CRT's design figures: `chartc analyze`", "a-crts-design-figures-chartc-analyze"),
        ("C360 date-for-range", "c360-date-for-range"),
        (
            "Why PDFs are not committed, and what byte-identity holds for",
            "why-pdfs-are-not-committed-and-what-byte-identity-holds-for",
        ),
        ("Per-N DRMs", "per-n-drms"),
        ("Chances: our own exact enumeration, not icepool", "chances-our-own-exact-enumeration-not-icepool"),
        ("DRMs → the modified roll (1d6 − 3)", "drms--the-modified-roll-1d6--3"),
        ("[The corpus](records/corpus.md) and *errata*", "the-corpus-and-errata"),
        ("fb_attack", "fb_attack"),
    ],
)
def test_slugs_follow_github(heading: str, expected: str) -> None:
    assert slug(heading) == expected


def test_a_broken_link_is_caught() -> None:
    page = ROOT / "docs" / "guide.md"
    cases = {
        "[pre-commit](https://pre-commit.com)": "leaves the repository",
        "see https://example.org/x": "leaves the repository",
        "[shared](../../shared/research/notes.md)": "leaves the repository",
        "[gone](nowhere.md)": "names no file",
        "![aid](player-aid/no-such-page.png)": "names no file",
        "[cli](cli.md#no-such-heading)": "no heading of docs/cli.md has the anchor #no-such-heading",
        "[png](highlighting.png#top)": "an anchor into a file that is not Markdown",
    }
    for text, why in cases.items():
        (found,) = (Link(page, line, target) for line, target in _targets(text))
        assert problem(found) == why, text
    assert _targets("`[not a link](nowhere.md)` and ``https://example.org``\n```\n[x](y.md)\n```\n") == []
    assert _targets("a\n[guide](guide.md) and <https://example.org>") == [(2, "guide.md"), (2, "https://example.org")]


def test_the_readme_is_a_front_page() -> None:
    # issue 29: the README is read in five minutes; the rest lives in docs/
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; move the rest into docs/"
