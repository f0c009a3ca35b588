"""The two reference opponents every evaluation starts from: random play and the calling station."""

from __future__ import annotations

import random

from agents.base import BaseAgent, Observation
from agents.registry import register
from razz_env.encoding.actions import BRING_IN, CHECK_CALL


@register("random")
class RandomAgent(BaseAgent):
    """Uniformly random over the legal ids: the floor any agent must beat.

    Folding with nothing to call is masked by default, so it folds only when facing a bet
    (then with probability 1/3 or 1/2): it loses by folding too often and raising at random.
    """

    name = "random"
    observes = ()

    def __init__(self, seed: int | None = None, name: str | None = None) -> None:
        super().__init__(name)
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> int:
        """A uniformly random legal id."""
        return self.rng.choice(self.legal_ids(observation))


@register("calling_station")
class CallingStation(BaseAgent):
    """Checks or calls every bet, posts the bring-in, never bets, raises or folds.

    The classic loose-passive opponent: it pays off every value bet and never bluffs, so
    beating it measures value betting and folding discipline.
    """

    name = "calling_station"
    observes = ()

    def act(self, observation: Observation) -> int:
        """Check/call, or the bring-in when that is the forced first action."""
        return self.first_legal(observation, (CHECK_CALL, BRING_IN))
