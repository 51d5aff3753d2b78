"""ISO 3166-1 alpha-3 country codes."""

from functools import lru_cache

import pycountry
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


@lru_cache(maxsize=1)
def alpha3_codes() -> frozenset[str]:
    return frozenset(c.alpha_3 for c in pycountry.countries)


def is_country(code: str) -> bool:
    return (code or "").upper() in alpha3_codes()


def country_name(code: str) -> str:
    country = pycountry.countries.get(alpha_3=(code or "").upper())
    return country.name if country else code


def validate_country(value: str) -> None:
    if value and not is_country(value):
        raise ValidationError(
            _("%(value)s is not an ISO 3166 three-letter country code (for example ESP, FRA, NLD)."),
            params={"value": value},
        )
