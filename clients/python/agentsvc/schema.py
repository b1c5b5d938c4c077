"""JSON schemas from Python type hints, and arguments back to those types.

:func:`function_schema` describes a function's parameters as the JSON schema
object a :class:`~agentsvc.Tool` declares to the service; :func:`coerce`
turns the JSON arguments of a call into the annotated Python types (ints,
enums, dataclasses...) before the function runs.

Supported annotations: ``str``, ``int``, ``float``, ``bool``, ``None``,
``list[X]`` / ``Sequence[X]`` / ``set[X]`` / ``tuple[X, ...]``,
``dict[str, X]`` / ``Mapping[str, X]``, ``X | None`` / ``Optional[X]``,
other unions, ``Literal[...]``, ``enum.Enum`` subclasses, ``TypedDict`` and
dataclass types, ``Any``, and ``Annotated[X, "description"]``.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import inspect
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, Union

__all__ = ["coerce", "description_of", "function_schema", "json_schema", "parameter_descriptions"]

JSONSchema = dict[str, Any]

_SCALARS: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}
_SEQUENCES = (list, set, frozenset, collections.abc.Sequence, collections.abc.Set, collections.abc.Iterable)
_MAPPINGS = (dict, collections.abc.Mapping, collections.abc.MutableMapping)


def function_schema(
    fn: Callable[..., Any],
    *,
    skip: Callable[[Any], bool] = lambda _: False,
) -> JSONSchema:
    """Returns the JSON schema object of ``fn``'s parameters.

    Parameters without a default are ``required``. Parameters whose
    annotation satisfies ``skip`` (the tool context), ``*args`` and
    ``**kwargs`` are left out. Descriptions come from ``Annotated`` metadata
    or, failing that, from the docstring's ``Args:`` section.
    """
    hints = type_hints(fn)
    docs = parameter_descriptions(_doc(fn))
    properties: dict[str, JSONSchema] = {}
    required: list[str] = []
    for param in inspect.signature(fn).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        hint = hints.get(param.name, Any)
        if skip(_strip_annotated(hint)):
            continue
        prop = json_schema(hint)
        if "description" not in prop and param.name in docs:
            prop = {**prop, "description": docs[param.name]}
        properties[param.name] = prop
        if param.default is inspect.Parameter.empty:
            required.append(param.name)
    schema: JSONSchema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def json_schema(hint: Any) -> JSONSchema:
    """Returns the JSON schema of one type annotation."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)

    if origin is typing.Annotated:
        schema = json_schema(args[0])
        notes = [m for m in hint.__metadata__ if isinstance(m, str)]
        if notes:
            schema = {**schema, "description": " ".join(notes)}
        return schema
    if hint is Any or hint is object or hint is inspect.Parameter.empty:
        return {}
    if hint is None or hint is type(None):
        return {"type": "null"}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _enum_schema([m.value for m in hint])
    if hint in _SCALARS:
        return {"type": _SCALARS[hint]}
    if origin is Literal:
        return _enum_schema(list(args))
    if origin is Union or origin is types.UnionType:
        return _union_schema(args)
    if hint in _SEQUENCES or origin in _SEQUENCES:
        return _array_schema(args[0] if args else Any)
    if hint is tuple or origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _array_schema(args[0])
        if args and args != ((),):
            return {"type": "array", "prefixItems": [json_schema(a) for a in args],
                    "minItems": len(args), "maxItems": len(args)}
        return {"type": "array"}
    if hint in _MAPPINGS or origin in _MAPPINGS:
        return {"type": "object"}
    if typing.is_typeddict(hint):
        return _typeddict_schema(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_schema(hint)
    raise TypeError(f"cannot derive a JSON schema for {hint!r}")


def type_hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """Returns the resolved type hints of a function or callable object."""
    target: Any = fn
    if not (inspect.isroutine(target) or inspect.isclass(target)) and callable(target):
        target = target.__call__
    return typing.get_type_hints(target, include_extras=True)


def _strip_annotated(hint: Any) -> Any:
    while typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    return hint


def _enum_schema(values: list[Any]) -> JSONSchema:
    kinds = {type(v) for v in values}
    if kinds == {str}:
        return {"type": "string", "enum": values}
    if kinds == {int}:
        return {"type": "integer", "enum": values}
    if kinds <= {int, float}:
        return {"type": "number", "enum": values}
    if kinds == {bool}:
        return {"type": "boolean", "enum": values}
    return {"enum": values}


def _union_schema(args: tuple[Any, ...]) -> JSONSchema:
    nullable = type(None) in args
    rest = [a for a in args if a is not type(None)]
    if len(rest) == 1:
        schema = json_schema(rest[0])
        if not nullable or not schema:
            return schema
        kind = schema.get("type")
        if isinstance(kind, str):
            return {**schema, "type": [kind, "null"]}
        return {"anyOf": [schema, {"type": "null"}]}
    options = [json_schema(a) for a in rest]
    if nullable:
        options.append({"type": "null"})
    return {"anyOf": options}


def _array_schema(item: Any) -> JSONSchema:
    schema: JSONSchema = {"type": "array"}
    items = json_schema(item)
    if items:
        schema["items"] = items
    return schema


def _typeddict_schema(cls: Any) -> JSONSchema:
    hints = typing.get_type_hints(cls, include_extras=True)
    docs = parameter_descriptions(_doc(cls))
    properties = {name: _described(json_schema(h), docs.get(name)) for name, h in hints.items()}
    schema: JSONSchema = {"type": "object", "properties": properties}
    required = [name for name in hints if name in cls.__required_keys__]
    if required:
        schema["required"] = required
    return _described(schema, description_of(cls))


def _dataclass_schema(cls: type) -> JSONSchema:
    hints = typing.get_type_hints(cls, include_extras=True)
    docs = parameter_descriptions(_doc(cls))
    properties: dict[str, JSONSchema] = {}
    required: list[str] = []
    for field in dataclasses.fields(cls):
        if not field.init:
            continue
        properties[field.name] = _described(json_schema(hints.get(field.name, Any)), docs.get(field.name))
        if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            required.append(field.name)
    schema: JSONSchema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    doc = cls.__doc__ or ""
    # A dataclass without a docstring gets a generated "Name(field: type, ...)".
    if doc and not doc.startswith(f"{cls.__name__}("):
        schema = _described(schema, description_of(cls))
    return schema


def _described(schema: JSONSchema, text: str | None) -> JSONSchema:
    if text and "description" not in schema:
        return {**schema, "description": text}
    return schema


def description_of(obj: object) -> str:
    """Returns the first paragraph of ``obj``'s docstring on one line."""
    doc = _doc(obj)
    paragraph = re.split(r"\n\s*\n", doc.strip(), maxsplit=1)[0]
    return " ".join(line.strip() for line in paragraph.splitlines() if line.strip())


_SECTION = re.compile(r"^(Args|Arguments|Parameters|Params|Attributes):\s*$")
_ENTRY = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def parameter_descriptions(doc: str) -> dict[str, str]:
    """Reads the ``Args:`` (or ``Attributes:``) section of a Google-style
    docstring into a name → description map."""
    out: dict[str, str] = {}
    lines = doc.expandtabs().splitlines()
    i = 0
    while i < len(lines):
        if not _SECTION.match(lines[i].strip()):
            i += 1
            continue
        section_indent = _indent(lines[i])
        i += 1
        entry_indent: int | None = None
        current = ""
        while i < len(lines):
            line = lines[i]
            if line.strip() and _indent(line) <= section_indent:
                break
            if line.strip():
                indent = _indent(line)
                if entry_indent is None:
                    entry_indent = indent
                match = _ENTRY.match(line.strip()) if indent == entry_indent else None
                if match:
                    current = match.group(1).lstrip("*")
                    out[current] = match.group(2).strip()
                elif current:
                    out[current] = f"{out[current]} {line.strip()}".strip()
            i += 1
    return out


def _doc(obj: object) -> str:
    # Not inspect.getdoc: a class without a docstring would get its base's.
    return inspect.cleandoc(getattr(obj, "__doc__", None) or "")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def coerce(value: Any, hint: Any) -> Any:
    """Converts a JSON value to the annotated type where the JSON form
    differs (integral floats to int, ints to float, strings to enums, objects
    to dataclasses, arrays to tuples or sets); other values pass unchanged.
    """
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Annotated:
        return coerce(value, args[0])
    if value is None:
        return None
    if hint is int and isinstance(value, float) and value.is_integer():
        return int(value)
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if origin is Union or origin is types.UnionType:
        return _coerce_union(value, args)
    if isinstance(value, list):
        if origin in (list, collections.abc.Sequence, collections.abc.Iterable) and args:
            return [coerce(v, args[0]) for v in value]
        if origin in (set, frozenset, collections.abc.Set) or hint in (set, frozenset):
            items = [coerce(v, args[0]) for v in value] if args else value
            return frozenset(items) if frozenset in (origin, hint) else set(items)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(coerce(v, args[0]) for v in value)
            if len(args) == len(value):
                return tuple(coerce(v, a) for v, a in zip(value, args))
            return tuple(value)
        if hint is tuple:
            return tuple(value)
    if isinstance(value, dict):
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return _coerce_dataclass(value, hint)
        if typing.is_typeddict(hint):
            hints = typing.get_type_hints(hint, include_extras=True)
            return {k: coerce(v, hints[k]) if k in hints else v for k, v in value.items()}
        if origin in _MAPPINGS and len(args) == 2:
            return {k: coerce(v, args[1]) for k, v in value.items()}
    return value


def _coerce_union(value: Any, args: tuple[Any, ...]) -> Any:
    options = [a for a in args if a is not type(None)]
    if len(options) == 1:
        return coerce(value, options[0])
    # Several options: keep a value that already fits one of them.
    for option in options:
        base = typing.get_origin(option) or option
        if isinstance(base, type) and isinstance(value, base) and not (
            base is int and isinstance(value, bool)
        ):
            return value
    return value


def _coerce_dataclass(value: Mapping[str, Any], cls: type) -> Any:
    hints = typing.get_type_hints(cls, include_extras=True)
    kwargs = {
        f.name: coerce(value[f.name], hints.get(f.name, Any))
        for f in dataclasses.fields(cls)
        if f.init and f.name in value
    }
    return cls(**kwargs)
