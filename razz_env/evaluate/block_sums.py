"""A block's figures: per lineup position, sums and sums of squares of big bets won, per deal and per hand.

Per deal, each deal's replays (duplicate seatings) are averaged first, so the deal is the unit of the variance;
with AIVAT the same sums of the corrected payoffs. These are what results lines carry and what merges across
blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


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
