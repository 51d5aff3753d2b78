"""``{% referee_calls session referee %}``: the calls of a session waiting for a referee, first on the
"Needs a referee" list of the referees' overview, the session's tables, the console and the dashboard."""

from django import template

from scoring.calls import selectors

register = template.Library()


@register.inclusion_tag("scoring/_referee_calls.html", takes_context=True)
def referee_calls(context, session, referee=False) -> dict:
    calls = selectors.session_queue(session=session) if session is not None else []
    return {
        "calls": calls,
        "tournament": session.tournament if session is not None else None,
        "referee": referee,
    }
