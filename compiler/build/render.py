"""Produce the outputs of a compilation in memory; `compiler.build.writer` puts them on disk.

`render_game` and `render_outputs` are pure (model in, `{relative path: text}` out, for one game or
all; a game's `aid.order` comes with the model, read and checked once by project loading);
`render_pdfs` turns the HTML player aids into PDFs with WeasyPrint (`build --pdf`). `in_processes`
is the one way chartc spreads work over worker processes (`--jobs`): the PDFs here, whole games
in `compiler.build.games`. Nothing here touches the output folder.

The JSON schema is the contract of every JSON file chartc writes: a build validates each game's
JSON once it is rendered (`compiler.build.validate`, called by `compiler.build.games`), so
`render_outputs` stays a pure function the tests call freely.

PDFs are optional outputs: they are written, checked and cleaned up only when asked for, so a
build without `--pdf` neither deletes a PDF left by an earlier `--pdf` build nor calls it an orphan.
"""

from __future__ import annotations

import importlib.util
import logging
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

from compiler import model
from compiler.emit.html.aid import emit_game_html
from compiler.emit.json import emit_game_json
from compiler.emit.python.module import emit_game_python

_T = TypeVar("_T")
_R = TypeVar("_R")
PDF_SOURCE_DATE_EPOCH = "0"
"""The date stamped into fonts embedded in a PDF: 1970-01-01, so PDFs do not depend on the clock."""
_NO_WEASYPRINT = "`--pdf` needs WeasyPrint: pip install -e '.[pdf]'"


class OutputError(Exception):
    """An output could not be rendered (`--pdf` without WeasyPrint)."""


def render_outputs(
    project: model.Project, paper: str = "a4", large_print: bool = False, landscape: bool = False
) -> dict[str, str]:
    """Every generated file for the project's games, keyed by POSIX path relative to the output
    folder: `<game>/<game>.json`, `<game>/<game>.py`, `<game>/<game>.html` (the player aid for
    `paper`, in large print and on landscape pages when asked). (A build validates the JSON
    against its schema: `compiler.build.validate`.)
    """
    outputs: dict[str, str] = {}
    for game_id in sorted(project.games):
        outputs.update(render_game(project.games[game_id], paper, large_print, landscape))
    return dict(sorted(outputs.items()))


def render_game(
    game: model.Game, paper: str = "a4", large_print: bool = False, landscape: bool = False
) -> dict[str, str]:
    """The generated files of one game (see `render_outputs`)."""
    return {
        f"{game.id}/{game.id}.html": emit_game_html(game, paper, large_print, game.aid_order, landscape),
        f"{game.id}/{game.id}.json": emit_game_json(game),
        f"{game.id}/{game.id}.py": emit_game_python(game),
    }


def html_to_pdf(html: str) -> bytes:
    """One HTML player aid as PDF bytes, through WeasyPrint (the `pdf` extra); see `layout_pdf`."""
    return layout_pdf(html)[1]


def layout_pdf(html: str) -> tuple[Any, bytes]:
    """One HTML player aid laid out and written as PDF by WeasyPrint (the `pdf` extra): the laid
    out `weasyprint.Document` (its page boxes, for the print tests) and the PDF bytes `build --pdf`
    writes.

    WeasyPrint writes no creation or modification date unless the HTML asks for one, and the fonts
    it embeds are stamped with `SOURCE_DATE_EPOCH` (see `_fixed_clock`), so the same HTML gives the
    same bytes on every run with the same WeasyPrint, Pango and fonts.

    Raises:
        OutputError: WeasyPrint is not installed.
    """
    weasyprint = _weasyprint()

    # WeasyPrint logs every CSS property it ignores (e.g. flex gaps it lays out differently); the
    # aid is tested in both engines, so these are not actionable for a chartc user.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    with _fixed_clock():
        document = weasyprint.HTML(string=html).render(pdf_tags=True)
        pdf: bytes = document.write_pdf(pdf_tags=True)
    return document, pdf


@contextmanager
def _fixed_clock() -> Iterator[None]:
    """Set `SOURCE_DATE_EPOCH` while rendering, unless the caller already chose one.

    Without HarfBuzz's subsetter (`libharfbuzz-subset0`), WeasyPrint subsets fonts with fontTools,
    which stamps each embedded font's `head.modified` with the current time unless this variable
    is set (https://reproducible-builds.org/specs/source-date-epoch/).
    """
    chosen = os.environ.get("SOURCE_DATE_EPOCH")
    if chosen is None:
        os.environ["SOURCE_DATE_EPOCH"] = PDF_SOURCE_DATE_EPOCH
    try:
        yield
    finally:
        if chosen is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)


def require_weasyprint() -> None:
    """Import WeasyPrint now (before worker processes are forked, which then inherit it).

    Raises:
        OutputError: WeasyPrint is not installed.
    """
    _weasyprint()


def find_weasyprint() -> None:
    """Check that WeasyPrint is installed without importing it (0.6 s of CPU), for a build whose
    PDFs are likely read back (`compiler.build.pdfs`): each process imports it if it lays one out.

    Raises:
        OutputError: WeasyPrint is not installed.
    """
    if importlib.util.find_spec("weasyprint") is None:
        raise OutputError(_NO_WEASYPRINT)


def _weasyprint() -> Any:
    """The `weasyprint` module.

    Raises:
        OutputError: WeasyPrint is not installed.
    """
    try:
        import weasyprint  # lazy: WeasyPrint, an optional dependency (the `pdf` extra)
    except ImportError as exc:
        raise OutputError(_NO_WEASYPRINT) from exc
    return weasyprint


def default_jobs(games: int) -> int:
    """How many processes work on `games` games by default: one per CPU this process may use,
    never more than the games."""
    return max(1, min(games, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


def can_fork() -> bool:
    """Whether this system starts worker processes by forking (they inherit every import)."""
    return "fork" in multiprocessing.get_all_start_methods()


def in_processes(work: Callable[[_T], _R], items: Sequence[_T], jobs: int) -> Iterator[_R]:
    """`work` of each item, in the items' order, computed in `jobs` processes forked from this one
    (so after its imports) when `jobs` is above 1 and the system can fork, else here one by one.
    A worker's exception is raised here: the work not started is cancelled, the work started
    finishes and is read, then the workers stop (`ProcessPoolExecutor`; `multiprocessing.Pool`'s
    `terminate()` could wait for ever on a worker killed while it wrote a large result, see
    tests/test_worker_processes.py). A worker that dies is `BrokenProcessPool`, never a hang.

    `work` must be a module-level function; the items and results travel between the processes
    pickled, one at a time.
    """
    if jobs <= 1 or len(items) <= 1 or not can_fork():
        yield from map(work, items)
        return

    limit = worker_timeout()
    with ProcessPoolExecutor(min(jobs, len(items)), mp_context=multiprocessing.get_context("fork")) as pool:
        futures = [pool.submit(work, item) for item in items]
        for future in futures:
            try:
                result = future.result(timeout=limit)
            except TimeoutError:
                _stop_workers(pool, futures)
                raise WorkerTimeout(limit) from None
            yield result


WORKER_TIMEOUT_VARIABLE = "CHARTC_WORKER_TIMEOUT"
DEFAULT_WORKER_TIMEOUT = 900.0
"""Seconds a worker may take over one item (a game, a PDF) after the one before it was read: the
corpus's largest PDF takes about 10 s of CPU, so only a hung worker comes near it."""


class WorkerTimeout(Exception):
    """A worker process sent nothing for longer than the timeout: it hangs (the workers are stopped)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"a worker process sent nothing for {seconds:g} s ({WORKER_TIMEOUT_VARIABLE} sets the limit)")
        self.seconds = seconds


def worker_timeout() -> float:
    """The timeout of one item in a worker: `CHARTC_WORKER_TIMEOUT` seconds, or the default."""
    text = os.environ.get(WORKER_TIMEOUT_VARIABLE, "")
    try:
        seconds = float(text)
    except ValueError:
        return DEFAULT_WORKER_TIMEOUT
    return seconds if seconds > 0 else DEFAULT_WORKER_TIMEOUT


def _stop_workers(pool: ProcessPoolExecutor, futures: Sequence[Any]) -> None:
    """Kill a pool's workers, so that leaving `with pool` does not wait for a hung one for ever.

    `ProcessPoolExecutor` has no public way to stop a busy worker before Python 3.14
    (`terminate_workers`); its `_processes` map is the one handle on them."""
    for future in futures:
        future.cancel()
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()
    pool.shutdown(wait=True, cancel_futures=True)


def render_pdfs(outputs: Mapping[str, str], jobs: int | None = None) -> dict[str, bytes]:
    """A PDF beside every HTML player aid in `outputs` (`<game>/<game>.pdf`).

    With more than one aid and `jobs` above 1 (None: `default_jobs`), the aids are rendered in that many
    processes forked after WeasyPrint is imported (`in_processes`); each PDF's bytes do not depend
    on the process that rendered it.

    Raises:
        OutputError: WeasyPrint is not installed.
    """
    aids = sorted((rel, text) for rel, text in outputs.items() if rel.endswith(".html"))
    jobs = default_jobs(len(aids)) if jobs is None else max(1, min(jobs, len(aids)))
    _weasyprint()  # imported once here: a missing WeasyPrint is reported before any process starts
    pdfs = in_processes(html_to_pdf, [text for _, text in aids], jobs)
    return {rel[: -len(".html")] + ".pdf": pdf for (rel, _), pdf in zip(aids, pdfs, strict=True)}
