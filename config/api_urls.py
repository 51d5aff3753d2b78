"""One router for the whole API."""

from rest_framework.routers import DefaultRouter

from tournaments import api as tournaments_api

router = DefaultRouter()
router.register("tournaments", tournaments_api.TournamentViewSet, basename="tournament")
router.register("players", tournaments_api.PlayerViewSet, basename="player")
router.register("registrations", tournaments_api.RegistrationViewSet, basename="registration")
router.register("sessions", tournaments_api.SessionViewSet, basename="session")
router.register("tables", tournaments_api.TableViewSet, basename="table")
router.register("seats", tournaments_api.SeatViewSet, basename="seat")

urlpatterns = router.urls
