"""The exporter registry: every exporter class, by identifier."""

from __future__ import annotations

from rankings.exports.base import TOURNAMENT, Exporter
from scoring.rules.base import RuleError

_REGISTRY: dict[str, type[Exporter]] = {}


class UnknownExporter(RuleError):
    """No exporter has this identifier; the message lists the identifiers that exist."""

    def __init__(self, identifier: str, scope: str | None = None):
        known = ", ".join(e.identifier for e in exporter_list(scope=scope))
        super().__init__(f"unknown exporter '{identifier}' (exporters: {known})", "exporter")
        self.identifier = identifier


def register(cls: type[Exporter]) -> type[Exporter]:
    """Class decorator: add an exporter to the registry (identifiers are unique)."""
    if not cls.identifier:
        raise ValueError(f"{cls.__name__} has no identifier")
    if cls.identifier in _REGISTRY and _REGISTRY[cls.identifier] is not cls:
        raise ValueError(f"two exporters are called '{cls.identifier}'")
    _REGISTRY[cls.identifier] = cls
    return cls


def exporter_list(*, scope: str | None = None, tournament=None) -> list[type[Exporter]]:
    """Registered exporters in registration order; of one scope, or those available for a tournament."""
    found = [e for e in _REGISTRY.values() if scope is None or e.scope == scope]
    if tournament is not None:
        found = [e for e in found if e.scope == TOURNAMENT and e.available_for(tournament)]
    return found


def exporter_get(identifier: str, *, scope: str | None = None) -> type[Exporter]:
    """The exporter called ``identifier`` (of ``scope`` when given); :class:`UnknownExporter` otherwise."""
    cls = _REGISTRY.get(identifier)
    if cls is None or (scope is not None and cls.scope != scope):
        raise UnknownExporter(identifier, scope)
    return cls
