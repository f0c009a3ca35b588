"""A block's figures: per lineup position, sums and sums of squares of big bets won, per deal and per hand.

Per deal, each deal's replays (duplicate seatings) are averaged first, so the deal is the unit of the variance;
with AIVAT the same sums of the corrected payoffs. These are what results lines carry (:func:`summarise_tables`,
named by :data:`SUM_FIELDS`) and what merges across blocks (:class:`Sums`, whose rates every report prints).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import astuple, dataclass, replace
from typing import Any, Protocol

from razz_env.evaluate.stats import WinRate, win_rate

SUM_FIELDS = ("deal_sum", "deal_sumsq", "hand_sum", "hand_sumsq")
"""The sums a block result carries, each a list with one value a lineup position."""
AIVAT_SUM_FIELDS = tuple(f"aivat_{name}" for name in SUM_FIELDS)
"""The AIVAT payoffs' sums a block of an ``aivat: true`` tournament carries too."""


@dataclass(frozen=True)
class Sums:
    """One lineup position's figures over any number of blocks: deals and hands, and the sums and sums of squares
    of big bets won per deal and per hand, and per deal of the AIVAT payoffs over the deals AIVAT scored. ``+``
    merges two; :meth:`of` reads a position of a block result; the rates are
    :func:`~razz_env.evaluate.stats.win_rate`'s.

    >>> block = {"deals": 2, "hands": 4, "deal_sum": [1.0, -1.0], "deal_sumsq": [1.0, 1.0],
    ...          "hand_sum": [1.0, -1.0], "hand_sumsq": [2.0, 2.0]}
    >>> both = Sums.of(block, 0) + Sums.of(block, 0)
    >>> both.deals, both.per_deal.mean_bb100, both.aivat_per_deal
    (4, 50.0, None)
    """

    deals: int = 0
    hands: int = 0
    deal_sum: float = 0.0
    deal_sumsq: float = 0.0
    hand_sum: float = 0.0
    hand_sumsq: float = 0.0
    aivat_deals: int = 0
    aivat_deal_sum: float = 0.0
    aivat_deal_sumsq: float = 0.0

    @classmethod
    def of(cls, result: Mapping[str, Any], position: int) -> Sums:
        """Lineup position ``position``'s figures in the block result ``result``."""
        raw = cls(result["deals"], result["hands"], *(result[name][position] for name in SUM_FIELDS))
        if "aivat_deal_sum" not in result:
            return raw
        return replace(raw, aivat_deals=result["deals"], aivat_deal_sum=result["aivat_deal_sum"][position],
                       aivat_deal_sumsq=result["aivat_deal_sumsq"][position])

    @classmethod
    def total(cls, results: Iterable[Mapping[str, Any]], position: int) -> Sums:
        """Position ``position``'s figures over every block of ``results``."""
        return sum((cls.of(result, position) for result in results), cls())

    def __add__(self, other: Sums) -> Sums:
        return Sums(*(mine + theirs for mine, theirs in zip(astuple(self), astuple(other))))

    @property
    def per_deal(self) -> WinRate:
        """bb/100 and its spread with the deal as the unit (duplicate replays averaged first)."""
        return win_rate(self.deals, self.deal_sum, self.deal_sumsq)

    @property
    def per_hand(self) -> WinRate:
        """bb/100 and its spread with the hand as the unit."""
        return win_rate(self.hands, self.hand_sum, self.hand_sumsq)

    @property
    def aivat_per_deal(self) -> WinRate | None:
        """The AIVAT payoffs' bb/100 per deal; None when AIVAT scored no deal."""
        return win_rate(self.aivat_deals, self.aivat_deal_sum, self.aivat_deal_sumsq) if self.aivat_deals else None


class Replay(Protocol):
    """What the sums read of one seating of a deal: the deal and the lineup position at each seat."""

    deal: int
    positions: Sequence[int]


AIVAT_DIGITS = 6
"""Decimals of a chip an AIVAT payoff keeps in block sums: its terms' float sum carries noise near 1e-13, and
without the rounding a duplicate deal whose raw payoffs cancel exactly (two deterministic agents) would show a
spurious AIVAT mean of 1e-15 with a CI that excludes zero."""


def summarise_tables(tables: Sequence[Replay], seats: int, deals: int, big_bet: int,
                     corrected: Sequence[Sequence[float]] | None = None) -> dict[str, Any]:
    """Per lineup position: sums of big bets per deal (mean over its replays) and per hand; with ``corrected``
    (each table's AIVAT payoffs per seat) the same sums of those, prefixed ``aivat_``."""
    sums = {"deals": deals, "hands": len(tables),
            **_sums(tables, [t.payoffs for t in tables], seats, deals, big_bet)}
    if corrected is not None:
        sums.update({f"aivat_{name}": values
                     for name, values in _sums(tables, corrected, seats, deals, big_bet).items()})
    return sums


def _sums(tables: Sequence[Replay], payoffs: Sequence[Sequence[float]], seats: int, deals: int,
          big_bet: int) -> dict[str, list[float]]:
    """Sums and sums of squares of big bets per lineup position, per deal (mean over its replays) and per hand."""
    per_deal = [[0.0] * seats for _ in range(deals)]
    replays = [0] * deals
    hand_sum = [0.0] * seats
    hand_sumsq = [0.0] * seats
    for table, paid in zip(tables, payoffs):
        replays[table.deal] += 1
        for seat, position in enumerate(table.positions):
            won = paid[seat] / big_bet
            per_deal[table.deal][position] += won
            hand_sum[position] += won
            hand_sumsq[position] += won * won
    deal_sum = [0.0] * seats
    deal_sumsq = [0.0] * seats
    for deal, values in enumerate(per_deal):
        for position in range(seats):
            mean = values[position] / replays[deal]
            deal_sum[position] += mean
            deal_sumsq[position] += mean * mean
    return {"deal_sum": deal_sum, "deal_sumsq": deal_sumsq, "hand_sum": hand_sum, "hand_sumsq": hand_sumsq}
