"""The options that name the printing a command reads: `--as-printed` (the charts as the book prints
them, no errata) and `--printing NAME` (the errata in their order up to and including NAME), handed
to the command as one `printing` value (`compiler.errata.printing`). Neither: every errata applies.

`--printing` is its own option rather than a value of `--as-printed`: click would read the word
after a bare `--as-printed` as its value (`chartc check --as-printed charts` would ask for a
printing named `charts`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from compiler.diagnostics.textsafe import printable
from compiler.errata.printing import Printing, UnknownPrinting, printing_from


def pick_printing(
    as_printed: bool, name: str | None, flag: str = "--as-printed", option: str = "--printing"
) -> Printing:
    """The printing `--as-printed` and `--printing NAME` name; a usage error when both are given."""
    if as_printed and name is not None:
        raise click.UsageError(f"{flag} and {option} name different printings: give one of them")
    return printing_from(as_printed, name)


def unknown_printing(exc: UnknownPrinting) -> click.UsageError:
    """The usage error of a `--printing NAME` the game does not declare: its errata, the closest first."""
    return click.UsageError(printable(str(exc)))


as_printed_flag = click.option(
    "--as-printed", is_flag=True, help="Read the charts as printed, without errata (the rulebook as it stands)."
)
printing_name_option = click.option(
    "--printing",
    "printing_name",
    metavar="ERRATA",
    help="Read the charts as they stood after errata ERRATA: the game's errata blocks in their order "
    "(`order`, then id) up to and including it, e.g. --printing ia2_1943_44.",
)


def printing_options(command: Callable[..., None]) -> Callable[..., None]:
    """`--as-printed` and `--printing NAME`, handed to `command` as one `printing` argument."""

    @functools.wraps(command)
    def read(**params: Any) -> None:
        printing = pick_printing(params.pop("as_printed"), params.pop("printing_name"))
        command(printing=printing, **params)

    return as_printed_flag(printing_name_option(read))
