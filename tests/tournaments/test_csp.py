"""The Content-Security-Policy is sent on every page, and no template relies on what it forbids."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/tournaments/", "/api/docs/"])
def test_every_response_carries_the_policy(client, path):
    policy = client.get(path)["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "object-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy
    if path != "/api/docs/":
        assert "script-src 'self';" in policy  # no inline script, no eval anywhere


@pytest.mark.django_db
def test_the_standings_served_from_the_cache_carry_the_policy(client, tournament):
    for _ in range(2):  # rendered, then from the cache
        response = client.get(f"/t/{tournament.slug}/standings/")
        assert "script-src 'self'" in response["Content-Security-Policy"]


def test_no_template_has_an_inline_script_handler_or_style_attribute():
    found = []
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for pattern in (
            r"<script(?![^>]*\bsrc=)[^>]*>",
            r"\son[a-z]+=\"",
            r"\sstyle=\"",
            r"<style(?![^>]*nonce)",
        ):
            found += [f"{path.relative_to(TEMPLATES)}: {m.group(0)}" for m in re.finditer(pattern, text)]
    assert found == []
