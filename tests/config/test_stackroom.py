"""Each request runs with room for its frames below it (config/stackroom.py): the middleware is first in the
chain, its caller's frame is as large as it says, and the request and its answer pass through unchanged."""

from __future__ import annotations

import asyncio

from django.conf import settings
from django.http import HttpResponse
from django.test import RequestFactory

from config.stackroom import ROOM, RoomyStackMiddleware, call_with_room


def test_first_in_the_chain():
    assert settings.MIDDLEWARE[0] == "config.stackroom.RoomyStackMiddleware"


def test_the_callers_frame_has_the_room():
    assert call_with_room.__code__.co_nlocals * 8 >= ROOM
    assert call_with_room(lambda value: value * 2, 21) == 42


def test_the_request_and_its_answer_pass_through():
    request = RequestFactory().get("/somewhere/")
    answer = HttpResponse("body")
    seen = []

    def view(req):
        seen.append(req)
        return answer

    assert RoomyStackMiddleware(view)(request) is answer
    assert seen == [request]


def test_an_asynchronous_chain_is_awaited_as_it_is():
    request = RequestFactory().get("/somewhere/")
    answer = HttpResponse("body")

    async def view(req):
        return answer

    middleware = RoomyStackMiddleware(view)
    assert asyncio.iscoroutinefunction(middleware) or middleware.is_async
    assert asyncio.run(middleware(request)) is answer
