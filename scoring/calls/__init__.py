"""A table calling a referee: the call, the referee on the way, the resolution."""
