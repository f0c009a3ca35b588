"""The agent interface: anything with ``act(observation) -> action id`` plays.

An :class:`Observation` is what one seat may see at its turn, as an immutable
snapshot taken for that decision: ``view`` (a frozen
:class:`~razz_env.engine.view.SeatView`, for hand-written agents), ``vector``
(the environment's encoding, for learned agents) and ``action_mask`` (int8 over
the five action ids of :mod:`razz_env.encoding.actions`). It holds no reference
to the live hand, so an agent can neither read another seat's down cards nor
change the game through it.

Building a view or a vector costs time, so an agent may say which it reads with
an ``observes`` attribute (a subset of ``("view", "vector")``; the mask always
comes). Without one it gets the view, plus the vector when it names an
``encoding``. :class:`Observer` applies that rule for one agent at one table;
the tournament harness, the environments and ``razz play`` all build
observations through it.

An agent may state its policy with ``action_probabilities(observation)`` (and a batched
``action_probabilities_batch``): :func:`action_probabilities` reads it for best responses.

An agent may also declare the tables it can play with ``variants`` and
``seat_counts`` (tuples); :func:`seating_problem` reads them so a harness can
refuse a seating before any hand is dealt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from razz_env.encoding.actions import NUM_ACTIONS, mask_for

if TYPE_CHECKING:
    from razz_env.encoding.table import TableEncoder
    from razz_env.engine.config import HandConfig
    from razz_env.engine.state import HandState
    from razz_env.engine.view import SeatView

OBSERVATION_PARTS = ("view", "vector")


class Observation:
    """One seat's observation at its turn: ``seat``, ``action_mask`` and, when built, ``view`` and ``vector``.

    Immutable, and it holds only what the seat may see (never the hand itself).
    """

    __slots__ = ("seat", "action_mask", "_view", "_vector")

    def __init__(self, seat: int, action_mask: np.ndarray, view: SeatView | None = None,
                 vector: np.ndarray | None = None) -> None:
        if vector is not None:
            vector.setflags(write=False)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "action_mask", action_mask)
        object.__setattr__(self, "_view", view)
        object.__setattr__(self, "_vector", vector)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Observation is read-only: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Observation is read-only: cannot delete {name!r}")

    @property
    def view(self) -> SeatView:
        """Structured view of the hand from this seat (nothing hidden from it)."""
        if self._view is None:
            raise AttributeError("this observation carries no view: the agent's `observes` leaves it out")
        return self._view

    @property
    def vector(self) -> np.ndarray:
        """The encoded observation (read-only float32)."""
        if self._vector is None:
            raise AttributeError("this observation carries no vector: give the agent an `encoding` "
                                 "or list 'vector' in its `observes`")
        return self._vector

    def __repr__(self) -> str:
        parts = [p for p in OBSERVATION_PARTS if getattr(self, f"_{p}") is not None]
        return f"Observation(seat={self.seat}, mask={self.action_mask.tolist()}, parts={parts})"


def observe(hand: HandState, seat: int, *, view: bool = True, encoder: TableEncoder | None = None,
            allow_open_fold: bool = False) -> Observation:
    """Snapshot what ``seat`` may see of ``hand`` now: the mask, the view if ``view``, the vector if ``encoder``.

    >>> from razz_env.engine.config import HandConfig
    >>> from razz_env.engine.state import HandState
    >>> hand = HandState(HandConfig.create("razz"), seed=1)
    >>> obs = observe(hand, hand.actor)
    >>> obs.action_mask.tolist(), len(obs.view.own_down), hasattr(obs, "hand")
    ([0, 0, 1, 1, 0], 2, False)
    """
    legal = hand.legal_actions() if hand.actor == seat else ()
    return Observation(
        seat,
        mask_for(legal, allow_open_fold),
        hand.view(seat) if view else None,
        encoder.encode(hand, seat) if encoder is not None else None,
    )


def observation_parts(agent: Any) -> tuple[str, ...]:
    """What ``agent`` reads: its ``observes``, else the view plus the vector when it names an ``encoding``."""
    declared = getattr(agent, "observes", None)
    if declared is None:
        return ("view", "vector") if getattr(agent, "encoding", None) else ("view",)
    if isinstance(declared, str) or not all(part in OBSERVATION_PARTS for part in declared):
        raise ValueError(f"{_name(agent)}: observes must list some of {OBSERVATION_PARTS}, got {declared!r}")
    return tuple(declared)


class Observer:
    """Builds the observations one agent is owed at tables of one configuration (only the parts it reads)."""

    def __init__(self, agent: Any, config: HandConfig, allow_open_fold: bool = False,
                 encoder: TableEncoder | None = None) -> None:
        """``encoder``, if given, serves an agent whose ``encoding`` has its name (e.g. an environment's own)."""
        parts = observation_parts(agent)
        self.view = "view" in parts
        self.encoder: TableEncoder | None = None
        if "vector" in parts:
            from razz_env.encoding import DEFAULT_ENCODING, make_encoder

            encoding = getattr(agent, "encoding", None) or DEFAULT_ENCODING
            use_given = encoder is not None and getattr(encoder, "name", None) == encoding
            self.encoder = encoder if use_given else make_encoder(encoding, config)
        self.allow_open_fold = allow_open_fold

    def __call__(self, hand: HandState, seat: int) -> Observation:
        """The observation of ``hand`` for ``seat`` now."""
        return observe(hand, seat, view=self.view, encoder=self.encoder, allow_open_fold=self.allow_open_fold)


def seating_problem(agent: Any, variant: str, num_seats: int) -> str | None:
    """Why ``agent`` cannot play ``variant`` at ``num_seats`` seats (from its ``variants`` / ``seat_counts``), or None.

    >>> class HeadsUpRazz:
    ...     name, variants, seat_counts = "hu", ("razz",), (2,)
    >>> seating_problem(HeadsUpRazz(), "razz", 2) is None
    True
    >>> seating_problem(HeadsUpRazz(), "stud", 3)
    "agent 'hu' plays razz at 2 seats; it cannot be seated at stud with 3 seats"
    """
    variants = getattr(agent, "variants", None)
    seat_counts = getattr(agent, "seat_counts", None)
    if (variants is None or variant in variants) and (seat_counts is None or num_seats in seat_counts):
        return None
    plays = " or ".join(variants) if variants is not None else "any variant"
    seats = "/".join(str(n) for n in seat_counts) if seat_counts is not None else "any number of"
    return (f"agent {_name(agent)!r} plays {plays} at {seats} seats; "
            f"it cannot be seated at {variant} with {num_seats} seats")


def _name(agent: Any) -> str:
    return str(getattr(agent, "name", type(agent).__name__))


@runtime_checkable
class Agent(Protocol):
    """A player: ``reset`` before each hand, ``act`` at each of its turns."""

    name: str

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Called once before each hand with the seat this agent plays."""

    def act(self, observation: Observation) -> int:
        """Return a legal action id (see :mod:`razz_env.encoding.actions`)."""


class PolicyAgent(Agent, Protocol):
    """An agent that also states its policy: what best responses and exploitability measures query.

    ``act`` must be a draw from (or, for a deterministic agent, the one id of) this distribution.
    """

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """Probability of each of the five action ids now: zero on illegal ids, summing to 1."""


def action_probabilities(agent: Any, observations: Sequence[Observation]) -> np.ndarray:
    """The agent's policy at each observation, shape (N, 5): zero on illegal ids, rows summing to 1.

    Uses ``agent.action_probabilities_batch(observations)`` when the agent has it (one network pass),
    else ``agent.action_probabilities(observation)`` per observation. An agent without either has no
    stated policy: measuring its exploitability (``razz exploit``) needs one.
    """
    if not observations:
        return np.zeros((0, NUM_ACTIONS))
    batch = getattr(agent, "action_probabilities_batch", None)
    if batch is not None:
        probabilities = np.asarray(batch(observations), dtype=np.float64)
    else:
        single = getattr(agent, "action_probabilities", None)
        if single is None:
            raise TypeError(f"agent {_name(agent)!r} has no action_probabilities(observation): it states no policy")
        probabilities = np.array([single(o) for o in observations], dtype=np.float64).reshape(len(observations), -1)
    if probabilities.shape != (len(observations), NUM_ACTIONS):
        raise ValueError(f"agent {_name(agent)!r}: action probabilities of shape {probabilities.shape} for "
                         f"{len(observations)} observations")
    return probabilities


def act_batch(agent: Agent, observations: Sequence[Observation]) -> list[int]:
    """Many decisions at once: uses ``agent.act_batch`` when it has one (one network pass)."""
    batch = getattr(agent, "act_batch", None)
    if batch is not None:
        return list(batch(observations))
    return [agent.act(obs) for obs in observations]
