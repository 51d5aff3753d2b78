"""The EMA submission pack: a tournament checked against the EMA's requirements for MERS tournaments, its
MERS weight and the effect on its players' ranking, the observer's report, and one ZIP to send.

``engine.py`` (pure) holds the checks with the articles they cite; ``selectors.py`` gathers the facts
from the tournament; ``services.py`` records what the product does not otherwise know (the observer,
prizes, referees and whether they play, the substitutes' answers); ``report.py`` drafts the observer's
report (page and PDF); ``pack.py`` is the ``ema-pack`` exporter that makes the ZIP as an export job.

Modules (rankings/submission/): the EMA submission (an app of its own, label `submission`): engine.py (pure:
the checks of the EMA's requirements, each citing its article), models (EmaSubmission: observer, referees,
prizes, substitutes' answers, observer's comments), services, selectors (facts, weight, ranking preview,
stamp), report.py (observer's report, PDF with fpdf2 and the DejaVu fonts in fonts/), pack.py (the `ema-pack`
exporter), views, forms, api, urls; see docs/ema-submission.md
"""
