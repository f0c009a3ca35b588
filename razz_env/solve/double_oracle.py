"""PSRO with an exact oracle (double oracle): a population of pure policies, each the exact best response to the
population's equilibrium mixture.

Each iteration solves the meta-game (every pair of policies' exact value, averaged over the two seats: a
symmetric zero-sum matrix game) with regret matching+, forms the meta-strategy's mixture
(:func:`~razz_env.solve.mixture.mixture`) and adds its exact best response
(:func:`~razz_env.solve.best_response.best_response_policy`). The mixture's exploitability is exact, so this is
the population method's answer on a solved game with no learning noise: the reference a learned population
(PSRO with a reinforcement-learning oracle, NFSP) can at best match.

>>> from razz_env.solve.game import build_game
>>> oracle = DoubleOracle(build_game("minirazz_tiny"))
>>> first = oracle.exploitability().mbb
>>> for _ in range(5):
...     oracle.iterate()
>>> len(oracle.population), bool(oracle.exploitability().mbb < first)
(6, True)
"""

from __future__ import annotations

import numpy as np

from razz_env.solve.best_response import Exploitability, best_response_policy, exploitability
from razz_env.solve.game import Game
from razz_env.solve.mixture import mixture
from razz_env.solve.policy import TabularPolicy
from razz_env.solve.sweep import Sweeper

META_ITERATIONS = 20_000
"""Regret-matching+ iterations of each meta-game solve (the meta-strategy is their linearly weighted average)."""


def solve_symmetric(payoff: np.ndarray, iterations: int = META_ITERATIONS) -> np.ndarray:
    """An approximate equilibrium strategy of the symmetric zero-sum game ``payoff`` (antisymmetric, row's payoff):
    regret matching+ in self-play, the linearly weighted average.

    >>> rock_paper_scissors = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
    >>> np.round(solve_symmetric(rock_paper_scissors), 2).tolist()
    [0.33, 0.33, 0.33]
    """
    size = len(payoff)
    regret = np.zeros(size)
    average = np.zeros(size)
    strategy = np.full(size, 1.0 / size)
    for t in range(1, iterations + 1):
        values = payoff @ strategy
        regret = np.maximum(regret + values - strategy @ values, 0.0)
        total = regret.sum()
        strategy = regret / total if total > 0 else np.full(size, 1.0 / size)
        average += t * strategy
    return average / average.sum()


class DoubleOracle:
    """The population (starting with the uniform policy), its payoff matrix and meta-strategy."""

    def __init__(self, game: Game, meta_iterations: int = META_ITERATIONS) -> None:
        self.game = game
        self.sweeper = Sweeper(game)
        self.meta_iterations = meta_iterations
        self.population: list[TabularPolicy] = [TabularPolicy.uniform(game)]
        self.payoff = np.zeros((1, 1))
        self.meta = np.ones(1)
        self.iterations = 0

    def value(self, mine: TabularPolicy, other: TabularPolicy) -> float:
        """Chips a hand ``mine`` wins against ``other``, averaged over the two seats."""
        return (self.sweeper.root_value(0, mine.array, other.array)
                + self.sweeper.root_value(1, mine.array, other.array)) / 2

    def policy(self) -> TabularPolicy:
        """The population's mixture under the meta-strategy: the policy this method plays."""
        return mixture(self.game, self.population, self.meta, self.sweeper)

    def exploitability(self) -> Exploitability:
        """The exact exploitability of :meth:`policy`."""
        return exploitability(self.game, self.policy(), self.sweeper)

    def iterate(self) -> None:
        """Add the best response to today's mixture, then re-solve the meta-game."""
        new = best_response_policy(self.game, self.policy(), self.sweeper)
        row = np.array([self.value(new, other) for other in self.population])
        size = len(self.population)
        payoff = np.zeros((size + 1, size + 1))
        payoff[:size, :size] = self.payoff
        payoff[size, :size], payoff[:size, size] = row, -row
        self.population.append(new)
        self.payoff = payoff
        self.meta = solve_symmetric(payoff, self.meta_iterations)
        self.iterations += 1
