"""Result entry benchmark: ``python -m bench.entry`` (see README.md)."""
