"""The benchmarks' PostgreSQL databases: made when missing, or made anew for a run that starts from zero."""

from __future__ import annotations

from urllib.parse import urlsplit


def _admin_and_name(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    admin = parts._replace(path="/postgres").geturl().replace("postgres://", "postgresql://", 1)
    return admin, parts.path.lstrip("/")


def is_postgres(url: str) -> bool:
    return url.startswith(("postgres://", "postgresql://"))


def create_database(url: str) -> None:
    """Create the database ``url`` names when it does not exist; anything but PostgreSQL is left alone."""
    if not is_postgres(url):
        return
    import psycopg

    admin, name = _admin_and_name(url)
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def fresh_database(url: str) -> None:
    """Drop and create the database ``url`` names (PostgreSQL): every run starts from the same data."""
    import psycopg

    admin, name = _admin_and_name(url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
