"""Request guards that apply to every page and every API call."""

from __future__ import annotations

from django.http import HttpResponseBadRequest, JsonResponse


class RefuseNulMiddleware:
    """A NUL character in a query parameter (``?search=%00``) is refused with a 400 naming the parameter.

    No database stores NUL in text (PostgreSQL refuses it outright), so such a filter can never match and
    would otherwise fail deep in a query."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        bad = sorted(
            {key for key, values in request.GET.lists() if "\x00" in key or any("\x00" in v for v in values)}
        )
        if bad or "\x00" in request.path:
            names = bad or ["path"]
            message = "Null characters are not allowed."
            if request.path.startswith("/api/"):
                body = {name.replace("\x00", "\\0"): [message] for name in names}
                body["detail"] = f"{', '.join(body)}: {message}"
                return JsonResponse(body, status=400)
            return HttpResponseBadRequest(f"{', '.join(n.replace(chr(0), '') for n in names)}: {message}")
        return self.get_response(request)
