"""``{% referee_calls session referee everywhere %}``: the calls waiting for a referee, first on the
"Needs a referee" list of the referees' overview, the session's tables, the console and the dashboard."""

from django import template

from scoring.calls import selectors

register = template.Library()


@register.inclusion_tag("scoring/_referee_calls.html", takes_context=True)
def referee_calls(context, session, referee=False, everywhere=False) -> dict:
    """The calls of ``session`` not resolved; ``everywhere`` (the director's dashboard): those of every
    session of the tournament."""
    if session is None:
        return {"calls": []}
    if everywhere:
        calls = selectors.tournament_open_calls(tournament=session.tournament)
    else:
        calls = selectors.session_queue(session=session)
    return {
        "calls": calls,
        "session": session,
        "tournament": session.tournament,
        "referee": referee,
        "everywhere": everywhere,
    }
