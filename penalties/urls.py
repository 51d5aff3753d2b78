"""Pages of the penalties app."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
