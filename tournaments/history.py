"""The models' change history (django-simple-history), with the history manager's class made once per model.

simple-history's descriptor builds a new manager class (``Manager.from_queryset``, which inspects every
method of the queryset class) each time ``instance.history`` or ``Model.history`` is read, and it reads it
once for every historical row it writes: a hand saved writes two. The class is the same every time; here
it is built on first use and kept.
"""

from __future__ import annotations

from simple_history import models as simple_history
from simple_history.manager import HistoryDescriptor


class KeptHistoryDescriptor(HistoryDescriptor):
    """``HistoryDescriptor`` whose manager class is built once."""

    def __get__(self, instance, owner):
        manager_class = self.__dict__.get("_manager_class")
        if manager_class is None:
            manager_class = self._manager_class = self.manager_class.from_queryset(self.queryset_class)
        return manager_class(self.model, instance)


class HistoricalRecords(simple_history.HistoricalRecords):
    """simple-history's ``HistoricalRecords`` with the kept manager class."""

    def finalize(self, sender, **kwargs):
        super().finalize(sender, **kwargs)
        descriptor = sender.__dict__.get(self.manager_name)
        if sender is self.cls and type(descriptor) is HistoryDescriptor:
            kept = KeptHistoryDescriptor(
                descriptor.model, manager=descriptor.manager_class, queryset=descriptor.queryset_class
            )
            setattr(sender, self.manager_name, kept)
