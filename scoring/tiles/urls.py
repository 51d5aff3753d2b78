"""Pages of hands from tiles."""

from django.urls import path

from . import views

urlpatterns = [
    path(
        "t/<slug:slug>/s/<int:session>/table/<int:number>/tiles/value/", views.tiles_value, name="tiles-value"
    ),
    path("table/<str:key>/tiles/value/", views.tiles_value_link, name="tiles-value-link"),
    path(
        "t/<slug:slug>/s/<int:session>/table/<int:number>/hand/<int:hand>/resolve/",
        views.hand_resolve,
        name="tiles-hand-resolve",
    ),
    path("t/<slug:slug>/tiles/setting/", views.tiles_setting, name="tiles-setting"),
]

urlpatterns += [
    path("t/<slug:slug>/statistics/", views.statistics, name="tiles-statistics"),
    path(
        "t/<slug:slug>/s/<int:session>/table/<int:number>/hand/<int:hand>/register/",
        views.register_from_hand,
        name="tiles-register-hand",
    ),
    path("notable-hands/", views.notable_hands, name="notable-hands"),
]
