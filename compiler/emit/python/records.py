"""The record sets of the module: each enum with fields (reference data) as a `TypedDict` of its record
and a table of its records by member id, and `RECORDS`/`RECORD_FIELDS` over every set.

    class FamilyRecord: {'aircraft': int | None}
    FAMILY_RECORDS: Final[dict[Family, FamilyRecord]] = {'bf109': {'aircraft': 18}, ...}
    RECORDS: Final[dict[str, _Records]] = {'family': cast(_Records, FAMILY_RECORDS), ...}
    RECORD_FIELDS: Final[dict[str, dict[str, str]]] = {'family': {'aircraft': 'Aircraft (9.1)'}, ...}

A field holds what the game JSON holds: text, an int, a month 'YYYY-MM', a bool, a tuple for a pair,
triple or thresholds, `{'chart': ID}` for a chart reference, another enum's member id (typed by its
`Literal` alias), `None` for a field left out. Names come from the module's namespace after every
other name, so adding records renames nothing.
"""

from __future__ import annotations

from compiler import model
from compiler.emit.python.chart import builtin_type
from compiler.emit.python.layout import INDENT, LINE, fill
from compiler.emit.python.literals import literal
from compiler.emit.python.names import EnumType, Namespace, identifier, pascal
from compiler.engine.records import record_sets


def _field_type(fld: model.Field, enums: dict[str, EnumType]) -> str:
    base = enums[fld.type].alias if isinstance(fld.type, model.EnumRef) else builtin_type(fld.type)
    return f"{base} | None"


def _value(value: model.Value) -> str:
    if isinstance(value, model.ChartRef):
        return f"{{'chart': {value.address!r}}}"
    return literal(value)


def _record_lines(member: model.Member, fields: tuple[model.Field, ...]) -> list[str]:
    """One record as `'id': {'field': value, ...},` in the table: on one line when it fits, else
    packed into lines, a field whose value alone is too long for a line written as its key on one
    line and its value on the next (so only a long text makes a line longer than `LINE`)."""
    pairs = [(repr(f.id), _value(member.get(f.id))) for f in fields]
    items = [f"{k}: {v}" for k, v in pairs]
    packed = fill(f"{member.id!r}: {{", items, "},", INDENT)
    inner = INDENT * 2
    if all(len(line) <= LINE for line in packed):
        return packed
    lines = [f"{INDENT}{member.id!r}: {{"]
    for (key, value), item in zip(pairs, items, strict=True):
        lines += [f"{inner}{item},"] if len(inner + item) < LINE else [f"{inner}{key}:", f"{inner}{INDENT}{value},"]
    return [*lines, f"{INDENT}}},"]


def records_code(game: model.Game, enums: dict[str, EnumType], names: Namespace) -> str:
    """The record sets' types and tables, `RECORDS` and `RECORD_FIELDS`; "" for a game without any."""
    sets = record_sets(game)
    if not sets:
        return ""
    lines: list[str] = []
    tables: list[tuple[str, str]] = []
    for enum in sets:
        record = names.numbered(pascal(enum.id) + "Record")
        table = names.numbered(identifier(enum.id).upper() + "_RECORDS")
        tables.append((enum.id, table))
        fields = [f"{f.id!r}: {_field_type(f, enums)}" for f in enum.fields]
        rule = f" (rule {enum.rule})" if enum.rule else ""
        lines += ["", "", f"# {enum.label}{rule}: each record's fields by member id"]
        lines += fill(f"{record} = TypedDict({record!r}, {{", fields, "})")
        lines.append(f"{table}: Final[dict[{enums[enum.id].alias}, {record}]] = {{")
        for m in enum.members:
            lines += _record_lines(m, enum.fields)
        lines.append("}")
    every = names.numbered("RECORDS")
    labels = names.numbered("RECORD_FIELDS")
    alias = names.numbered("_Records")
    lines += ["", "", "# every record set by enum id: RECORDS['aircraft']['me262a1a']['family']"]
    lines.append(f"{alias}: TypeAlias = Mapping[str, Mapping[str, object]]")
    lines.append(f"{every}: Final[dict[str, {alias}]] = {{")
    lines += [f"{INDENT}{enum_id!r}: cast({alias}, {table})," for enum_id, table in tables]
    lines.append("}")
    lines += ["# the printed label of each field of each record set"]
    lines.append(f"{labels}: Final[dict[str, dict[str, str]]] = {{")
    for enum in sets:
        lines += fill(f"{enum.id!r}: {{", [f"{f.id!r}: {f.label!r}" for f in enum.fields], "},", INDENT)
    lines.append("}")
    return "\n".join(lines)
