"""Exact best response and exploitability of a tabular policy (NashConv / 2, in chips and mbb/hand).

The best response of seat ``i`` maximises, at each of its information sets (a public node
and its holding), the counterfactual value summed over the opponent's holdings, chance and
the opponent's reach; one bottom-up sweep with a max at ``i``'s nodes gives it exactly.

>>> from razz_env.solve.game import build_game
>>> from razz_env.solve.policy import TabularPolicy
>>> game = build_game("minirazz_tiny")
>>> round(exploitability(game, TabularPolicy.uniform(game)).mbb, 3)
646.885
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from razz_env.solve.sweep import Sweeper

if TYPE_CHECKING:
    from razz_env.solve.game import Game
    from razz_env.solve.policy import TabularPolicy


class Exploitability(NamedTuple):
    """``chips``: (BR0 + BR1) / 2 per hand; ``mbb``: the same in thousandths of the big bet;
    ``best_response``: each seat's best-response value; ``value``: seat 0's value of the policy against itself."""

    chips: float
    mbb: float
    best_response: tuple[float, float]
    value: float


def exploitability(game: Game, policy: TabularPolicy, sweeper: Sweeper | None = None) -> Exploitability:
    """How much a best response wins against ``policy`` (played by both seats), per hand, averaged over the seats."""
    policy.check_game(game)
    sweeper = sweeper or Sweeper(game)
    array = policy.array
    best = (sweeper.root_value(0, array, array, best=True), sweeper.root_value(1, array, array, best=True))
    chips = (best[0] + best[1]) / 2
    return Exploitability(chips, game.to_mbb(chips), best, sweeper.root_value(0, array, array))


def best_response_value(game: Game, policy: TabularPolicy, seat: int, sweeper: Sweeper | None = None) -> float:
    """Chips per hand a best response in ``seat`` wins against ``policy`` in the other seat."""
    policy.check_game(game)
    sweeper = sweeper or Sweeper(game)
    return sweeper.root_value(seat, policy.array, policy.array, best=True)
