"""Each request run with room for its Python frames, so the interpreter does not map and unmap memory over
and over while the page renders.

CPython (3.11 and later) keeps the frames of the running functions in chunks of 16 KiB that it maps from
the system when a call does not fit in the current one, and gives back as soon as the call that opened the
chunk returns. A request whose frames go up and down around the end of a chunk (the template engine's nested
nodes, rendered once per row of a table) maps and unmaps a chunk each time: on the table page with 12 hands,
some 700 times, with their page faults, for milliseconds of the process's time that grow with the rows.

``RoomyStackMiddleware``, first in the chain, calls the rest of it through a function whose frame is large
(``ROOM`` bytes of local slots that are never used): the interpreter opens one chunk of twice that size for
it, and the whole request then runs in the other half of that chunk, which it maps once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction

ROOM = 64 * 1024  # bytes of frame below the request: its chunk is 128 KiB, 64 of which are for the request
_SLOT = 8  # bytes per local slot (a pointer)


def _roomy_caller(room: int) -> Callable[[Callable[[Any], Any], Any], Any]:
    """A function ``call(fn, arg)`` returning ``fn(arg)`` whose frame takes ``room`` bytes: unused local
    variables, declared in code that never runs (the compiler still counts them, the interpreter only
    clears them when the frame opens)."""
    names = " = ".join(f"_{i}" for i in range(room // _SLOT))
    source = f"def call(fn, arg):\n    if False:\n        {names} = None\n    return fn(arg)\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, "<config.stackroom>", "exec"), namespace)  # our own, fixed source
    return namespace["call"]


call_with_room = _roomy_caller(ROOM)


class RoomyStackMiddleware:
    """The rest of the middleware chain and the view, called from a frame with room below it (see the
    module). An asynchronous chain is passed through unchanged: its frames live in its coroutines."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self.get_response(request)
        return call_with_room(self.get_response, request)
