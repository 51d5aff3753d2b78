"""The director's console: the pages and API where a tournament is run without the admin. It is an
audience, not a domain: its views call the services of the domains they change (``tournaments.organising``,
``tournaments.staff``, ``tournaments.registrations``, ``tournaments.sessions``, the seating, the clock) and
keep only what the pages need of their own: the reads (selectors), the rules form, the day plan and what a
confirmation will do."""
