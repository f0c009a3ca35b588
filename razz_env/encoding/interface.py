"""The agent interface: anything with ``act(observation) -> action id`` and a :class:`Declaration` plays.

An :class:`Observation` is what one seat may see at its turn, as an immutable
snapshot taken for that decision: ``view`` (a frozen
:class:`~razz_env.engine.view.SeatView`, for hand-written agents), ``vector``
(the environment's encoding, for learned agents) and ``action_mask`` (int8 over
the five action ids of :mod:`razz_env.encoding.actions`). It holds no reference
to the live hand, so an agent can neither read another seat's down cards nor
change the game through it.

Every agent carries a ``declaration`` (:class:`Declaration`): the observation parts it reads (building a
view or a vector costs time; the mask always comes), the encoding of its vectors, the variants and seat
counts it plays, and whether it states its policy (``action_probabilities``) and acts in batch
(``act_batch``). Harnesses read it through :func:`declaration_of`, which refuses an object without one in
one line. :class:`Observer` builds the parts an agent reads at one table (the tournament harness, the
environments and ``razz play`` all build observations through it); :func:`seating_problem` refuses a
table it does not play before any hand is dealt; :func:`action_probabilities` and :func:`act_batch` use
the batched methods it declares.

An agent may also have ``hand_over(outcome)``, optional: the harnesses call it once for each hand it was
``reset`` for, when that hand ends, with a :class:`HandOutcome` (:func:`hand_outcome`) holding only what its seat
may know of the ending (every seat's chips won or lost, and the down cards shown at a showdown). An agent without
it is told nothing (:func:`hand_over_hook`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from razz_env.encoding.actions import NUM_ACTIONS, mask_for
from razz_env.engine.config import MAX_SEATS, MIN_SEATS
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.variants import VARIANTS

if TYPE_CHECKING:
    from razz_env.encoding.encoders import TableEncoder
    from razz_env.engine.config import HandConfig
    from razz_env.engine.seat_views import SeatViews
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
            raise AttributeError("this observation carries no view: the agent's declaration does not observe it")
        return self._view

    @property
    def vector(self) -> np.ndarray:
        """The encoded observation (read-only float32)."""
        if self._vector is None:
            raise AttributeError("this observation carries no vector: list 'vector' in the observes of the "
                                 "agent's declaration")
        return self._vector

    def __repr__(self) -> str:
        parts = [p for p in OBSERVATION_PARTS if getattr(self, f"_{p}") is not None]
        return f"Observation(seat={self.seat}, mask={self.action_mask.tolist()}, parts={parts})"


class ObservationBatch(Sequence[Observation]):
    """Many seats' observations at their turns, as arrays: what ``act_batch`` receives.

    ``seats`` (N,), ``masks`` (N, 5) int8 and, when the agent reads them, ``views`` (a
    :class:`~razz_env.engine.seat_views.SeatViews`, one row per decision) and ``vectors`` (N, size) float32;
    every array is read-only. It is also a sequence of :class:`Observation` (``batch[i]``, built on demand),
    so an agent written one decision at a time reads it unchanged.
    """

    __slots__ = ("seats", "masks", "views", "vectors", "_built")

    def __init__(self, seats: np.ndarray, masks: np.ndarray, views: SeatViews | None = None,
                 vectors: np.ndarray | None = None) -> None:
        seats, masks = np.asarray(seats, dtype=np.int64), np.asarray(masks, dtype=np.int8)
        if masks.shape != (len(seats), NUM_ACTIONS):
            raise ValueError(f"masks: expected shape ({len(seats)}, {NUM_ACTIONS}), got {masks.shape}")
        for name, part in (("views", views), ("vectors", vectors)):
            if part is not None and len(part) != len(seats):
                raise ValueError(f"{name}: {len(part)} rows for {len(seats)} seats")
        for array in (seats, masks, vectors):
            if array is not None:
                array.flags.writeable = False
        for name, value in zip(self.__slots__, (seats, masks, views, vectors, {})):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"ObservationBatch is read-only: cannot set {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return ObservationBatch, (self.seats, self.masks, self.views, self.vectors)

    @classmethod
    def of(cls, observations: Sequence[Observation]) -> ObservationBatch:
        """``observations`` as a batch (itself when it is one): their masks, views and vectors stacked."""
        if isinstance(observations, ObservationBatch):
            return observations
        from razz_env.engine.seat_views import SeatViews

        observations = list(observations)
        seats = np.array([o.seat for o in observations], dtype=np.int64)
        masks = (np.stack([o.action_mask for o in observations]) if observations
                 else np.zeros((0, NUM_ACTIONS), dtype=np.int8))
        views = vectors = None
        if observations and all(o._view is not None for o in observations):
            views = SeatViews.from_views([o._view for o in observations])
        if observations and all(o._vector is not None for o in observations):
            vectors = np.stack([o._vector for o in observations])
        return cls(seats, masks, views, vectors)

    def __len__(self) -> int:
        return len(self.seats)

    def __getitem__(self, index: int) -> Observation:  # type: ignore[override]
        if not isinstance(index, (int, np.integer)):
            raise TypeError(f"ObservationBatch indices are integers, got {type(index).__name__}")
        i = int(index) + (len(self) if index < 0 else 0)
        if not 0 <= i < len(self):
            raise IndexError(f"observation {index} of {len(self)}")
        built = self._built.get(i)
        if built is None:
            built = self._built[i] = Observation(
                int(self.seats[i]), self.masks[i], None if self.views is None else self.views.view(i),
                None if self.vectors is None else self.vectors[i])
        return built

    def __repr__(self) -> str:
        parts = [p for p in OBSERVATION_PARTS if getattr(self, f"{p}s") is not None]
        return f"ObservationBatch({len(self)} decisions, parts={parts})"


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


@dataclass(frozen=True, kw_only=True)
class Declaration:
    """What an agent tells a harness before it is seated; every agent has one as its ``declaration``.

    ``observes``: the observation parts it reads, some of ``("view", "vector")`` (the mask always comes).
    ``encoding``: the encoding of the vectors it reads (default ``"flat"``); None when it reads none.
    ``variants`` / ``seat_counts``: the tables it plays (None: every variant, every size from 2 to 8).
    ``states_policy``: it has ``action_probabilities(observation)`` (what best responses query).
    ``acts_in_batch``: it has ``act_batch(observations)`` and, if it states its policy,
    ``action_probabilities_batch(observations)`` (one network pass for many decisions).
    ``deterministic``: ``act`` is a function of the observation (a stated policy is its one-hot), so an
    evaluator that weighs decisions by their policy (AIVAT) need not ask for it.
    ``table``: the one table it plays, a :class:`~razz_env.engine.config.HandConfig` (a policy trained there: its
    stacks, stakes and rules); None: any. An :class:`Observer` for another table refuses it (:func:`table_problem`).
    ``vector_size``: the length of the vectors it reads (a trained network's input); None: any. An
    :class:`Observer` for a table whose vectors have another length refuses it (:func:`width_problem`): the raise
    cap and the heads-up rules set how many decisions a street's history holds, and so the width.
    ``reads_down_card_order``: its policy depends on which of its down cards came first, not only on the set (a
    mixture weighing its members by earlier decisions that saw the first two): a best response then keeps the last
    street's down card apart.

    >>> Declaration(observes=("vector",), variants=["razz"], seat_counts=[2]).encoding
    'flat'
    """

    observes: tuple[str, ...] = ("view",)
    encoding: str | None = None
    variants: tuple[str, ...] | None = None
    seat_counts: tuple[int, ...] | None = None
    states_policy: bool = False
    acts_in_batch: bool = False
    deterministic: bool = False
    table: HandConfig | None = None
    vector_size: int | None = None
    reads_down_card_order: bool = False

    def __post_init__(self) -> None:
        from razz_env.encoding import DEFAULT_ENCODING, ENCODINGS

        observes = _names("observes", self.observes, OBSERVATION_PARTS)
        object.__setattr__(self, "observes", observes)
        if self.encoding is not None and self.encoding not in ENCODINGS:
            raise ConfigError(f"declaration: encoding: expected one of {', '.join(ENCODINGS)}, "
                              f"got {shown(self.encoding)}")
        if "vector" not in observes and self.encoding is not None:
            raise ConfigError(f"declaration: encoding {self.encoding!r} names the vectors it reads, but observes "
                              f"{observes} leaves out 'vector'")
        if "vector" in observes and self.encoding is None:
            object.__setattr__(self, "encoding", DEFAULT_ENCODING)
        if self.variants is not None:
            object.__setattr__(self, "variants", _names("variants", self.variants, tuple(VARIANTS), empty=False))
        if self.seat_counts is not None:
            counts = self.seat_counts
            if (isinstance(counts, str) or not isinstance(counts, Sequence) or not counts
                    or not all(type(n) is int and MIN_SEATS <= n <= MAX_SEATS for n in counts)):
                raise ConfigError(f"declaration: seat_counts: expected table sizes from {MIN_SEATS} to {MAX_SEATS} "
                                  f"(or None for all), got {shown(counts)}")
            object.__setattr__(self, "seat_counts", tuple(counts))
        for flag in ("states_policy", "acts_in_batch", "deterministic", "reads_down_card_order"):
            if not isinstance(getattr(self, flag), bool):
                raise ConfigError(f"declaration: {flag}: expected True or False, got {shown(getattr(self, flag))}")
        from razz_env.engine.config import HandConfig

        if self.table is not None and not isinstance(self.table, HandConfig):
            raise ConfigError(f"declaration: table: expected a HandConfig or None, got {shown(self.table)}")
        if self.vector_size is not None and (type(self.vector_size) is not int or self.vector_size < 1
                                             or "vector" not in observes):
            raise ConfigError(f"declaration: vector_size: expected the positive length of the vectors it observes "
                              f"(or None), got {shown(self.vector_size)} with observes {observes}")

    @property
    def methods(self) -> tuple[str, ...]:
        """The optional methods this declaration promises, beyond ``reset`` and ``act``."""
        policy = ("action_probabilities",) if self.states_policy else ()
        batch = ("act_batch",) + ("action_probabilities_batch",) * self.states_policy if self.acts_in_batch else ()
        return policy + batch


def _names(field: str, given: Any, allowed: tuple[str, ...], empty: bool = True) -> tuple[str, ...]:
    """``given`` as a tuple of distinct names from ``allowed``, else :class:`ConfigError` naming ``field``."""
    if (isinstance(given, str) or not isinstance(given, Sequence) or not (empty or given)
            or not all(name in allowed for name in given) or len(set(given)) != len(given)):
        some = "some" if empty else "one or more"
        raise ConfigError(f"declaration: {field}: expected {some} of {', '.join(allowed)}, got {shown(given)}")
    return tuple(given)


def declaration_of(agent: Any) -> Declaration:
    """``agent``'s :class:`Declaration`, checked against the methods it promises; :class:`ConfigError` else.

    >>> class Mute:
    ...     name = "mute"
    >>> declaration_of(Mute())
    Traceback (most recent call last):
    ...
    razz_env.engine.errors.ConfigError: agent 'mute' (Mute) has no declaration: give its class \
`declaration = Declaration(...)` (razz_env.encoding.interface: what it observes, the variants and seat counts \
it plays, whether it states its policy and acts in batch)
    """
    declared = getattr(agent, "declaration", None)
    if not isinstance(declared, Declaration):
        what = "has no declaration" if declared is None else f"has a declaration of type {type(declared).__name__}"
        raise ConfigError(f"agent {_name(agent)!r} ({type(agent).__qualname__}) {what}: give its class "
                          "`declaration = Declaration(...)` (razz_env.encoding.interface: what it observes, the "
                          "variants and seat counts it plays, whether it states its policy and acts in batch)")
    missing = [method for method in declared.methods if not callable(getattr(agent, method, None))]
    if missing:
        raise ConfigError(f"agent {_name(agent)!r}: its declaration promises {' and '.join(missing)}, "
                          "which it does not have")
    return declared


class Observer:
    """Builds the observations one agent is owed at tables of one configuration (only the parts it reads)."""

    def __init__(self, agent: Any, config: HandConfig, allow_open_fold: bool = False,
                 encoder: TableEncoder | None = None) -> None:
        """``encoder``, if given, serves an agent whose declared encoding has its name (e.g. an environment's own).
        :class:`ConfigError` when the agent declares another table than ``config`` (:func:`table_problem`) or
        vectors of another length than this table's (:func:`width_problem`)."""
        declared = declaration_of(agent)
        problem = table_problem(agent, config)
        if problem is not None:
            raise ConfigError(problem)
        self.view = "view" in declared.observes
        self.encoder: TableEncoder | None = None
        if declared.encoding is not None:
            from razz_env.encoding import make_encoder

            use_given = encoder is not None and encoder.name == declared.encoding
            self.encoder = encoder if use_given else make_encoder(declared.encoding, config)
            problem = width_problem(agent, config, self.encoder)
            if problem is not None:
                raise ConfigError(problem)
        self.allow_open_fold = allow_open_fold

    def __call__(self, hand: HandState, seat: int) -> Observation:
        """The observation of ``hand`` for ``seat`` now."""
        return observe(hand, seat, view=self.view, encoder=self.encoder, allow_open_fold=self.allow_open_fold)


def seating_problem(agent: Any, variant: str, num_seats: int) -> str | None:
    """Why ``agent`` cannot play ``variant`` at ``num_seats`` seats (from its declaration), or None.

    >>> class HeadsUpRazz:
    ...     name, declaration = "hu", Declaration(variants=("razz",), seat_counts=(2,))
    >>> seating_problem(HeadsUpRazz(), "razz", 2) is None
    True
    >>> seating_problem(HeadsUpRazz(), "stud", 3)
    "agent 'hu' plays razz at 2 seats; it cannot be seated at stud with 3 seats"
    """
    declared = declaration_of(agent)
    variants, seat_counts = declared.variants, declared.seat_counts
    if (variants is None or variant in variants) and (seat_counts is None or num_seats in seat_counts):
        return None
    plays = " or ".join(variants) if variants is not None else "any variant"
    seats = "/".join(str(n) for n in seat_counts) if seat_counts is not None else "any number of"
    return (f"agent {_name(agent)!r} plays {plays} at {seats} seats; "
            f"it cannot be seated at {variant} with {num_seats} seats")


def table_problem(agent: Any, config: HandConfig) -> str | None:
    """Why ``agent``, which declares the table it was trained at, cannot play at tables of ``config`` (the stacks,
    stakes or rules differ; the variant and seat count are :func:`seating_problem`'s), or None.

    >>> from razz_env.engine.config import HandConfig
    >>> class Trained:
    ...     name, declaration = "pt", Declaration(table=HandConfig.create("razz", num_seats=2, stacks=200))
    >>> table_problem(Trained(), HandConfig.create("razz", num_seats=2, stacks=200)) is None
    True
    >>> table_problem(Trained(), HandConfig.create("razz", num_seats=2, stacks=1000))
    "agent 'pt' was trained at stacks 200; it cannot be seated at a table of stacks 1000"
    """
    from dataclasses import fields

    trained = declaration_of(agent).table
    if trained is None:
        return None
    differences = []
    if set(trained.stacks) != set(config.stacks):
        differences.append(("stacks", _chips(trained.stacks), _chips(config.stacks)))
    for part in ("stakes", "rules"):
        for item in fields(getattr(trained, part)):
            was, offered = getattr(getattr(trained, part), item.name), getattr(getattr(config, part), item.name)
            if was != offered:
                differences.append((item.name, was, offered))
    if not differences:
        return None
    return (f"agent {_name(agent)!r} was trained at {', '.join(f'{key} {was}' for key, was, _ in differences)}; "
            f"it cannot be seated at a table of {', '.join(f'{key} {now}' for key, _, now in differences)}")


def width_problem(agent: Any, config: HandConfig, encoder: TableEncoder) -> str | None:
    """Why ``agent``, which declares the length of the vectors it reads, cannot read ``encoder``'s at tables of
    ``config``, in one line (with the history length that would fit that width, when one does), or None.

    >>> from razz_env.encoding import make_encoder
    >>> from razz_env.engine.config import HandConfig
    >>> class Trained:
    ...     name, declaration = "net", Declaration(observes=("vector",), vector_size=676)
    >>> width_problem(Trained(), HandConfig.create("razz"), make_encoder("flat", HandConfig.create("razz"))) is None
    True
    >>> wider = HandConfig.create("razz", raise_cap=5)
    >>> width_problem(Trained(), wider, make_encoder("flat", wider))  # doctest: +NORMALIZE_WHITESPACE
    "agent 'net' reads 676-value 'flat' vectors; this table's (razz, 2 seats, raise cap 5) have 731: it cannot be
    seated (its width is a history of 6 decisions a street: play it at raise cap 4; keeping each street's last 6
    decisions, history_slots 6, would fit this table in 676 values, but no harness offers it)"
    """
    declared = declaration_of(agent)
    size = declared.vector_size
    if size is None or encoder.size == size:
        return None
    seats, cap = config.num_seats, config.raise_cap_for(config.num_seats)
    capped = (f"raise cap {cap}" if cap is not None else "uncapped heads-up" if config.rules.raise_cap is not None
              else "no raise cap")
    text = (f"agent {_name(agent)!r} reads {size:,}-value {encoder.name!r} vectors; this table's "
            f"({config.variant.name}, {seats} seats, {capped}) have {encoder.size:,}: it cannot be seated")
    slots = _fitting_history(encoder.name, config, size)
    if slots is None:
        return text
    fits = (f": play it at raise cap {(slots - seats) // (seats - 1)}" if slots > seats
            and (slots - seats) % (seats - 1) == 0 else "")
    return (f"{text} (its width is a history of {slots} decisions a street{fits}; keeping each street's last "
            f"{slots} decisions, history_slots {slots}, would fit this table in {size:,} values, but no harness "
            f"offers it)")


def _fitting_history(encoding: str, config: HandConfig, size: int) -> int | None:
    """The history length (decisions a street) at which ``encoding``'s vectors at ``config`` are ``size`` long,
    or None (none does, or the encoding fixes it)."""
    from razz_env.encoding import make_encoder
    from razz_env.encoding.encoders import MAX_DEFAULT_HISTORY_SLOTS

    for slots in range(1, MAX_DEFAULT_HISTORY_SLOTS + 1):
        try:
            if make_encoder(encoding, config, history_slots=slots).size == size:
                return slots
        except (TypeError, ValueError):
            return None
    return None


def _chips(stacks: Sequence[int]) -> str:
    return str(stacks[0]) if len(set(stacks)) == 1 else "/".join(str(stack) for stack in stacks)


def _name(agent: Any) -> str:
    return str(getattr(agent, "name", type(agent).__name__))


@dataclass(frozen=True)
class HandOutcome:
    """How one hand ended, as one seat may know it: what ``hand_over`` is told.

    ``hand``: the hand's number among those the agent was ``reset`` for in this block or match, from 0 (a block
    deals all its hands before the first decision, so an agent at many tables learns which one ended).
    ``seat``: the agent's seat in it. ``payoffs``: every seat's chips won (positive) or lost this hand, summing to
    0. ``showdown``: whether two or more seats reached the showdown. ``shown``: per seat, the down cards it showed
    there (card ids in dealing order), or None for a seat that did not show (it folded, or no showdown was held).
    """

    hand: int
    seat: int
    payoffs: tuple[int, ...]
    showdown: bool
    shown: tuple[tuple[int, ...] | None, ...]


def hand_outcome(hand: HandState, seat: int, number: int) -> HandOutcome:
    """The :class:`HandOutcome` of the finished ``hand`` for ``seat``, its ``number``-th hand (from 0).

    >>> from razz_env.engine.config import HandConfig
    >>> from razz_env.engine.state import HandState
    >>> hand = HandState(HandConfig.create("razz"), seed=1)
    >>> _ = hand.act("complete"), hand.act("fold")
    >>> hand_outcome(hand, 0, 0)
    HandOutcome(hand=0, seat=0, payoffs=(1, -1), showdown=False, shown=(None, None))
    """
    if not hand.is_over:
        raise ValueError("hand_outcome: the hand is not over yet")
    live = [s for s in range(hand.num_seats) if not hand.folded[s]]
    showdown = len(live) > 1
    shown = tuple(tuple(hand.down_cards(s)) if showdown and s in live else None for s in range(hand.num_seats))
    return HandOutcome(number, seat, tuple(hand.payoffs), showdown, shown)


def hand_over_hook(agent: Any) -> Callable[[HandOutcome], object] | None:
    """``agent.hand_over`` when it has one (a harness tells it how each of its hands ended), else None.

    >>> hand_over_hook(object()) is None
    True
    """
    hook = getattr(agent, "hand_over", None)
    return hook if callable(hook) else None


@runtime_checkable
class Agent(Protocol):
    """A player: ``reset`` before each hand, ``act`` at each of its turns; its ``declaration`` says what else."""

    name: str
    declaration: Declaration

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Called once before each hand with the seat this agent plays."""

    def act(self, observation: Observation) -> int:
        """Return a legal action id (see :mod:`razz_env.encoding.actions`)."""


def action_probabilities(agent: Any, observations: Sequence[Observation]) -> np.ndarray:
    """The agent's policy at each observation, shape (N, 5): zero on illegal ids, rows summing to 1.

    Uses ``agent.action_probabilities_batch(observations)`` when it declares it acts in batch (one network
    pass), else ``agent.action_probabilities(observation)`` per observation. An agent that declares no
    stated policy cannot be queried: measuring its exploitability (``razz exploit``) needs one.
    """
    declared = declaration_of(agent)
    if not declared.states_policy:
        raise TypeError(f"agent {_name(agent)!r} states no policy (its declaration has states_policy=False)")
    if not observations:
        return np.zeros((0, NUM_ACTIONS))
    if declared.acts_in_batch and _batch_is_current(agent, "action_probabilities", "action_probabilities_batch"):
        probabilities = np.asarray(agent.action_probabilities_batch(ObservationBatch.of(observations)),
                                   dtype=np.float64)
    else:
        probabilities = np.array([agent.action_probabilities(o) for o in observations],
                                 dtype=np.float64).reshape(len(observations), -1)
    if probabilities.shape != (len(observations), NUM_ACTIONS):
        raise ValueError(f"agent {_name(agent)!r}: action probabilities of shape {probabilities.shape} for "
                         f"{len(observations)} observations")
    return probabilities


def _batch_is_current(agent: Any, single: str, batch: str) -> bool:
    """Whether ``agent``'s ``batch`` method is defined no higher in its class tree than its ``single`` one: a
    subclass that overrides ``act`` alone must not be decided by its parent's ``act_batch``."""
    mro = type(agent).__mro__

    def owner(name: str) -> int:
        return next((depth for depth, cls in enumerate(mro) if name in cls.__dict__), len(mro))

    return owner(batch) <= owner(single)


def act_batch(agent: Agent, observations: Sequence[Observation]) -> list[int]:
    """Many decisions at once: ``agent.act_batch`` on them as an :class:`ObservationBatch` when it declares it
    acts in batch (array code over every decision), else ``agent.act`` one observation at a time (also for a
    subclass that overrides ``act`` but inherits ``act_batch``)."""
    if declaration_of(agent).acts_in_batch and _batch_is_current(agent, "act", "act_batch"):
        return list(agent.act_batch(ObservationBatch.of(observations)))
    return [agent.act(obs) for obs in observations]
