"""Settling a hand: pots layered by contribution, each awarded among the seats eligible for it.

Every chip a seat put in (antes included) sits in the layers up to its total; a
layer is contested by the live seats that reached it. Each pot is split into the
variant's halves (one for razz and stud, high and eight-or-better low for stud8),
ties split evenly in whole chips of ``stakes.chip`` (the smallest chip in play, default 1), and
odd chips go as ``rules.md`` says: to the high half in stud8, then to the tied winner holding the
highest card of their best hand. Each half plays
the best ``variant.hand_size`` cards (five in the seven-card games, three in MiniRazz).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from razz_env.engine import hand_value

if TYPE_CHECKING:
    from razz_env.engine.state import HandState

_FIVE_CARD_VALUE = {half: hand_value.evaluator(half, 5) for half in ("razz", "action_razz", "high", "eight")}
# Which cards a half plays and which way its ranks run (for the odd-chip rule).
_HAND_KIND = {"razz": "razz", "action_razz": "razz", "high": "high", "eight": "eight"}


@dataclass(slots=True)
class PotResult:
    """One pot: its chips, the seats that contested it, and who won how much of each half."""

    amount: int
    eligible: list[int]
    shares: dict[int, int] = field(default_factory=dict)
    winners: dict[str, list[int]] = field(default_factory=dict)


def pot_layers(contributed: Sequence[int], folded: Sequence[bool]) -> list[tuple[int, list[int]]]:
    """Main pot then side pots: ``(amount, eligible live seats)`` from each seat's total contribution.

    >>> pot_layers([50, 100, 100], [False, False, False])
    [(150, [0, 1, 2]), (100, [1, 2])]
    """
    levels = sorted({c for c in contributed if c > 0})
    layers: list[tuple[int, list[int]]] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributed)
        eligible = [s for s, c in enumerate(contributed) if c >= level and not folded[s]]
        if layers and layers[-1][1] == eligible:
            layers[-1] = (layers[-1][0] + amount, eligible)
        else:
            layers.append((amount, eligible))
        previous = level
    return layers


def _odd_chip_order(seats: list[int], held: dict[int, list[int]], kind: str, size: int) -> list[int]:
    """Tied winners ordered by the highest card (rank, then suit) of their best ``size``-card hand."""
    def top_card(seat: int) -> tuple[int, int]:
        best = hand_value.best_hand(held[seat], kind, size)
        if kind == "high":
            return max((((c >> 2) - 1) % 13, c & 3) for c in best)
        return max((c >> 2, c & 3) for c in best)
    return sorted(seats, key=top_card, reverse=True)


def _split(amount: int, winners: list[int], held: dict[int, list[int]], kind: str, size: int,
           shares: dict[int, int], chip: int = 1) -> None:
    """Share ``amount`` evenly in whole ``chip``s; the odd chips go one each in the odd-chip order."""
    each = amount // (chip * len(winners)) * chip
    for seat in winners:
        shares[seat] = shares.get(seat, 0) + each
    odd = amount - each * len(winners)
    if odd:
        for seat in _odd_chip_order(winners, held, kind, size):
            given = min(chip, odd)
            shares[seat] += given
            odd -= given
            if not odd:
                break


def settle(state: HandState) -> tuple[list[int], list[PotResult]]:
    """Chips each seat takes from the pots, and the pots themselves, for a finished hand."""
    n = state.num_seats
    winnings = [0] * n
    live = [s for s in range(n) if not state.folded[s]]
    if len(live) == 1:
        total = sum(state.contributed)
        winnings[live[0]] = total
        return winnings, [PotResult(total, live, {live[0]: total}, {state.config.variant.showdown[0]: live})]
    variant = state.config.variant
    halves, size = variant.showdown, variant.hand_size
    chip = state.config.stakes.chip
    held = {s: state.showdown_cards(s) for s in live}
    values: dict[str, dict[int, int]] = {}
    for half in halves:
        value = _FIVE_CARD_VALUE[half] if size == 5 else hand_value.evaluator(half, size)
        values[half] = {s: value(held[s]) for s in live}
    results = []
    for amount, eligible in pot_layers(state.contributed, state.folded):
        pot = PotResult(amount, eligible)
        if not eligible:
            raise RuntimeError(f"pot of {amount} with no live seat eligible: contributions {state.contributed}, "
                               f"folded {state.folded} (legal play cannot reach this)")
        if len(eligible) == 1:
            pot.shares[eligible[0]] = amount
            pot.winners[halves[0]] = list(eligible)
        else:
            contested = []
            for half in halves:
                scores = values[half]
                best = max(scores[s] for s in eligible)
                if half == "eight" and best <= 0:
                    continue
                contested.append((half, [s for s in eligible if scores[s] == best]))
            if len(contested) == 2:
                low_amount = amount // (2 * chip) * chip  # an odd chip between the halves goes high
                (high, high_winners), (low, low_winners) = contested
                _split(amount - low_amount, high_winners, held, _HAND_KIND[high], size, pot.shares, chip)
                _split(low_amount, low_winners, held, _HAND_KIND[low], size, pot.shares, chip)
            else:
                half, half_winners = contested[0]
                _split(amount, half_winners, held, _HAND_KIND[half], size, pot.shares, chip)
            pot.winners = dict(contested)
        for seat, chips in pot.shares.items():
            winnings[seat] += chips
        results.append(pot)
    return winnings, results
