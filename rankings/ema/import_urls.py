"""Pages of the results of tournaments held elsewhere (before the ranking's family pages)."""

from django.urls import path

from rankings.ema import import_views as views

urlpatterns = [
    path("ranking/imports/", views.imports_page, name="ema-imports"),
    path("ranking/imports/new/", views.import_new, name="ema-import-new"),
    path("ranking/imports/<int:pk>/", views.import_detail, name="ema-import-detail"),
    path("ranking/imports/<int:pk>/correct/", views.import_correct, name="ema-import-correct"),
    path("ranking/imports/<int:pk>/delete/", views.import_delete, name="ema-import-delete"),
]
