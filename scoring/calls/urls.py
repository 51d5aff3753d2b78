"""Pages of referee calls."""

from django.urls import path

from . import views

urlpatterns = [
    path("t/<slug:slug>/s/<int:session>/table/<int:number>/call/", views.table_call, name="table-call"),
    path("table/<str:key>/call/", views.table_link_call, name="table-link-call"),
    path("t/<slug:slug>/calls/<int:pk>/", views.referee_call, name="referee-call"),
    path("t/<slug:slug>/s/<int:session>/calls/", views.referee_calls_part, name="referee-calls-part"),
]
