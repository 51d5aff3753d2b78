"""Models of the penalties app."""
