"""Unit tests of JSON schema derivation and argument coercion."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, Optional, TypedDict, Union

import pytest

from agentsvc import schema


class Unit(enum.Enum):
    CELSIUS = "C"
    FAHRENHEIT = "F"


@dataclasses.dataclass
class Place:
    """A place on Earth.

    Attributes:
        city: The city's name.
        country: ISO 3166 code.
    """

    city: str
    country: str = "FR"


class Window(TypedDict, total=False):
    start: str
    days: int


class Point(TypedDict):
    x: float
    y: float


@pytest.mark.parametrize(
    ("hint", "want"),
    [
        (str, {"type": "string"}),
        (int, {"type": "integer"}),
        (float, {"type": "number"}),
        (bool, {"type": "boolean"}),
        (None, {"type": "null"}),
        (Any, {}),
        (list[str], {"type": "array", "items": {"type": "string"}}),
        (list, {"type": "array"}),
        (Sequence[int], {"type": "array", "items": {"type": "integer"}}),
        (set[str], {"type": "array", "items": {"type": "string"}}),
        (tuple[int, ...], {"type": "array", "items": {"type": "integer"}}),
        (
            tuple[str, int],
            {
                "type": "array",
                "prefixItems": [{"type": "string"}, {"type": "integer"}],
                "minItems": 2,
                "maxItems": 2,
            },
        ),
        (dict, {"type": "object"}),
        (dict[str, int], {"type": "object"}),
        (Mapping[str, Any], {"type": "object"}),
        (Optional[str], {"type": ["string", "null"]}),
        (int | None, {"type": ["integer", "null"]}),
        (Union[int, str], {"anyOf": [{"type": "integer"}, {"type": "string"}]}),
        (
            int | str | None,
            {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]},
        ),
        (Literal["C", "F"], {"type": "string", "enum": ["C", "F"]}),
        (Literal[1, 2, 3], {"type": "integer", "enum": [1, 2, 3]}),
        (Unit, {"type": "string", "enum": ["C", "F"]}),
        (Annotated[str, "The city."], {"type": "string", "description": "The city."}),
        (
            Point,
            {
                "type": "object",
                "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                "required": ["x", "y"],
            },
        ),
        (
            Window,
            {"type": "object", "properties": {"start": {"type": "string"}, "days": {"type": "integer"}}},
        ),
        (
            Place,
            {
                "type": "object",
                "description": "A place on Earth.",
                "properties": {
                    "city": {"type": "string", "description": "The city's name."},
                    "country": {"type": "string", "description": "ISO 3166 code."},
                },
                "required": ["city"],
            },
        ),
        (
            Optional[Place],
            {
                "type": ["object", "null"],
                "description": "A place on Earth.",
                "properties": {
                    "city": {"type": "string", "description": "The city's name."},
                    "country": {"type": "string", "description": "ISO 3166 code."},
                },
                "required": ["city"],
            },
        ),
        (
            list[Point] | None,
            {
                "type": ["array", "null"],
                "items": {
                    "type": "object",
                    "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                    "required": ["x", "y"],
                },
            },
        ),
        (Optional[Any], {}),
    ],
    ids=repr,
)
def test_json_schema(hint: Any, want: dict[str, Any]) -> None:
    assert schema.json_schema(hint) == want


def test_json_schema_rejects_unknown_types() -> None:
    class Opaque:
        pass

    with pytest.raises(TypeError, match="Opaque"):
        schema.json_schema(Opaque)


def test_function_schema_requires_parameters_without_defaults() -> None:
    def forecast(
        city: Annotated[str, "City name."],
        days: int = 3,
        unit: Literal["C", "F"] = "C",
        *args: Any,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """Returns the forecast.

        Args:
            city: Ignored, Annotated wins.
            days: How many days,
                counted from today.
        """
        return {}

    assert schema.function_schema(forecast) == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name."},
            "days": {"type": "integer", "description": "How many days, counted from today."},
            "unit": {"type": "string", "enum": ["C", "F"]},
        },
        "required": ["city"],
    }


def test_function_schema_without_parameters() -> None:
    def now() -> str:
        return ""

    assert schema.function_schema(now) == {"type": "object", "properties": {}}


class Context:
    pass


def test_function_schema_skips_matching_annotations() -> None:
    def lookup(query: str, ctx: Context) -> str:
        return query

    got = schema.function_schema(lookup, skip=lambda hint: hint is Context)
    assert got == {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}


def test_description_is_the_first_paragraph_on_one_line() -> None:
    def f() -> None:
        """Looks up the weather
        of a city.

        Returns a dict.
        """

    assert schema.description_of(f) == "Looks up the weather of a city."

    class Bare(TypedDict):
        a: int

    assert schema.description_of(Bare) == ""


def test_parameter_descriptions_reads_google_style_sections() -> None:
    doc = """Summary.

    Args:
        city (str): The city.
        days: Days ahead,
            at most 7.

    Returns:
        days: not a parameter.
    """
    assert schema.parameter_descriptions(doc) == {"city": "The city.", "days": "Days ahead, at most 7."}


@pytest.mark.parametrize(
    ("value", "hint", "want"),
    [
        (3.0, int, 3),
        (3, float, 3.0),
        ("C", Unit, Unit.CELSIUS),
        (None, Optional[int], None),
        (2.0, Optional[int], 2),
        ([1.0, 2.0], list[int], [1, 2]),
        ([1, 2], tuple[int, ...], (1, 2)),
        (["a", 1.0], tuple[str, int], ("a", 1)),
        (["a", "a"], set[str], {"a"}),
        ({"a": 1.0}, dict[str, int], {"a": 1}),
        ({"x": 1, "y": 2}, Point, {"x": 1.0, "y": 2.0}),
        ({"city": "Paris"}, Place, Place(city="Paris")),
        ([{"city": "Oslo", "country": "NO"}], list[Place], [Place("Oslo", "NO")]),
        ("x", Annotated[str, "doc"], "x"),
        ("x", Any, "x"),
        (1, Union[int, str], 1),
    ],
    ids=repr,
)
def test_coerce(value: Any, hint: Any, want: Any) -> None:
    got = schema.coerce(value, hint)
    assert got == want
    assert type(got) is type(want)
