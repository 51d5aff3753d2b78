"""``{% offline_cache_name %}``: the service worker's cache of the table pages. (The strings of the page's
queue of hands are in static/js/offline-entry.js, translated by the scripts' catalogue, djangojs.)"""

from django import template

from scoring.offline.assets import cache_name

register = template.Library()


@register.simple_tag
def offline_cache_name() -> str:
    """The service worker's cache, where the page keeps its newest copy after each hand it sent."""
    return cache_name()
