"""The imports of a generated module's runtime, inlined before its first part.

chartc never imports this part: each other part imports what it uses itself, and these imports
must include all of them (tests/test_generated_python.py type-checks the inlined runtime as one
module). The imports are the generated code's too (`cast`, `get_args`, `Callable`, `Mapping`).
"""
# ruff: noqa: F401

# ---- inlined into a generated module below this line
from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import (
    Final,
    Generic,
    Literal,
    NamedTuple,
    TypeAlias,
    TypedDict,
    TypeVar,
    assert_never,
    cast,
    get_args,
)
