"""Finite abelian groups as products of cyclic groups, for the designs of the seating engine."""

from __future__ import annotations

import itertools


def factorize(n: int) -> list[tuple[int, int]]:
    """Prime factorisation as ``[(p, e), ...]`` in increasing ``p``."""
    out = []
    p = 2
    while p * p <= n:
        if n % p == 0:
            e = 0
            while n % p == 0:
                n //= p
                e += 1
            out.append((p, e))
        p += 1
    if n > 1:
        out.append((n, 1))
    return out


class AbelianGroup:
    """A product of cyclic groups; elements are ints in mixed radix."""

    def __init__(self, orders: tuple[int, ...]):
        self.orders = orders
        m = 1
        for o in orders:
            m *= o
        self.m = m
        comps = [self._split(a) for a in range(m)]
        self.add = [
            [self._join([(x + y) % o for x, y, o in zip(ca, cb, orders, strict=True)]) for cb in comps]
            for ca in comps
        ]
        self.neg = [self._join([(-x) % o for x, o in zip(ca, orders, strict=True)]) for ca in comps]

    def _split(self, a: int) -> list[int]:
        out = []
        for o in self.orders:
            out.append(a % o)
            a //= o
        return out

    def _join(self, comps: list[int]) -> int:
        value = 0
        for o, c in zip(reversed(self.orders), reversed(comps), strict=True):
            value = value * o + c
        return value


def _partitions(e: int, largest: int | None = None):
    largest = e if largest is None else largest
    if e == 0:
        yield []
        return
    for first in range(min(e, largest), 0, -1):
        for rest in _partitions(e - first, first):
            yield [first, *rest]


def group_types(m: int) -> list[tuple[int, ...]]:
    """Every abelian group of order ``m`` up to isomorphism, cyclic first."""
    per_prime = [[tuple(p**k for k in part) for part in _partitions(e)] for p, e in factorize(m)]
    out = []
    for combo in itertools.product(*per_prime):
        out.append(tuple(o for part in combo for o in part))
    return out or [(1,)]
