"""What every agent in the zoo builds on: the interface, plus a small convenience base class.

The interface itself lives in :mod:`razz_env.encoding.interface` (``reset`` then ``act(observation) -> id``,
and a :class:`Declaration`); it is re-exported here so agent modules import from one place. :class:`BaseAgent`
only adds bookkeeping that every rule agent repeats (a name, a default declaration, a no-op ``reset``, reading
the legal ids
off the mask, picking the first legal one of a list of preferences, checking or folding when it
wants no part, stating a deterministic choice as a one-hot policy); it knows nothing of the game's rules.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from razz_env.encoding.actions import BRING_IN, CHECK_CALL, FOLD, NUM_ACTIONS
from razz_env.encoding.interface import Agent, Declaration, Observation, act_batch

__all__ = ["Agent", "BaseAgent", "Declaration", "Observation", "act_batch"]


class BaseAgent:
    """A convenience base for hand-written agents; subclasses implement :meth:`act` and declare what they do.

    The default declaration reads the seat view only, plays every table, states no policy and acts one
    decision at a time.
    """

    name = "agent"
    declaration = Declaration()

    def __init__(self, name: str | None = None) -> None:
        if name is not None:
            self.name = name

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Called before each hand; stateless agents need nothing here."""

    def act(self, observation: Observation) -> int:
        """Return a legal action id; subclasses decide."""
        raise NotImplementedError

    @staticmethod
    def legal_ids(observation: Observation) -> list[int]:
        """The action ids the mask allows now, in increasing order."""
        return np.flatnonzero(observation.action_mask).tolist()

    @staticmethod
    def one_hot(observation: Observation, action_id: int) -> np.ndarray:
        """The policy of an agent that plays ``action_id`` for sure: float64 over the five ids.

        What a deterministic agent's ``action_probabilities`` returns for the id its ``act`` picks.
        """
        if not observation.action_mask[action_id]:
            raise ValueError(f"action id {action_id} is not legal for seat {observation.seat} "
                             f"(mask {observation.action_mask.tolist()})")
        probabilities = np.zeros(NUM_ACTIONS, dtype=np.float64)
        probabilities[action_id] = 1.0
        return probabilities

    @staticmethod
    def first_legal(observation: Observation, preferences: Iterable[int]) -> int:
        """The first legal id among ``preferences``, else the lowest legal id.

        Lets a policy say what it wants ("raise, else call") without checking the mask
        itself; the fallback keeps it legal in states it did not foresee (a forced bring-in,
        a capped round, an all-in opponent).
        """
        mask = observation.action_mask
        for action_id in preferences:
            if mask[action_id]:
                return action_id
        legal = np.flatnonzero(mask)
        if not len(legal):
            raise ValueError(f"seat {observation.seat} has no legal action: it is not its turn")
        return int(legal[0])

    @classmethod
    def passive(cls, observation: Observation) -> int:
        """Check or call (or post the bring-in when that is the decision)."""
        return cls.first_legal(observation, (CHECK_CALL, BRING_IN))

    @classmethod
    def give_up(cls, observation: Observation, to_call: int) -> int:
        """Fold to a bet (``to_call`` chips to call), else check: never pay to continue a hand it wants out of."""
        if to_call > 0:
            return cls.first_legal(observation, (FOLD, CHECK_CALL, BRING_IN))
        return cls.passive(observation)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"
