from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_replace
from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import languages
from config.health import healthz
from config.pages import favicon

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", languages.set_language, name="set_language"),
    path("i18n/js/<str:language>.js", languages.javascript_catalog, name="javascript-catalog"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI: its start-up script is a file of its own (the split view); it styles elements inline.
    path(
        "api/docs/",
        csp_replace({"style-src": [SELF, UNSAFE_INLINE]})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema")
        ),
        name="api-docs",
    ),
    path("api/", include("config.api_urls")),
    path("", include("scoring.offline.urls")),
    path("", include("scoring.urls")),
    path("", include("scoring.tiles.urls")),
    path("", include("scoring.calls.urls")),
    path("", include("penalties.urls")),
    path("", include("rankings.standings.urls")),
    path("", include("rankings.ema.urls")),
    path("", include("rankings.exports.urls")),
    path("", include("rankings.archive.urls")),
    path("", include("rankings.backups.urls")),
    path("", include("rankings.submission.urls")),
    path("", include("tournaments.seating.urls")),
    path("", include("tournaments.console.urls")),
    path("", include("tournaments.teams.urls")),
    path("", include("tournaments.clock.urls")),
    path("", include("notifications.urls")),
    path("", include("tournaments.urls")),
]
handler400 = "config.api.bad_request"
handler403 = "config.api.permission_denied"
handler404 = "config.api.page_not_found"
handler500 = "config.api.server_error"

if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
