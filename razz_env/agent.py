"""The agent interface: anything with ``act(observation) -> action id`` plays.

An :class:`Observation` is what one seat sees at its turn, offered three ways:
``view`` (structured :class:`~razz_env.engine.view.SeatView`, for hand-written
agents), ``vector`` (the environment's encoding, for learned agents) and
``action_mask`` (int8 over the five action ids of
:mod:`razz_env.encoding.actions`). Each is built on first access only, so a rule
agent never pays for encoding and a network never pays for a view.
The engine, environments, tournament harness and trainers depend only on this.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from razz_env.encoding.actions import mask_for

if TYPE_CHECKING:
    from razz_env.engine.state import HandState
    from razz_env.engine.view import SeatView


class Observation:
    """One seat's observation at its turn (lazy ``view``, ``vector`` and ``action_mask``)."""

    __slots__ = ("hand", "seat", "_encode", "_view", "_vector", "_mask", "allow_open_fold")

    def __init__(
        self,
        hand: HandState,
        seat: int,
        encode: Callable[[HandState, int], np.ndarray] | None = None,
        allow_open_fold: bool = False,
    ) -> None:
        self.hand = hand
        self.seat = seat
        self._encode = encode
        self.allow_open_fold = allow_open_fold
        self._view: SeatView | None = None
        self._vector: np.ndarray | None = None
        self._mask: np.ndarray | None = None

    @property
    def view(self) -> SeatView:
        """Structured view of the hand from this seat (nothing hidden from it)."""
        if self._view is None:
            self._view = self.hand.view(self.seat)
        return self._view

    @property
    def vector(self) -> np.ndarray:
        """The encoded observation (requires an encoder)."""
        if self._vector is None:
            if self._encode is None:
                raise ValueError("this observation was made without an encoder; pass encode=")
            self._vector = self._encode(self.hand, self.seat)
        return self._vector

    @property
    def action_mask(self) -> np.ndarray:
        """int8 legality mask over the five action ids (shared and read-only: copy it to modify)."""
        if self._mask is None:
            legal = self.hand.legal_actions() if self.hand.actor == self.seat else ()
            self._mask = mask_for(legal, self.allow_open_fold)
        return self._mask


@runtime_checkable
class Agent(Protocol):
    """A player: ``reset`` before each hand, ``act`` at each of its turns."""

    name: str

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Called once before each hand with the seat this agent plays."""

    def act(self, observation: Observation) -> int:
        """Return a legal action id (see :mod:`razz_env.encoding.actions`)."""


def act_batch(agent: Agent, observations: Sequence[Observation]) -> list[int]:
    """Many decisions at once: uses ``agent.act_batch`` when it has one (one network pass)."""
    batch = getattr(agent, "act_batch", None)
    if batch is not None:
        return list(batch(observations))
    return [agent.act(obs) for obs in observations]
