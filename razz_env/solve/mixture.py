"""A mixture of tabular policies as one behaviour policy: what "play policy k with probability w_k" plays.

Kuhn's theorem: at each information set the mixture plays the policies' probabilities weighted by
``w_k`` times the probability that the seat's own play under policy ``k`` reaches there (chance and
the opponent's reach are the same for every ``k`` and cancel). The average policy of fictitious play,
of NFSP and of a PSRO population under its meta-strategy is this mixture.

>>> from razz_env.solve.game import build_game
>>> from razz_env.solve.policy import TabularPolicy
>>> game = build_game("minirazz_tiny")
>>> uniform = TabularPolicy.uniform(game)
>>> bool(np.allclose(mixture(game, [uniform, uniform], [0.3, 0.7]).array, uniform.array))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from razz_env.encoding.actions import NUM_ACTIONS
from razz_env.solve.game import Game
from razz_env.solve.policy import TabularPolicy
from razz_env.solve.sweep import Sweeper


def mixture(game: Game, policies: Sequence[TabularPolicy], weights: Sequence[float],
            sweeper: Sweeper | None = None) -> TabularPolicy:
    """The behaviour policy equal to playing ``policies[k]`` with probability ``weights[k]`` (normalised) for a whole
    hand; where no policy reaches an information set, the weighted average of their rows."""
    if len(policies) != len(weights) or not policies:
        raise ValueError(f"mixture: {len(policies)} policies and {len(weights)} weights; one weight each, at least one")
    w = np.asarray(weights, dtype=np.float64)
    if not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
        raise ValueError(f"mixture: weights must be non-negative with a positive sum, got {w.tolist()}")
    running = RunningMixture(game, sweeper)
    for policy, weight in zip(policies, w / w.sum()):
        running.add(policy, float(weight))
    return running.policy()


class RunningMixture:
    """:func:`mixture` kept as policies join one by one (fictitious play's average): two running sums, so each
    policy is swept once, and :meth:`policy` costs one division."""

    def __init__(self, game: Game, sweeper: Sweeper | None = None) -> None:
        self.game = game
        self.sweeper = sweeper or Sweeper(game)
        shape = (len(game.decision_nodes), NUM_ACTIONS, game.num_private)
        self.numerator = np.zeros(shape)
        self.plain = np.zeros(shape)
        self.denominator = np.zeros((shape[0], shape[2]))
        self.count = 0

    def add(self, policy: TabularPolicy, weight: float) -> None:
        """``policy`` joins with ``weight`` (weights are relative: the mixture divides by their sum)."""
        policy.check_game(self.game)
        game, nodes = self.game, self.game.decision_nodes
        reach = np.where(game.decision_player[:, None] == 0, self.sweeper.reach(0, policy.array)[nodes],
                         self.sweeper.reach(1, policy.array)[nodes]) * weight
        self.numerator += policy.array * reach[:, None, :]
        self.denominator += reach
        self.plain += policy.array * weight
        self.count += 1

    def policy(self) -> TabularPolicy:
        """The mixture of the policies so far."""
        if not self.count:
            raise ValueError("mixture: no policy has joined yet")
        reached = self.denominator > 0
        plain = self.plain / self.plain.sum(axis=1, keepdims=True).clip(min=1e-300)
        array = np.where(reached[:, None, :], self.numerator / np.where(reached, self.denominator, 1.0)[:, None, :],
                         plain)
        return TabularPolicy(self.game, array, method=f"mixture of {self.count}")

    def save(self, path: Path) -> None:
        """The running sums, to ``path`` (``.npz``, written whole then renamed)."""
        partial = path.with_name(path.name + ".partial.npz")
        np.savez(partial, numerator=self.numerator, denominator=self.denominator, plain=self.plain,
                 count=np.array(self.count))
        partial.replace(path)

    def load(self, path: Path) -> None:
        """The running sums :meth:`save` wrote."""
        with np.load(path) as data:
            self.numerator, self.denominator, self.plain = data["numerator"], data["denominator"], data["plain"]
            self.count = int(data["count"])
