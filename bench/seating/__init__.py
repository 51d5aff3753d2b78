"""Seating benchmark: ``python -m bench.seating`` (see README.md beside this file)."""
