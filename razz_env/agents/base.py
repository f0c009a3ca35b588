"""What every agent in the zoo builds on: the interface, plus a small convenience base class.

The interface itself lives in :mod:`razz_env.encoding.interface` (``reset`` then ``act(observation) -> id``,
and a :class:`Declaration`); it is re-exported here so agent modules import from one place. :class:`BaseAgent`
only adds bookkeeping that every rule agent repeats (a name, a default declaration, a no-op ``reset``, reading
the legal ids
off the mask, picking the first legal one of a list of preferences, checking or folding when it
wants no part, stating a deterministic choice as a one-hot policy); it knows nothing of the game's rules.
Each of these has a batched form over the (N, 5) masks of an :class:`ObservationBatch` (``first_legal_batch``,
``passive_batch``, ``give_up_batch``, ``one_hot_batch``), so rule agents decide many rows with array code; an
agent that reads the view decides a plain list of observations one at a time (``decides_one_at_a_time``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from razz_env.encoding.actions import BRING_IN, CHECK_CALL, FOLD, NUM_ACTIONS
from razz_env.encoding.interface import Agent, Declaration, Observation, ObservationBatch, act_batch

__all__ = ["Agent", "BaseAgent", "Declaration", "Observation", "ObservationBatch", "act_batch"]


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

    def decides_one_at_a_time(self, observations: Sequence[Observation]) -> bool:
        """Whether ``act_batch`` should call ``act`` per observation: for a plain list given to an agent that reads
        the view, as stacking the views costs more than the array code saves (an :class:`ObservationBatch` from a
        batched harness comes stacked)."""
        return "view" in self.declaration.observes and not isinstance(observations, ObservationBatch)

    @staticmethod
    def first_legal_batch(masks: np.ndarray, preferences: Sequence[int]) -> np.ndarray:
        """:meth:`first_legal` for each row of ``masks`` (N, 5): the first legal id of ``preferences``, int64."""
        masks = np.asarray(masks) != 0
        chosen = np.argmax(masks, axis=1)
        if len(masks) and not masks.any(axis=1).all():
            row = int(np.flatnonzero(~masks.any(axis=1))[0])
            raise ValueError(f"row {row} has no legal action: it is not that seat's turn")
        for action_id in reversed(preferences):
            chosen = np.where(masks[:, action_id], action_id, chosen)
        return chosen.astype(np.int64)

    @classmethod
    def passive_batch(cls, masks: np.ndarray) -> np.ndarray:
        """:meth:`passive` for every row of ``masks``: check or call, else the bring-in."""
        return cls.first_legal_batch(masks, (CHECK_CALL, BRING_IN))

    @classmethod
    def give_up_batch(cls, masks: np.ndarray, to_call: np.ndarray) -> np.ndarray:
        """:meth:`give_up` for every row: fold where there are chips to call (``to_call`` > 0), else check."""
        folds = cls.first_legal_batch(masks, (FOLD, CHECK_CALL, BRING_IN))
        return np.where(np.asarray(to_call) > 0, folds, cls.passive_batch(masks))

    @staticmethod
    def one_hot_batch(masks: np.ndarray, action_ids: np.ndarray) -> np.ndarray:
        """:meth:`one_hot` for every row: float64 (N, 5) with 1 on each row's id, which must be legal there."""
        masks, action_ids = np.asarray(masks), np.asarray(action_ids, dtype=np.int64)
        rows = np.arange(len(action_ids))
        illegal = np.flatnonzero(masks[rows, action_ids] == 0)
        if len(illegal):
            row = int(illegal[0])
            raise ValueError(f"action id {action_ids[row]} is not legal in row {row} (mask {masks[row].tolist()})")
        probabilities = np.zeros((len(action_ids), NUM_ACTIONS), dtype=np.float64)
        probabilities[rows, action_ids] = 1.0
        return probabilities

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"
