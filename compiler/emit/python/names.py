"""The identifier policy of the generated Python: every Python name made from a chart's name.

One namespace per module hands out each name once. Python keywords, builtins, the runtime's names
and the module's fixed names are taken first; then enum aliases and label tables (enums sorted by
id); then each chart's functions and constants, charts whose address already is a Python name first;
a taken name gets the first free suffix `_2`, `_3`, .... Parameters come from a child namespace
and get a trailing `_` instead (`range` -> `range_`), so a keyword argument reads like the chart's
name; a context variable has one parameter name in the whole module. Result keys are not Python
names: they are the column ids of the game's JSON.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from compiler import model

POLICY = (
    "Names: a chart's function is named after its chart ID or slug in lower case, with every character\n"
    "that cannot be in a Python name replaced by '_' (R-1 -> lookup_r_1). Charts whose ID is already a\n"
    "Python name come first; a name already taken gets the first free suffix _2, _3, ... (LOOKUPS maps\n"
    "every chart ID to its function). A key or context name that is a Python keyword or builtin, or a\n"
    "name of this module, gets a trailing '_' (range -> range_). Result keys are the JSON's column ids."
)


_PYTHON_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
_MODULE_NAMES = frozenset(
    {"GAME_ID", "GAME_TITLE", "LOOKUPS", "CONTEXT_PARAMETERS", "EXAMPLES", "check_examples", "FORMULAS", "annotations"}
)


class Namespace:
    """Python names handed out once each, so no chart name can shadow or alias another name."""

    def __init__(self, taken: Iterable[str]) -> None:
        self.taken = set(taken)

    @classmethod
    def for_module(cls, runtime_names: Iterable[str]) -> Namespace:
        return cls(_PYTHON_NAMES | _MODULE_NAMES | set(runtime_names))

    def child(self, fixed: Iterable[str]) -> Namespace:
        """A function's parameter names: none may be a module name or one of `fixed`."""
        return Namespace(self.taken | set(fixed))

    def free(self, *names: str) -> bool:
        return not any(n in self.taken for n in names)

    def claim(self, *names: str) -> None:
        self.taken.update(names)

    def parameter(self, name: str) -> str:
        """A chart-language name as a parameter: `range` -> `range_`, `_select` -> `_select_`."""
        safe = identifier(name)
        while not self.free(safe):
            safe += "_"
        self.claim(safe)
        return safe

    def numbered(self, base: str, group: Callable[[str], list[str]] | None = None) -> str:
        """`base`, else `base_2`, `base_3`, ...: the first whose names (`group(base)`) are free."""
        n = 1
        while True:
            candidate = base if n == 1 else f"{base}_{n}"
            names = [candidate] if group is None else group(candidate)
            if self.free(*names):
                self.claim(*names)
                return candidate
            n += 1


def context_names(game: model.Game, names: Namespace) -> dict[str, str]:
    """Each context variable's parameter name, one for the whole module (every `drm_<id>` calls a
    variable by the same name), distinct from every other variable's, in the order of their ids."""
    scope = names.child(["context"])
    return {var_id: scope.parameter(var_id) for var_id in sorted(game.context)}


def identifier(name: str) -> str:
    safe = re.sub(r"\W", "_", name, flags=re.ASCII)
    return safe if safe[:1].isalpha() or safe[:1] == "_" else f"n_{safe}"


def pascal(name: str) -> str:
    """`aircraft_type` -> `AircraftType`, `r4` -> `R4`."""
    words = [w for w in identifier(name).split("_") if w]
    joined = "".join(w[:1].upper() + w[1:] for w in words) or "Chart"
    return joined if joined[:1].isalpha() else f"N{joined}"


def chart_group(ident: str) -> list[str]:
    """Every module-level name the chart with this identifier uses."""
    const = ident.upper()
    functions = [f"{kind}_{ident}" for kind in ("lookup", "read", "roll", "rolls", "drm", "odds", "shift")]
    parts = ["ROWS", "INDEX", "VALUES", "OUTCOMES", "MONTHS", "DRMS", "RULE", "SHIFTS", "STEPS", "READS", "DRM_NAMES",
             "CHAIN_READS"]
    private = [f"_{const}_{part}" for part in parts]
    return [*functions, f"{const}_COLUMNS", *private]


@dataclass(frozen=True)
class ChartNames:
    ident: str
    result: str  # the TypedDict of a row

    @property
    def const(self) -> str:
        return self.ident.upper()


def chart_names(charts: Sequence[model.Chart], names: Namespace) -> dict[int, ChartNames]:
    """Each chart's identifier, unique in the module: exact ones first, then the rest in order."""
    exact = [c for c in charts if c.address.lower() == c.ident]
    ordered = exact + [c for c in charts if c.address.lower() != c.ident]
    idents = {id(chart): names.numbered(chart.ident, chart_group) for chart in ordered}
    out = {}
    for chart in charts:
        ident = idents[id(chart)]
        out[id(chart)] = ChartNames(ident, names.numbered(pascal(ident) + "Result"))
    return out


@dataclass(frozen=True)
class EnumType:
    """An enum's Python form: its alias, its label table (None when the values are the labels)."""

    enum: model.EnumType
    alias: str
    labels: str | None
    values: tuple[str, ...]  # the Python values: member ids, or the printed columns of an odds rule


def enum_types(game: model.Game, names: Namespace) -> dict[str, EnumType]:
    out = {}
    for enum_id in sorted(game.enums):
        enum = game.enums[enum_id]
        if enum.synthetic or not enum.members:
            continue
        odds = _odds_rule_of(game, enum)
        alias = names.numbered(pascal(enum.id))
        labels = None if odds else names.numbered(identifier(enum.id).upper() + "_LABELS")
        values = tuple(m.label if odds else m.id for m in enum.members)
        out[enum_id] = EnumType(enum, alias, labels, values)
    return out


def _odds_rule_of(game: model.Game, enum: model.EnumType) -> bool:
    """Whether the enum is an odds rule's columns (a CRT key reads them by their printed labels)."""
    chart = game.chart(enum.id)
    return chart is not None and chart.odds is not None and chart.kind is model.ChartKind.ODDS
