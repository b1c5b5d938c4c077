"""Conversions between Python values and google.protobuf Struct and Value."""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping
from typing import Any

from google.protobuf import struct_pb2

# Struct numbers are doubles: integral ones up to this magnitude are given
# back as int, as a JSON decoder would.
_MAX_EXACT_INT = 2**53


def to_value(obj: object) -> struct_pb2.Value:
    """Converts a JSON-like Python value to a ``google.protobuf.Value``.

    Accepts None, bool, int, float, str, mappings with str keys, lists,
    tuples and sets, enums (by value), dataclass instances and objects with a
    pydantic-style ``model_dump``. Raises TypeError for anything else.
    """
    value = struct_pb2.Value()
    _fill(value, obj, depth=0)
    return value


def to_struct(obj: Mapping[str, object]) -> struct_pb2.Struct:
    """Converts a mapping with str keys to a ``google.protobuf.Struct``."""
    out = struct_pb2.Struct()
    _fill_struct(out, obj, depth=0)
    return out


def from_value(value: struct_pb2.Value) -> Any:
    """Converts a ``google.protobuf.Value`` to plain Python values."""
    kind = value.WhichOneof("kind")
    if kind == "struct_value":
        return from_struct(value.struct_value)
    if kind == "list_value":
        return [from_value(v) for v in value.list_value.values]
    if kind == "number_value":
        return _number(value.number_value)
    if kind == "string_value":
        return value.string_value
    if kind == "bool_value":
        return value.bool_value
    return None


def from_struct(struct: struct_pb2.Struct) -> dict[str, Any]:
    """Converts a ``google.protobuf.Struct`` to a dict of plain values;
    integral numbers come back as int."""
    return {key: from_value(v) for key, v in struct.fields.items()}


def _number(n: float) -> int | float:
    if math.isfinite(n) and n.is_integer() and abs(n) <= _MAX_EXACT_INT:
        return int(n)
    return n


# Deeper values are almost certainly cycles.
_MAX_DEPTH = 100


def _fill(value: struct_pb2.Value, obj: object, depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise ValueError("value is nested too deeply (a reference cycle?)")
    if obj is None:
        value.null_value = struct_pb2.NULL_VALUE
    elif isinstance(obj, bool):
        value.bool_value = obj
    elif isinstance(obj, enum.Enum):
        _fill(value, obj.value, depth + 1)
    elif isinstance(obj, (int, float)):
        value.number_value = float(obj)
    elif isinstance(obj, str):
        value.string_value = obj
    elif isinstance(obj, Mapping):
        _fill_struct(value.struct_value, obj, depth + 1)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        items = value.list_value
        items.SetInParent()
        for item in obj:
            _fill(items.values.add(), item, depth + 1)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        _fill_struct(value.struct_value, dataclasses.asdict(obj), depth + 1)
    elif callable(getattr(obj, "model_dump", None)):
        _fill(value, obj.model_dump(mode="json"), depth + 1)  # type: ignore[attr-defined]
    else:
        raise TypeError(f"cannot convert {type(obj).__name__} to a JSON value")


def _fill_struct(out: struct_pb2.Struct, obj: Mapping[Any, object], depth: int) -> None:
    out.SetInParent()
    for key, item in obj.items():
        if not isinstance(key, str):
            raise TypeError(f"object keys must be str, not {type(key).__name__}")
        _fill(out.fields[key], item, depth + 1)
