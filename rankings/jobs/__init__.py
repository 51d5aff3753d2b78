"""Background jobs: the abstract job every kind's model extends (status, progress, times, lease), the leases
that say which worker runs a job, the one runner that claims, runs, records and queues a job of any kind
(each kind only says what its work is), and the player imports, the one kind outside the subdomains."""
