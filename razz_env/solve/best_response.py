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

import numpy as np

from razz_env.encoding.actions import NUM_ACTIONS
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


def best_response_policy(game: Game, policy: TabularPolicy, sweeper: Sweeper | None = None) -> TabularPolicy:
    """A pure best response to ``policy`` in each seat, as one tabular policy (seat ``i``'s rows answer ``policy``
    in the other seat): at each information set the action of highest counterfactual value (the lowest id of
    equals). What a double-oracle step adds to its population.

    >>> from razz_env.solve.game import build_game
    >>> from razz_env.solve.policy import TabularPolicy
    >>> game = build_game("minirazz_tiny")
    >>> uniform = TabularPolicy.uniform(game)
    >>> best = best_response_policy(game, uniform)
    >>> sweeper = Sweeper(game)
    >>> round(sweeper.root_value(0, best.array, uniform.array), 9) == round(best_response_value(game, uniform, 0), 9)
    True
    """
    from razz_env.solve.policy import TabularPolicy

    policy.check_game(game)
    sweeper = sweeper or Sweeper(game)
    decisions, private = len(game.decision_nodes), game.num_private
    rows = np.zeros((decisions * NUM_ACTIONS, private))
    for seat in (0, 1):
        values = sweeper.values(seat, policy.array, sweeper.reach(1 - seat, policy.array), best=True)
        children = sweeper.own_children[seat]
        scores = np.full((decisions * NUM_ACTIONS, private), -np.inf)
        scores[sweeper.slot[children]] = values[children]
        scores = scores.reshape(decisions, NUM_ACTIONS, private)
        best = scores.argmax(axis=1)  # (decisions, P): illegal ids hold -inf
        own = sweeper.own_decisions[seat]
        chosen = np.zeros((len(own), NUM_ACTIONS, private))
        np.put_along_axis(chosen, best[own][:, None, :], 1.0, axis=1)
        rows.reshape(decisions, NUM_ACTIONS, private)[own] = chosen
    return TabularPolicy(game, rows.reshape(decisions, NUM_ACTIONS, private), method="best response")
