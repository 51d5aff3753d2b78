"""Dates, times and numbers as each language writes them (Django's locale formats, ours for English and
Spanish): the 24-hour clock everywhere on the site, the decimal comma where the language uses it; the
CSV files and the API stay the same in every language."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation
from django.utils.formats import date_format, number_format, time_format

from rankings.exports.base import csv_cell
from tournaments.presenters import num

LANGUAGES = [code for code, _name in settings.LANGUAGES]
AFTERNOON = dt.datetime(2026, 5, 2, 16, 31, 5)
DECIMAL_COMMA = {"es", "eu", "fr", "de", "it", "nl", "pl", "pt"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_times_on_a_24_hour_clock_and_dates_in_the_language(language):
    with translation.override(language):
        assert "16" in time_format(AFTERNOON.time(), "TIME_FORMAT")
        assert "PM" not in time_format(AFTERNOON.time(), "TIME_FORMAT").upper()
        shown = date_format(AFTERNOON.date(), "DATE_FORMAT")
        assert "2026" in shown and "2" in shown
        month = date_format(AFTERNOON.date(), "F")
    assert (month == "May") == (language == "en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_numbers_with_the_language_s_decimal_mark(language):
    mark = "," if language in DECIMAL_COMMA else "."
    with translation.override(language):
        assert num(Fraction(3, 2)) == f"1{mark}5" and num(12) == "12" and num(-10) == "−10"
        assert number_format(2.5, 1) == f"2{mark}5"
        assert Template("{{ v|floatformat:1 }}").render(Context({"v": 2.25})) in (f"2{mark}3", f"2{mark}2")


def test_the_api_and_the_csv_keep_the_point(client, tournament):
    """The exports and the API are read by programs: the same numbers and dates in every language."""
    for language in ("en", "es", "de"):
        with translation.override(language):
            assert str(csv_cell(Fraction(3, 2))) == "1.5" and csv_cell(2.5) == 2.5
            assert csv_cell(AFTERNOON) == "2026-05-02 16:31" and csv_cell(AFTERNOON.date()) == "2026-05-02"
    english = client.get(f"/api/tournaments/{tournament.slug}/", HTTP_ACCEPT_LANGUAGE="en")
    german = client.get(f"/api/tournaments/{tournament.slug}/", HTTP_ACCEPT_LANGUAGE="de")
    assert english.status_code == german.status_code == 200
    assert english.json()["starts_on"] == german.json()["starts_on"] == "2026-05-01"
