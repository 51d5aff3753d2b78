"""``{% idempotency_field %}``: the hidden field that makes a page's form safe to send twice."""

import uuid

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def idempotency_field() -> str:
    """A new key for each rendering of a form: sending the same rendered form again is one write."""
    return format_html('<input type="hidden" name="idempotency_key" value="{}">', uuid.uuid4().hex)
