"""An exact number column: table points share in thirds and quarters, riichi sticks split three ways.

Stored as text ("7/3", "-27000"), read back as ``fractions.Fraction``; never a float, so sums of shared
table points stay exact (three times 7/3 is 7, not 6.99).
"""

from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db import models


def to_fraction(value) -> Fraction | None:
    if value is None or value == "":
        return None
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        raise TypeError("exact numbers only: pass an int, a Fraction or a string, not a float")
    return Fraction(value)


class FractionField(models.CharField):
    description = "An exact rational number"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 40)
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if kwargs.get("max_length") == 40:
            del kwargs["max_length"]
        return name, path, args, kwargs

    def from_db_value(self, value, expression, connection):
        return to_fraction(value)

    def to_python(self, value):
        try:
            return to_fraction(value)
        except (ValueError, TypeError, ZeroDivisionError) as exc:
            raise ValidationError(f"{value!r} is not an exact number") from exc

    def get_prep_value(self, value):
        value = self.to_python(value)
        return None if value is None else str(value)

    def value_to_string(self, obj):
        value = self.value_from_object(obj)
        return "" if value is None else str(value)


def plain_number(value: Fraction | int | None):
    """A JSON-friendly form: int when whole, else a float rounded to 2 decimals (for display and documents)."""
    if value is None:
        return None
    value = Fraction(value)
    if value.denominator == 1:
        return int(value)
    return round(float(value), 2)
