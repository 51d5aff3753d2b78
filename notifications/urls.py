from django.urls import path

from notifications import views

urlpatterns = [
    path("me/<str:key>/push/<slug:slug>/", views.player_link, name="push-player-link"),
    path("me/<str:key>/push/<slug:slug>/<int:pk>/delete/", views.player_link, name="push-player-link-delete"),
    path("t/<slug:slug>/p/<str:key>/push/", views.player_account, name="push-player-account"),
    path(
        "t/<slug:slug>/p/<str:key>/push/<int:pk>/delete/",
        views.player_account,
        name="push-player-account-delete",
    ),
    path("table/<str:key>/push/", views.table_link, name="push-table-link"),
    path("table/<str:key>/push/<int:pk>/delete/", views.table_link, name="push-table-link-delete"),
    path("t/<slug:slug>/staff/push/", views.staff, name="push-staff"),
    path("t/<slug:slug>/staff/push/<int:pk>/delete/", views.staff, name="push-staff-delete"),
    path("t/<slug:slug>/staff/notifications/", views.staff_page, name="push-staff-page"),
]
