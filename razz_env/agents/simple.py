"""The two reference opponents every evaluation starts from: random play and the calling station.

Both state their policy (``action_probabilities``): uniform over the legal ids, and the one-hot
of the station's check/call.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from razz_env.agents.base import BaseAgent, Declaration, Observation, ObservationBatch
from razz_env.agents.registry import register
from razz_env.encoding.actions import BRING_IN, CHECK_CALL


@register("random")
class RandomAgent(BaseAgent):
    """Uniformly random over the legal ids: the floor any agent must beat.

    Folding with nothing to call is masked by default, so it folds only when facing a bet
    (then with probability 1/3 or 1/2): it loses by folding too often and raising at random.
    """

    name = "random"
    declaration = Declaration(observes=(), states_policy=True, acts_in_batch=True)

    def __init__(self, seed: int | None = None, name: str | None = None) -> None:
        super().__init__(name)
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> int:
        """A uniformly random legal id."""
        return self.rng.choice(self.legal_ids(observation))

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """:meth:`act` at each observation, in order (the same draws as one at a time)."""
        return [self.act(o) for o in observations]

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """Uniform over the legal ids: what :meth:`act` draws from."""
        return self.action_probabilities_batch([observation])[0]

    def action_probabilities_batch(self, observations: Sequence[Observation]) -> np.ndarray:
        """Uniform over each observation's legal ids, shape (N, 5)."""
        batch = ObservationBatch.of(observations)
        masks = batch.masks.astype(np.float64)
        counts = masks.sum(axis=1, keepdims=True)
        if not counts.all():
            seat = batch.seats[int(np.flatnonzero(counts[:, 0] == 0)[0])]
            raise ValueError(f"seat {seat} has no legal action: it is not its turn")
        return masks / counts


@register("calling_station")
class CallingStation(BaseAgent):
    """Checks or calls every bet, posts the bring-in, never bets, raises or folds.

    The classic loose-passive opponent: it pays off every value bet and never bluffs, so
    beating it measures value betting and folding discipline.
    """

    name = "calling_station"
    declaration = Declaration(observes=(), states_policy=True, acts_in_batch=True, deterministic=True)

    def act(self, observation: Observation) -> int:
        """Check/call, or the bring-in when that is the forced first action."""
        return self.first_legal(observation, (CHECK_CALL, BRING_IN))

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """:meth:`act` for every observation at once, read off the masks."""
        return self.passive_batch(ObservationBatch.of(observations).masks).tolist()

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """The one-hot of :meth:`act`: the station never mixes."""
        return self.one_hot(observation, self.act(observation))

    def action_probabilities_batch(self, observations: Sequence[Observation]) -> np.ndarray:
        """The one-hot of :meth:`act_batch`, shape (N, 5)."""
        masks = ObservationBatch.of(observations).masks
        return self.one_hot_batch(masks, self.passive_batch(masks))
