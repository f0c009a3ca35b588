"""Several agents' stated policies as one agent: the behaviour strategy of drawing one member a hand.

Drawing member ``k`` with prior weight ``w_k`` before each hand and letting it play the hand out is, decision by
decision, the behaviour strategy (Kuhn's theorem; the average strategy of fictitious play is formed so)::

    pi(a | I) = sum_k  w_k(I) pi_k(a | I),    w_k(I) proportional to  w_k * prod_t pi_k(a_t | I_t)

over the seat's own earlier decisions ``I_t`` of the hand and the ids ``a_t`` it took there. :class:`MixtureAgent`
plays and states that policy, so AIVAT and a best response (LBR) read a mixture as any stated policy, and nothing
is kept between decisions: each decision replays the hand from its view
(:func:`~razz_env.engine.view_replay.replay_view`) and asks every member about the seat's earlier decisions, so
scalar, batched and isolated play and a best response's questions about other holdings all get the same answer.
Decisions that share all but the seat's down cards (a best response's holdings) are replayed once.

Members are agent specs (``make_agent``) that state their policy as a function of the observation (a network, a
tabular policy, a rule agent); the mixture reads what they read (the view always: it replays from it) and plays
the one table they were trained at (their declared table, or ``table``). A holding no member would have played
so far (zero weight everywhere: only a best response's hypothetical holdings reach one) is answered with the
prior weights. ``seed`` seeds the draws; ``act_batch`` on N rows draws as N calls of ``act`` in order.

>>> agent = make_agent({"type": "mixture", "members": ["razz_heuristic", "calling_station"],
...                     "table": {"variant": "razz"}, "weights": [3, 1], "seed": 1})
>>> from razz_env.engine import HandConfig, HandState
>>> from razz_env.encoding.interface import observe
>>> hand = HandState(HandConfig.create("razz"), seed=4)
>>> agent.action_probabilities(observe(hand, 1)).tolist()  # the heuristic completes, the station brings in
[0.0, 0.0, 0.75, 0.25, 0.0]
>>> _ = hand.act("complete"), hand.act("raise")
>>> agent.action_probabilities(observe(hand, 1)).tolist()  # the station would not have completed: the heuristic
[0.0, 0.0, 1.0, 0.0, 0.0]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from razz_env.agents.registry import make_agent, register
from razz_env.encoding.actions import ENGINE_TO_ID, NUM_ACTIONS, mask_for
from razz_env.encoding.interface import (
    Declaration,
    Observation,
    ObservationBatch,
    action_probabilities,
    declaration_of,
    seating_problem,
)
from razz_env.engine.checks import as_flag
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.seat_views import NO_CARD, SeatViews
from razz_env.engine.state import HandState
from razz_env.engine.view import SeatView
from razz_env.engine.view_replay import replay_view


class Earlier(NamedTuple):
    """One earlier decision of the seat, as replayed: its mask, view and vector (the replay's down cards), the id
    taken, and how many down cards the seat held then."""

    mask: np.ndarray
    view: SeatView
    vector: np.ndarray | None
    taken: int
    held: int


class MixtureAgent:
    """The behaviour strategy of ``members`` drawn by ``weights`` once a hand (see the module docs).

    It pickles as its spec: each member by its own spec or pickle, the draws from ``seed`` again.
    """

    def __init__(self, members: Sequence[Any], weights: Sequence[float] | None = None, *, name: str = "mixture",
                 seed: int | None = None, table: Mapping[str, Any] | HandConfig | None = None,
                 allow_open_fold: bool = False) -> None:
        if isinstance(members, (str, Mapping)) or not isinstance(members, Sequence) or not members:
            raise ConfigError(f"mixture: members: expected a list of one or more agent specs, got {shown(members)}")
        weights = [1.0] * len(members) if weights is None else weights
        if (isinstance(weights, str) or not isinstance(weights, Sequence) or len(weights) != len(members)
                or not all(isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w) and w >= 0
                           for w in weights) or not sum(weights) > 0):
            raise ConfigError(f"mixture: weights: expected {len(members)} finite numbers at least 0, not all 0 (one "
                              f"per member), got {shown(weights)}")
        self.spec = {"members": list(members), "weights": [float(w) for w in weights], "name": name, "seed": seed,
                     "table": table, "allow_open_fold": as_flag("allow_open_fold", allow_open_fold)}
        self.name = name
        self.members = [make_agent(member, seed=seed) for member in members]
        self.priors = np.asarray(weights, dtype=np.float64) / sum(weights)
        self.allow_open_fold = bool(allow_open_fold)
        declared = [declaration_of(member) for member in self.members]
        for member, declaration in zip(self.members, declared):
            if not declaration.states_policy:
                raise ConfigError(f"mixture: member {member.name!r} states no policy (no action_probabilities); a "
                                  "mixture weighs its members by the probabilities they give")
        self.config = _common_table(self.members, declared, table)
        encodings = {d.encoding for d in declared if d.encoding is not None}
        if len(encodings) > 1:
            raise ConfigError(f"mixture: members read vectors of different encodings ({', '.join(sorted(encodings))})"
                              "; a mixture serves one")
        self.encoder = None
        if encodings:
            from razz_env.encoding import make_encoder

            self.encoder = make_encoder(next(iter(encodings)), self.config)
        sizes = {d.vector_size for d in declared if d.vector_size is not None}
        self.declaration = Declaration(
            observes=("view", "vector") if encodings else ("view",), encoding=next(iter(encodings), None),
            variants=_common([d.variants for d in declared], (self.config.variant.name,)),
            seat_counts=_common([d.seat_counts for d in declared], (self.config.num_seats,)),
            states_policy=True, acts_in_batch=True, deterministic=len(self.members) == 1 and declared[0].deterministic,
            table=self.config, vector_size=next(iter(sizes)) if len(sizes) == 1 else None,
            reads_down_card_order=True)  # its members' earlier decisions saw the first two down cards only
        self._generator = np.random.default_rng(seed)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _rebuild, (self.spec,)

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Refuse a table it cannot play; the members check theirs."""
        problem = seating_problem(self, variant, num_seats)
        if problem is not None:
            raise ValueError(problem)
        for member in self.members:
            member.reset(seat, num_seats, variant)

    def act(self, observation: Observation) -> int:
        """One decision drawn from the mixture's policy here."""
        return self.act_batch([observation])[0]

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """Decisions drawn from each observation's mixture policy, one uniform draw a row in order."""
        probabilities = self.action_probabilities_batch(observations)
        draws = self._generator.random(len(probabilities))
        totals = np.cumsum(probabilities, axis=1)
        return [int(a) for a in np.argmax(totals > draws[:, None] * totals[:, -1:], axis=1)]

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """The mixture's policy at ``observation``, float64 (5,)."""
        return self.action_probabilities_batch([observation])[0]

    def action_probabilities_batch(self, observations: Sequence[Observation]) -> np.ndarray:
        """The mixture's policy at each observation, float64 (N, 5): each member's policy there, weighted by its
        prior times the probability it gave the seat's earlier actions of the hand."""
        batch = ObservationBatch.of(observations)
        if not len(batch):
            return np.zeros((0, NUM_ACTIONS))
        if batch.views is None:
            raise AttributeError(f"agent {self.name!r} reads the view, and these observations carry none")
        earlier, rows, taken = self._earlier(batch)
        likelihood = np.ones((len(batch), len(self.members)))
        now = []
        for k, member in enumerate(self.members):
            now.append(action_probabilities(member, batch))
            if len(taken):
                chosen = action_probabilities(member, earlier)[np.arange(len(taken)), taken]
                np.multiply.at(likelihood[:, k], rows, chosen)
        posterior = likelihood * self.priors
        totals = posterior.sum(axis=1, keepdims=True)
        posterior = np.where(totals > 0, posterior / np.where(totals > 0, totals, 1.0), self.priors)
        return np.einsum("nk,kna->na", posterior, np.stack(now))

    def _earlier(self, batch: ObservationBatch) -> tuple[ObservationBatch, np.ndarray, np.ndarray]:
        """The seat's earlier decisions of each row's hand (those with a choice) as one batch with the row's own
        down cards, the row each belongs to, and the id taken there. Rows that differ only in their down cards
        share one replay."""
        views = batch.views
        public = views.with_own_down(np.arange(len(batch)), np.zeros((len(batch), 0), dtype=np.int64))
        key = np.concatenate([public.seat[:, None], public.cards.reshape(len(batch), -1),
                              public.history.reshape(len(batch), -1), public.history_length[:, None]], axis=1)
        _, first, group = np.unique(key, axis=0, return_index=True, return_inverse=True)
        replayed = [self._replayed(views.view(int(row)), batch.masks[row]) for row in first]
        found = [decision for decisions in replayed for decision in decisions]
        if not found:
            empty = np.zeros(0, dtype=np.intp)
            return ObservationBatch(empty, np.zeros((0, NUM_ACTIONS))), empty, empty
        starts = np.cumsum([0] + [len(decisions) for decisions in replayed])
        counts = np.diff(starts)[group.ravel()]
        rows = np.repeat(np.arange(len(batch)), counts)
        index = np.concatenate([np.arange(starts[g], starts[g + 1]) for g in group.ravel()]).astype(np.intp)
        held = np.array([decision.held for decision in found])[index]
        own = views.own_down[rows]
        down = np.where(np.arange(own.shape[1]) < held[:, None], own, NO_CARD)
        earlier_views = SeatViews.from_views([decision.view for decision in found]).with_own_down(index, down)
        vectors = None
        if self.encoder is not None:
            vectors = np.stack([decision.vector for decision in found])[index]
            self.encoder.write_own_down(vectors, down)
        masks = np.stack([decision.mask for decision in found])[index]
        taken = np.array([decision.taken for decision in found], dtype=np.intp)[index]
        return ObservationBatch(views.seat[rows], masks, earlier_views, vectors), rows, taken

    def _replayed(self, view: SeatView, mask: np.ndarray) -> list[Earlier]:
        """Each earlier decision of ``view``'s seat with a choice (two legal ids or more)."""
        seat = view.seat
        expected = mask_for(view.legal_actions, self.allow_open_fold)
        if not np.array_equal(expected, mask):
            raise ValueError(f"mixture {self.name!r}: the observation's mask {mask.tolist()} is not the one its legal "
                             f"actions give ({expected.tolist()}): a table that allows open folds needs the "
                             f"mixture's allow_open_fold to be {not self.allow_open_fold}")
        found: list[Earlier] = []

        def visit(number: int, hand: HandState) -> None:
            entry = view.history[number]
            if entry.seat != seat:
                return
            legal = mask_for(hand.legal_actions(), self.allow_open_fold)
            if legal.sum() > 1:
                found.append(Earlier(legal, hand.view(seat), None if self.encoder is None else
                                     self.encoder.encode(hand, seat), ENGINE_TO_ID[entry.action],
                                     len(hand.down_cards(seat))))

        replay_view(view, self.config, visit)
        return found

    def __repr__(self) -> str:
        return f"MixtureAgent(name={self.name!r}, members={[m.name for m in self.members]})"


def _common_table(members: list[Any], declared: list[Declaration], table: Any) -> HandConfig:
    """The one table the members were trained at (and ``table``, if given, must be it): what the mixture replays
    hands at."""
    from razz_env.engine.table import Table

    given = table if isinstance(table, HandConfig) or table is None else Table.from_mapping(
        table, "mixture: table").hand_config()
    tables = {d.table for d in declared if d.table is not None} | ({given} if given is not None else set())
    if len(tables) > 1:
        named = "; ".join(f"{m.name!r}: {d.table}" for m, d in zip(members, declared) if d.table is not None)
        raise ConfigError(f"mixture: its members and table name different tables ({named}"
                          f"{f'; table: {given}' if given is not None else ''}); a mixture plays one")
    if not tables:
        raise ConfigError("mixture: no member declares the table it plays, so give the mixture's table (a mapping "
                          "such as {variant: razz, stacks: 1000}); it replays each hand at that table")
    return next(iter(tables))


def _common(allowed: list[tuple[Any, ...] | None], table: tuple[Any, ...]) -> tuple[Any, ...]:
    """What every member allows (None: all), within the table's."""
    common = set(table)
    for each in allowed:
        if each is not None:
            common &= set(each)
    if not common:
        raise ConfigError(f"mixture: its members do not all play the table's {table[0]}")
    return tuple(sorted(common))


def _rebuild(spec: dict[str, Any]) -> MixtureAgent:
    return MixtureAgent(**spec)


@register("mixture")
def mixture(members: Sequence[Any], weights: Sequence[float] | None = None, name: str = "mixture",
            seed: int | None = None, table: Mapping[str, Any] | None = None,
            allow_open_fold: bool = False) -> MixtureAgent:
    """Several agents' stated policies played as one behaviour strategy (one member drawn a hand)."""
    return MixtureAgent(members, weights, name=name, seed=seed, table=table, allow_open_fold=allow_open_fold)
