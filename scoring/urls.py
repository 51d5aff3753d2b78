"""Pages of the scoring app."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
