"""The JSON Schemas chartc ships (`schemas/`, installed as `compiler/schemas/`) and validation against them.

`chartc build` validates every game JSON it renders before anything is staged (`validate_outputs`):
a JSON that does not match its schema is a bug in chartc's emitter, raised as `InvalidOutput` (an
internal error: the build writes nothing). `chartc validate FILE...` checks a file a consumer holds
(`violations`): a game JSON, or the diagnostics JSON of `chartc check --format json`, each told
apart by `schema_of`.

Validation is jsonschema's (Draft 2020-12), imported on first use. Each schema's validator is
built once per process (`validator`, cached) and before a parallel build forks its workers
(`prepare`). Building it is cheap; reading a document is not: jsonschema walks every value, which
costs about as much as rendering the game (measured with `scripts/bench.py --only validate`). So a
build validates lazily: the SHA-256 of every game JSON a build wrote or found up to date is kept
in the user's cache folder (`remember`), under a key of chartc's own files (its schemas among
them) and jsonschema's version, and a JSON whose bytes were already found valid under that key is
not read again (`validated_before`). The same bytes against the same schema and validator give the
same verdict, so the memo skips work, never a check.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compiler.build.cache import code_fingerprint
from compiler.build.reader import ReadError, ReadFailure, read_text
from dsl.parser_cache import read_trusted, write_private

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator


class Schema(enum.StrEnum):
    """A schema chartc ships, by its file name in `schemas/`."""

    GAME = "chartc-game.schema.json"
    """`generated/<game>/<game>.json`, written by `chartc build`."""
    DIAGNOSTICS = "diagnostics.schema.json"
    """The report of `chartc check --format json`."""


@dataclass(frozen=True)
class Violation:
    """One place where a document does not match its schema."""

    pointer: str
    """Where, as a JSON Pointer (RFC 6901): `/charts/3/rows/0/range/min`; `` is the whole document."""
    message: str
    """What is wrong, in jsonschema's words (it quotes the offending value)."""

    def describe(self) -> str:
        """`at /charts/3/rows/0/range/min: 'one' is not of type 'integer'`."""
        return f"at {self.pointer or '(root)'}: {self.message}"


class InvalidOutput(Exception):
    """A JSON chartc rendered does not match its schema: a bug in chartc, not in the charts."""


@dataclass(frozen=True)
class Verdict:
    """What `chartc validate` found in one file."""

    file: str
    """The file as it was named."""
    schema: Schema | None
    """The schema it was validated against; None when it was not (see `problem`)."""
    problem: str | None = None
    """Why it was not validated: unreadable, not JSON, or neither a game nor a diagnostics JSON."""
    violations: tuple[Violation, ...] = ()

    @property
    def valid(self) -> bool:
        return self.problem is None and not self.violations


MAX_JSON_BYTES = 256 * 1024 * 1024
"""Largest file `chartc validate` reads (256 MiB: the corpus's largest game JSON is 0.5 MB)."""


@cache
def load_schema(schema: Schema) -> dict[str, Any]:
    """A schema chartc ships, parsed (the package copy of `schemas/`)."""
    doc: dict[str, Any] = json.loads(files("compiler").joinpath("schemas", schema.value).read_text(encoding="utf-8"))
    return doc


@cache
def validator(schema: Schema) -> Draft202012Validator:
    """The validator of `schema`, built once per process (jsonschema is imported here, on first use)."""
    # lazy: jsonschema on first validation: a build whose JSON was found valid before never imports it
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(schema))


def prepare() -> None:
    """Build the game schema's validator now: a parallel build calls this before forking its workers,
    which then inherit it with jsonschema imported."""
    validator(Schema.GAME)


def schema_of(doc: object) -> Schema | None:
    """The schema a document is written against: a game JSON names its schema's `$id` in `$schema`;
    the diagnostics JSON is an object holding `diagnostics` and `summary` and no `$schema`. None
    for anything else."""
    if not isinstance(doc, dict):
        return None
    claimed = doc.get("$schema")
    if claimed is None:
        return Schema.DIAGNOSTICS if "diagnostics" in doc and "summary" in doc else None
    return next((s for s in Schema if load_schema(s).get("$id") == claimed), None)


def violations(doc: object, schema: Schema) -> list[Violation]:
    """Every place where `doc` does not match `schema`, sorted by where it is (array indexes as
    numbers); empty when it matches.

    An error under `oneOf`/`anyOf` is reported as the branch that came closest (jsonschema's
    `best_match`), not as "is not valid under any of the given schemas".
    """
    # lazy: jsonschema on first validation: a build whose JSON was found valid before never imports it
    from jsonschema.exceptions import best_match

    found: dict[Violation, tuple[tuple[int, int, str], ...]] = {}
    for error in validator(schema).iter_errors(doc):
        closest = best_match([error]) or error
        path = tuple(closest.absolute_path)
        where = tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in path)
        found.setdefault(Violation(_pointer(path), closest.message), where)
    return sorted(found, key=lambda v: (found[v], v.message))


def check_file(path: Path) -> Verdict:
    """Read one file (`compiler.build.reader`'s rules: a regular file, UTF-8, at most
    `MAX_JSON_BYTES`) and validate it against the schema it is written against (`schema_of`)."""
    shown = str(path)
    try:
        text = read_text(path, path.parent, limit=MAX_JSON_BYTES)
    except ReadError as exc:
        at = f" (line {exc.line}, column {exc.col})" if exc.failure is ReadFailure.NOT_UTF8 else ""
        return Verdict(shown, None, exc.describe(shown) + at)
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except ValueError as exc:
        return Verdict(shown, None, f"not JSON: {exc}")
    except RecursionError:
        return Verdict(shown, None, "not read: JSON nested too deeply")
    schema = schema_of(doc)
    if schema is None:
        return Verdict(shown, None, "neither a game JSON (`$schema` naming chartc-game.schema.json) "
                                    "nor a diagnostics JSON (`chartc check --format json`)")
    try:
        return Verdict(shown, schema, violations=tuple(violations(doc, schema)))
    except RecursionError:
        return Verdict(shown, schema, "not validated: JSON nested too deeply")


def _no_constant(name: str) -> object:
    """`NaN`, `Infinity` and `-Infinity`, which Python's `json` reads but JSON does not have."""
    raise ValueError(f"`{name}` is not a JSON value")


def first_violation(doc: object, schema: Schema) -> Violation | None:
    """The most relevant violation of `schema` by `doc` (jsonschema's `best_match`), or None."""
    # lazy: jsonschema on first validation: a build whose JSON was found valid before never imports it
    from jsonschema.exceptions import best_match

    error = best_match(validator(schema).iter_errors(doc))
    return None if error is None else Violation(_pointer(error.absolute_path), error.message)


def validate_json(content: str | bytes, schema: Schema = Schema.GAME) -> None:
    """Validate one JSON text chartc rendered against `schema`.

    Raises:
        InvalidOutput: where it fails first (jsonschema's most relevant error) and why.
    """
    found = first_violation(json.loads(content), schema)
    if found is not None:
        raise InvalidOutput(f"does not match {schema.value} {found.describe()}")


def validate_outputs(outputs: Mapping[str, str | bytes], validated: frozenset[str] = frozenset()) -> None:
    """Validate every game JSON among a build's `outputs` (relative path -> content), except those
    whose `digest` is in `validated` (found valid before: `validated_before`).

    Raises:
        InvalidOutput: naming the file, where it fails and why.
    """
    for rel, content in sorted(outputs.items()):
        if rel.endswith(".json") and digest(content) not in validated:
            try:
                validate_json(content)
            except InvalidOutput as exc:
                raise InvalidOutput(f"{rel} {exc}") from None


def _pointer(path: Iterable[str | int]) -> str:
    """A path into a document as a JSON Pointer (`~` and `/` in a key escaped as RFC 6901 says)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


MEMO_NAME = "valid-json.json"
"""The memo of game JSON found valid, in the user's cache folder (`dsl.parser_cache.default_cache_dir`)."""
MEMO_KEEP = 256
"""Most digests the memo keeps (the most recently remembered): about 60 builds of the four corpus games."""
_MEMO_FORMAT = "1"


def digest(content: str | bytes) -> str:
    """The SHA-256 of an output's bytes, as the writer's digests (`compiler.build.writer`) hold it."""
    return hashlib.sha256(content if isinstance(content, bytes) else content.encode("utf-8")).hexdigest()


def validated_before(cache_dir: Path) -> frozenset[str]:
    """The digests of the game JSON found valid by this chartc (its files, schemas included) with
    this jsonschema; empty when the memo is missing, foreign, damaged or of another key."""
    return frozenset(_remembered(cache_dir))


def remember(cache_dir: Path, digests: Iterable[str]) -> None:
    """Add `digests` (of game JSON found valid) to the memo, keeping the `MEMO_KEEP` newest."""
    new = sorted(set(digests))
    kept = [d for d in _remembered(cache_dir) if d not in new] + new
    doc = {"format": _MEMO_FORMAT, "key": _memo_key(), "valid": kept[-MEMO_KEEP:]}
    write_private(json.dumps(doc, indent=0).encode("utf-8"), cache_dir / MEMO_NAME)


def _remembered(cache_dir: Path) -> list[str]:
    data = read_trusted(cache_dir / MEMO_NAME)
    try:
        doc = json.loads(data) if data is not None else None
    except ValueError:
        return []
    if not (isinstance(doc, dict) and doc.get("format") == _MEMO_FORMAT and doc.get("key") == _memo_key()):
        return []
    valid = doc.get("valid")
    return [d for d in valid if isinstance(d, str)] if isinstance(valid, list) else []


@cache
def _memo_key() -> str:
    """What a verdict depends on: chartc's files (the schemas among them) and jsonschema's version."""
    return hashlib.sha256(f"{code_fingerprint()}\0jsonschema {version('jsonschema')}".encode()).hexdigest()
