"""Words the pages show for values the engines and the database keep in English: a seat's wind letter,
the names of fan, yaku and scoring items, a hand's value, a change's note (tournaments.presenters)."""

from __future__ import annotations

from django import template

from tournaments import presenters

register = template.Library()
register.filter("wind", presenters.wind_letter)
register.filter("item_name", presenters.item_name)
register.filter("item_names", presenters.item_names)
register.filter("value_label", presenters.value_label)
register.filter("history_reason", presenters.history_reason)
