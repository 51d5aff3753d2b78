"""Pages of the EMA submission."""

from django.urls import path

from rankings.submission import views

urlpatterns = [
    path("t/<slug:slug>/ema-submission/", views.checks_page, name="ema-submission"),
    path("t/<slug:slug>/ema-submission/panel/", views.checks_panel, name="ema-submission-panel"),
    path(
        "t/<slug:slug>/ema-submission/substitutes/", views.substitute_answer, name="ema-submission-substitute"
    ),
    path("t/<slug:slug>/ema-submission/pack/", views.pack_start, name="ema-submission-pack"),
    path("t/<slug:slug>/ema-submission/report/", views.report_page, name="ema-submission-report"),
    path("t/<slug:slug>/ema-submission/report.pdf", views.report_pdf_download, name="ema-submission-pdf"),
]
