"""`dsl.lazy_dataclass`: a class behaves as the standard `dataclasses.dataclass` makes it,
whichever use comes first, and its methods are generated only on that first use."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from dsl import lazy_dataclass
from dsl.lazy_dataclass import dataclass


@dataclass(frozen=True)
class Range:
    """A die range, as `compiler.model.DieRange` holds one (IA2 R4: piston 3-6)."""

    low: int
    high: int
    text: str = ""


@dataclasses.dataclass(frozen=True)
class StandardRange:
    low: int
    high: int
    text: str = ""


@dataclass(frozen=True)
class Unpickled:
    """Only ever read back from a pickle in its test, as the compiled-game cache reads the model."""

    chart: str
    roll: int


@dataclass(frozen=True)
class Base:
    chart: str


@dataclass(frozen=True)
class Derived(Base):
    roll: int


@dataclass(frozen=True, order=True)
class Ordered:
    line: int
    col: int


@dataclass
class Mutable:
    rows: list[int] = dataclasses.field(default_factory=list)


@dataclass(frozen=True)
class OwnEq:
    text: str

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OwnEq) and self.text.casefold() == other.text.casefold()


def test_a_class_is_completed_on_first_use_and_then_is_the_standard_one() -> None:
    assert Range in lazy_dataclass._pending  # nothing has used it yet
    r = Range(3, 6, "3-6")
    assert Range not in lazy_dataclass._pending
    standard = StandardRange(3, 6, "3-6")
    assert repr(r) == repr(standard).replace("StandardRange", "Range")
    assert r == Range(3, 6, "3-6") and r != Range(3, 5)
    assert hash(r) == hash(standard) == hash((3, 6, "3-6"))
    assert [f.name for f in dataclasses.fields(r)] == ["low", "high", "text"]
    assert dataclasses.replace(r, high=5) == Range(3, 5, "3-6")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.low = 1  # type: ignore[misc]
    match r:
        case Range(low, high):
            assert (low, high) == (3, 6)


def test_an_unpickled_instance_completes_its_class_when_compared() -> None:
    # built as pickle builds it (no __init__), the way the compiled-game cache reads the model
    raw = object.__new__(Unpickled)
    raw.__dict__.update(chart="R4", roll=3)
    back = pickle.loads(pickle.dumps(raw))
    assert Unpickled in lazy_dataclass._pending
    assert back == Unpickled("R4", 3) and hash(back) == hash(("R4", 3))
    assert repr(back) == "Unpickled(chart='R4', roll=3)"


def test_a_subclass_completes_its_base_first() -> None:
    d = Derived("R4", 3)
    assert [f.name for f in dataclasses.fields(d)] == ["chart", "roll"]
    assert Base("R9") == Base("R9") and Base not in lazy_dataclass._pending
    assert d.__match_args__ == ("chart", "roll")


def test_order_mutable_defaults_and_a_class_own_eq_are_kept() -> None:
    assert sorted([Ordered(2, 1), Ordered(1, 9), Ordered(1, 2)]) == [Ordered(1, 2), Ordered(1, 9), Ordered(2, 1)]
    a, b = Mutable(), Mutable()
    a.rows.append(1)
    assert (a.rows, b.rows) == ([1], [])
    with pytest.raises(TypeError, match="unhashable type: 'Mutable'"):
        hash(b)  # eq without frozen: the standard decorator sets __hash__ to None
    assert OwnEq("Piston") == OwnEq("piston")
    assert hash(OwnEq("x")) == hash(("x",))  # frozen with its own __eq__: the generated hash
