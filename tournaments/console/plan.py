"""Pure helpers of the director's console: the day plan of session start times and name folding.

No Django import: plain data in, plain data out.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from tournaments.names import fold  # noqa: F401 (one folding for every name search)

MAX_SESSIONS = 40


def parse_times(text: str) -> list[dt.time]:
    """Start times of one day as typed ("10:00, 14:30"); ValueError names the first bad value."""
    times = []
    for part in re.split(r"[,;\s]+", (text or "").strip()):
        if not part:
            continue
        match = re.fullmatch(r"(\d{1,2})[:.h](\d{2})", part)
        if not match or int(match.group(1)) > 23 or int(match.group(2)) > 59:
            raise ValueError(part)
        times.append(dt.time(int(match.group(1)), int(match.group(2))))
    if sorted(set(times)) != times:
        raise ValueError(", ".join(t.strftime("%H:%M") for t in times))
    return times


def day_plan(*, starts_on: dt.date, days: int, sessions: int, times: Sequence[dt.time]) -> list[dt.datetime]:
    """Naive start datetimes of ``sessions`` sessions: each day uses ``times`` in order, then the next
    day; sessions beyond ``days`` × len(times) continue on the last day's times one day later."""
    if sessions < 0 or sessions > MAX_SESSIONS:
        raise ValueError(sessions)
    if not times:
        return []
    out = []
    for index in range(sessions):
        day, slot = divmod(index, len(times))
        out.append(dt.datetime.combine(starts_on + dt.timedelta(days=day), times[slot]))
    return out
