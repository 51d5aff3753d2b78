"""The project's routes, discovered from the URL resolver and the OpenAPI schema, so that a page or an
API operation added later is covered by the tests that sweep them (or flagged as unknown)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, get_resolver

SKIPPED_PREFIXES = ("admin/", "i18n/", "accounts/", "api/", "static/", "media/")


def page_patterns() -> dict[str, str]:
    """URL name → route of every page (everything outside the API, the admin and the auth views)."""
    found: dict[str, str] = {}

    def walk(patterns, prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                if str(p.pattern).startswith(SKIPPED_PREFIXES) or route.startswith(SKIPPED_PREFIXES):
                    continue
                walk(p.url_patterns, route)
            elif isinstance(p, URLPattern):
                if route.startswith(SKIPPED_PREFIXES) or p.name is None:
                    continue
                found[p.name] = route

    walk(get_resolver().url_patterns, "")
    return found


def api_operations() -> list[tuple[str, str]]:
    """(method, path) of every operation of the OpenAPI schema."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (method.upper(), path)
        for path, item in schema["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    ]
