"""The Content-Security-Policy is sent on every page, and no template relies on what it forbids."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def directives(header: str) -> dict[str, str]:
    """The policy's directives by name (their order in the header is not fixed)."""
    parts = (part.strip().split(" ", 1) for part in header.split(";") if part.strip())
    return dict(parts)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/tournaments/", "/api/docs/"])
def test_every_response_carries_the_policy(client, path):
    policy = directives(client.get(path)["Content-Security-Policy"])
    assert policy["default-src"] == "'self'" and policy["object-src"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"
    if path != "/api/docs/":
        assert policy["script-src"] == "'self'"  # no inline script, no eval anywhere


@pytest.mark.django_db
def test_the_standings_served_from_the_cache_carry_the_policy(client, tournament):
    for _ in range(2):  # rendered, then from the cache
        response = client.get(f"/t/{tournament.slug}/standings/")
        assert directives(response["Content-Security-Policy"])["script-src"] == "'self'"


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
