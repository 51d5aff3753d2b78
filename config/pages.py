"""Site-wide pages: the favicon and the error pages (403, 404, 500) in the product's own layout."""

from __future__ import annotations

from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpResponsePermanentRedirect


def favicon(request):
    return HttpResponsePermanentRedirect(staticfiles_storage.url("img/favicon.svg"))
