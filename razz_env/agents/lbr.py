"""Local best response (LBR; Lisý and Bowling, 2017): a lower bound on how exploitable an agent is, heads-up.

LBR holds its own instance of the target agent (built from the target's spec), so it knows the
opponent's *policy*, never its cards: like any agent it sees only its own observations. It keeps
the opponent's range, a probability for every set of down cards the opponent may hold (pairs, then
triples once the 7th-street down card is dealt), and at each decision:

1. **Card removal**: holdings that contain a card LBR can see get probability 0.
2. **Bayes' rule** at each opponent action since its last decision: the public history is replayed
   on a :class:`~razz_env.engine.state.HandState` with hypothesised down cards, the opponent's
   observation is built once at its decision and only its down cards are varied per holding (the
   ``own_down`` slice of the encoded vector, and the view's row repeated in a
   :class:`~razz_env.engine.seat_views.SeatViews` with other down cards:
   :meth:`~razz_env.engine.seat_views.SeatViews.with_own_down`), and the target's ``action_probabilities``
   (one :class:`~razz_env.encoding.interface.ObservationBatch` through
   :func:`razz_env.encoding.interface.action_probabilities`, scalar observations for a target that does not
   act in batch, or a network target's
   ``action_probabilities_varied_batch`` on LBR's ``device``) gives each holding's likelihood of the action
   taken. Each distinct observation is asked once per hand: holdings that give the same observation share
   its answer, and answers are kept (a raise's fold query is the opponent's next observation).
3. **Local expected value** of each legal action, in chips relative to LBR's stack now, assuming that
   afterwards both players only check or call to the showdown (``docs/exploitability.md``):

   * fold: 0;
   * a passive action (check, call, bring-in): ``E * pot_final + returned - added``, with ``E`` the
     equity against the range (:func:`~razz_env.engine.equity.range_equity`), ``pot_final`` what
     both have in once each matched the highest contribution (capped by its stack), ``returned``
     chips LBR put in beyond what the opponent could match;
   * an aggressive action (complete, bet, raise, big bet), per holding ``h``: ``f_h * pot + (1 - f_h)
     * (e_h * pot_final + returned - added)``, ``f_h`` the opponent's fold probability from its
     policy on the state after the raise, ``pot`` the chips in before it; the opponent's non-fold
     probability counts as a call (a re-raise is not modelled). The ``f_h`` are asked in rounds, the
     holdings that can move the value most first, until the raise's bounds (all fold, none fold) settle
     the choice: the same choice as asking them all.

   It takes the action of highest value (ties: check/call, bring-in, bet/raise, big bet, fold).
   :meth:`LocalBestResponse.act_batch` does this for many tables at once, their range updates and fold
   queries gathered into one target query per step; each table's choice is the one ``act`` makes alone.

If an opponent action has probability 0 under every holding left (a target whose ``act`` differs
from its stated policy, say), that action is skipped: the range stays as it was before it, and
:attr:`LocalBestResponse.off_policy_actions` counts it. Against an opponent that is not the target (LBR in
a training pool or a tournament), actions the target would not take can leave only holdings that cards
seen later rule out: the range then starts over, uniform over every holding of unseen cards, and
``off_policy_actions`` counts that too; :attr:`LocalBestResponse.target_actions` counts the opponent actions
seen, and :meth:`LocalBestResponse.counters` reports both (a tournament block records them). Any off-policy
action means the opponent did not play the stated policy (one that did never takes an action its policy gives
probability 0 with its cards), so LBR's range, and the bound, are not to be trusted. A target whose stated
policy cannot be read (it raises, or gives no distribution over the legal ids) raises
:class:`TargetPolicyError`: the target's fault, not LBR's. Holdings are sets: the target's policy
must not depend on the order of its down cards (true of every trained and rule agent and of the table
encodings), unless its declaration says ``reads_down_card_order`` (a
:class:`~razz_env.agents.mixture.MixtureAgent`, whose members' earlier decisions saw the first two only): then a
7th-street holding is the first two down cards and the 7th apart (three times as many holdings). Each decision
is a pure function of the seed and the observation (sampling seeds derive from both), so tournament blocks
replay exactly.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np

from razz_env.agents.registry import make_agent, register
from razz_env.encoding.actions import (
    BET_BIG,
    BET_RAISE,
    BRING_IN,
    CHECK_CALL,
    ENGINE_TO_ID,
    FOLD,
    NUM_ACTIONS,
    mask_for,
    to_engine,
)
from razz_env.encoding.encoders import TableEncoder
from razz_env.encoding.interface import (
    Declaration,
    Observation,
    ObservationBatch,
    Observer,
    action_probabilities,
    declaration_of,
    seating_problem,
)
from razz_env.engine.cards import DECK_SIZE
from razz_env.engine.checks import as_flag, as_int
from razz_env.engine.config import HandConfig
from razz_env.engine.equity import DEFAULT_RANGE_MAX_OUTCOMES, check_range_samples, range_equity
from razz_env.engine.seat_views import SeatViews
from razz_env.engine.state import HandState
from razz_env.engine.variants import SEVEN_CARD_GAMES
from razz_env.engine.view import SeatView
from razz_env.engine.view_replay import replay_view

SEATS = 2
PREFERENCE = (CHECK_CALL, BRING_IN, BET_RAISE, BET_BIG, FOLD)
AGGRESSIVE_IDS = (BET_RAISE, BET_BIG)
DEFAULT_SAMPLES = 400
# Exact equity up to this many showdowns: rank draws sample cheaply (razz 5th street is faster sampled),
# card deals do not (stud 6th street is faster exact).
DEFAULT_MAX_OUTCOMES = {"razz": 250_000, "action_razz": 250_000, "stud": DEFAULT_RANGE_MAX_OUTCOMES,
                        "stud8": DEFAULT_RANGE_MAX_OUTCOMES}
MAX_CACHED_HANDS = 4096
FIRST_FOLD_QUERIES = 64
"""Holdings whose fold probability after a raise LBR asks first; each later round asks four times as many."""
MAX_CACHED_ANSWERS = 65536
"""Observations whose answers (per holding) LBR keeps at most; beyond, it forgets them all."""
DEVICES = ("auto", "cpu", "cuda")
DTYPES = ("float32", "float64")
SUIT_FREE = ("razz", "action_razz")
SEVENTH_STREET_UNSEEN = 52 - 7 - 4
"""Cards LBR has not seen on 7th street (its seven, the target's four up cards): the target's range is widest there."""
SUITED_RANGE_SIZE = math.comb(SEVENTH_STREET_UNSEEN, 3)
RANK_RANGE_SIZE = math.comb(13 + 2, 3)
"""Rank multisets of three down cards: a suit-free range's distinct holdings, which is all it samples."""
_TOLERANCE = 1e-9
_PROBABILITY_SLACK = 1e-6
_BOUND_MARGIN = 1e-6
"""Chips of rounding allowed for when a raise's value bounds settle a choice without the target's fold probabilities."""


def _masks(cards: np.ndarray) -> np.ndarray:
    """One int64 bit mask per row of card ids."""
    return np.bitwise_or.reduce(np.left_shift(np.int64(1), cards), axis=1)


def _mask_of(cards: Sequence[int]) -> int:
    out = 0
    for card in cards:
        out |= 1 << card
    return out


@dataclasses.dataclass
class OpponentRange:
    """The opponent's possible down cards (H, k) and their probabilities (summing to 1), with what they saw.

    ``done``: history entries taken into account; ``own`` / ``opponent_up``: LBR's cards and the
    opponent's up cards when they were. ``ordered``: a triple's 7th-street card is its last, apart from the first
    two (a target that reads the order of its down cards), rather than the triple being a set. Updates replace the
    arrays (never change them in place), so a shallow copy is an independent range.
    """

    holdings: np.ndarray
    weights: np.ndarray
    done: int
    history: tuple
    own: tuple[int, ...]
    opponent_up: tuple[int, ...]
    ordered: bool = False

    def remove_cards(self, seen: Sequence[int]) -> bool:
        """Drop the holdings that hold a card now seen; False if that drops them all (the opponent's actions were
        off the target's policy): the range then starts over, uniform over every holding of unseen cards."""
        keep = (_masks(self.holdings) & _mask_of(seen)) == 0
        if keep.all():
            return True
        if keep.any():
            self.holdings, self.weights = self.holdings[keep], self.weights[keep]
            self.weights = self.weights / self.weights.sum()
            return True
        self.holdings = _holdings(seen, self.holdings.shape[1], self.ordered)
        self.weights = np.full(len(self.holdings), 1.0 / len(self.holdings))
        return False

    def add_seventh(self, seen: Sequence[int]) -> None:
        """Pairs to triples: each pair takes every card not seen as its 7th-street down card (equally likely); a set
        of three, or with ``ordered`` the pair then the 7th card."""
        if self.holdings.shape[1] == 3:
            return
        free = np.array([c for c in range(DECK_SIZE) if not (_mask_of(seen) >> c) & 1], dtype=np.int64)
        pairs = np.repeat(self.holdings, len(free), axis=0)
        thirds = np.tile(free, len(self.holdings))
        apart = (pairs != thirds[:, None]).all(axis=1)
        triples = np.column_stack([pairs, thirds])[apart]
        if not self.ordered:
            triples = np.sort(triples, axis=1)
        codes = (triples[:, 0] * DECK_SIZE + triples[:, 1]) * DECK_SIZE + triples[:, 2]
        unique, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        weights = np.bincount(inverse.ravel(), weights=np.repeat(self.weights, len(free))[apart], minlength=len(unique))
        self.holdings, self.weights = triples[first], weights / weights.sum()

    def update(self, likelihood: np.ndarray) -> bool:
        """Bayes' rule with each holding's probability of the action seen; False (nothing changed) if all are 0."""
        posterior = self.weights * likelihood
        total = posterior.sum()
        if not total > 0:
            return False
        keep = posterior > 0
        self.holdings, self.weights = self.holdings[keep], posterior[keep] / total
        return True


@dataclasses.dataclass
class _Decision:
    """One opponent decision to learn from: its observation template (mask, view, vector) and the id taken."""

    street: int
    mask: np.ndarray
    view: SeatView | None
    vector: np.ndarray | None
    taken: int


@dataclasses.dataclass
class _ObservationWork:
    """LBR's work on one observation: the view, the replayed hand now, the range and what is still to learn."""

    view: SeatView
    hand: HandState
    state: OpponentRange
    pending: list[_Decision]


@dataclasses.dataclass
class _Raise:
    """A raise being valued: its fold query, LBR's showdown value per holding if called, and the fold probabilities
    asked so far (NaN where not yet), in the order they are asked (the holdings that can move the value most first)."""

    action: int
    decision: _Decision
    showdown: np.ndarray
    order: np.ndarray
    fold: np.ndarray
    asked: int = 0

    def bounds(self, weights: np.ndarray, pot: int) -> tuple[float, float]:
        """The raise's value if each holding not yet asked folds or calls, whichever is worse, and whichever better."""
        known = ~np.isnan(self.fold)
        swing = weights * (pot - self.showdown)
        value = float(weights @ self.showdown + swing[known] @ self.fold[known])
        rest = swing[~known]
        return value + float(rest[rest < 0].sum()), value + float(rest[rest > 0].sum())


@dataclasses.dataclass
class _Spot:
    """One LBR decision being valued: the values known, the raises still to value, the pot before LBR acts, its
    range's weights and the choice once settled."""

    values: dict[int, float]
    raises: list[_Raise]
    pot: int
    weights: np.ndarray
    settled: int | None = None

    def settle(self) -> None:
        """Settle the choice if the raises' bounds make it, or once every raise's fold probabilities are in."""
        if all(r.asked == len(r.order) for r in self.raises):
            values = dict(self.values)
            for r in self.raises:
                values[r.action] = float(self.weights @ (r.fold * self.pot + (1 - r.fold) * r.showdown))
            self.settled = _preferred(values)
            return
        self.settled = _settled(self.values, {r.action: r.bounds(self.weights, self.pot) for r in self.raises})


class TargetPolicyError(ValueError):
    """The target's stated policy could not be read (it raised, or is no distribution over the legal ids).

    ``target_fault`` tells a tournament to blame the target, not LBR, for the failed block.
    """

    target_fault = True


@register("lbr")
class LocalBestResponse:
    """Local best response to ``target`` (an agent name or spec); see the module docstring.

    The stakes (``stacks``, ``ante``, ``bring_in``, ``small_bet``, ``big_bet``,
    ``raise_cap``) must be the table's: LBR replays the hand to build the target's observations
    and refuses a table whose chips differ. ``samples`` and ``max_outcomes`` go to
    :func:`~razz_env.engine.equity.range_equity` (exact when at most ``max_outcomes`` showdowns; by
    default :data:`DEFAULT_MAX_OUTCOMES` of the variant, the faster choice per street).
    ``suit_blind`` (razz and Action Razz): ask the target once per rank multiset of down cards (one
    holding stands for all with its ranks), up to 12 times fewer queries on pairs and 23 on triples:
    exact for a target whose policy ignores suits (as razz is played), an approximation otherwise.
    LBR plays the seven-card games its target plays (its declaration's ``variants``, from
    :data:`~razz_env.engine.variants.SEVEN_CARD_GAMES`); MiniRazz is small enough for an exact best response
    instead. It reads the view, plays heads-up, acts in batch and states no policy.
    ``device`` (``"auto"``: CUDA when torch sees a GPU, else the CPU) and ``dtype`` say where and in what precision
    a network target answers LBR's queries (through its ``action_probabilities_varied_batch``); other targets
    answer as they always do.
    """

    def __init__(self, target: str | Mapping[str, Any], *, stacks: int = 1000, ante: int = 1,
                 bring_in: int = 2, small_bet: int = 5, big_bet: int = 10, raise_cap: int | None = 4,
                 samples: int = DEFAULT_SAMPLES, max_outcomes: int | None = None, suit_blind: bool = False,
                 seed: int | None = None, device: str = "auto", dtype: str = "float32",
                 name: str = "lbr") -> None:
        self.name = name
        self.target = make_agent(target, seed=seed)
        declared = declaration_of(self.target)
        if not declared.states_policy:
            raise ValueError(f"target {self.target.name!r} states no policy (no action_probabilities); a local "
                             f"best response needs the opponent's policy")
        plays = declared.variants
        variants = tuple(v for v in SEVEN_CARD_GAMES if plays is None or v in plays)
        if not variants:
            raise ValueError(f"target {self.target.name!r} plays {' or '.join(plays)}; LBR plays the seven-card "
                             f"games only ({', '.join(SEVEN_CARD_GAMES)}): its ranges are sets of down cards from 52")
        self.declaration = Declaration(variants=variants, seat_counts=(SEATS,), acts_in_batch=True)
        self._target_acts_in_batch = declared.acts_in_batch
        self._ordered = declared.reads_down_card_order
        self.stakes = {"stacks": stacks, "ante": ante, "bring_in": bring_in, "small_bet": small_bet,
                       "big_bet": big_bet, "raise_cap": raise_cap}
        worst = max(RANK_RANGE_SIZE if v in SUIT_FREE else SUITED_RANGE_SIZE for v in variants)
        check_range_samples(samples, worst, SEVENTH_STREET_UNSEEN)
        if max_outcomes is not None:
            as_int("max_outcomes", max_outcomes, 1, what="an integer or None (the variant's default)")
        as_flag("suit_blind", suit_blind)
        if device not in DEVICES or dtype not in DTYPES:
            raise ValueError(f"device, dtype: expected one of {', '.join(DEVICES)} and one of {', '.join(DTYPES)}, "
                             f"got {device!r} and {dtype!r}")
        self.samples = samples
        self.max_outcomes = max_outcomes
        self.suit_blind = suit_blind
        self.seed = 0 if seed is None else seed
        self.off_policy_actions = 0
        self.target_actions = 0
        self.observations_asked = 0
        self.device, self.dtype = _device(device), dtype
        self._memo: dict[Any, tuple[np.ndarray, np.ndarray]] = {}
        self._variant = ""
        self._config = self._observer = None
        self._setup(variants[0])
        self._ranges: dict[tuple, OpponentRange] = {}

    def _setup(self, variant: str) -> None:
        """The hand config and the target's observer for ``variant`` (refusing encoders LBR cannot vary)."""
        if variant == self._variant:
            return
        if self.suit_blind and variant not in SUIT_FREE:
            raise ValueError(f"suit_blind: suits matter in {variant}; it is for {' and '.join(SUIT_FREE)} only")
        config = HandConfig.create(variant, num_seats=SEATS, **self.stakes)
        observer = Observer(self.target, config)
        if observer.encoder is not None and not isinstance(observer.encoder, TableEncoder):
            raise ValueError(f"target's encoding {observer.encoder!r} is not a table encoding: LBR varies the "
                             f"own_down slice of a TableEncoder vector")
        self._variant, self._config, self._observer = variant, config, observer

    def max_outcomes_for(self, variant: str) -> int:
        """The exact-equity limit used in ``variant``: ``max_outcomes``, else the variant's default."""
        return self.max_outcomes if self.max_outcomes is not None else DEFAULT_MAX_OUTCOMES[variant]

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Check the table (heads-up, a variant the target plays); forget the ranges of earlier hands."""
        problem = seating_problem(self, variant, num_seats)
        if problem is not None:
            raise ValueError(problem)
        self._setup(variant)
        self.target.reset(1 - seat, num_seats, variant)
        self._ranges.clear()
        self._memo.clear()

    def act(self, observation: Observation) -> int:
        """The action of highest local expected value."""
        return self.act_batch([observation])[0]

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """Decisions for many tables: the range updates, then every table's fold queries, one batched policy query
        per step (each holding's observation asked once), and the local values as array code per table."""
        observations = ObservationBatch.of(observations)
        decisions = [int(np.flatnonzero(mask)[0]) for mask in observations.masks]
        choices = np.flatnonzero(observations.masks.sum(axis=1) > 1)
        tables = [self._table(observations[int(index)].view) for index in choices]
        self._learn(tables)
        for index, decision in zip(choices, self._choose(tables, [observations.masks[i] for i in choices])):
            decisions[index] = decision
        return decisions

    def counters(self) -> dict[str, int]:
        """The opponent's actions seen and those off the target's stated policy (tournament blocks record them)."""
        return {"target_actions": self.target_actions, "off_policy_actions": self.off_policy_actions}

    def opponent_range(self, observation: Observation) -> tuple[np.ndarray, np.ndarray]:
        """The opponent's range at this observation: holdings (H, k) of card ids and their probabilities."""
        table = self._table(observation.view)
        self._learn([table])
        return table.state.holdings.copy(), table.state.weights.copy()

    # ------------------------------------------------------------------ the range

    def _table(self, view: SeatView) -> _ObservationWork:
        """The replayed hand for ``view`` and its range, carried on from this hand's last decision when cached."""
        if view.num_seats != SEATS:
            raise ValueError(f"LBR plays heads-up; this table has {view.num_seats} seats")
        own = view.own_down + view.own_up
        up = view.up_cards[1 - view.seat]
        key = (view.seat, view.own_down[:2], view.own_up[:1], up[:1])
        cached = self._ranges.get(key)
        if cached is not None and _extends(cached, view, own, up):
            state = dataclasses.replace(cached)
        else:
            holdings = _holdings(own + up)
            state = OpponentRange(holdings, np.full(len(holdings), 1.0 / len(holdings)), 0, (), (), (),
                                  self._ordered)
        if len(self._ranges) >= MAX_CACHED_HANDS:
            self._ranges.clear()
        self._ranges[key] = state
        if not state.remove_cards(own + up):
            self.off_policy_actions += 1
        pending: list[_Decision] = []
        hand = self._replay(view, record_from=state.done, into=pending)
        state.done, state.history, state.own, state.opponent_up = len(view.history), view.history, own, up
        return _ObservationWork(view, hand, state, pending)

    def _replay(self, view: SeatView, record_from: int | None = None,
                into: list[_Decision] | None = None) -> HandState:
        """The public history of ``view`` replayed with stand-in opponent down cards.

        With ``into``, each opponent decision from history entry ``record_from`` on is recorded there.
        """
        opponent, observer = 1 - view.seat, self._observer

        def record(number: int, hand: HandState) -> None:
            entry = view.history[number]
            if into is None or entry.seat != opponent or number < record_from:
                return
            mask = mask_for(hand.legal_actions())
            taken = ENGINE_TO_ID[entry.action]
            if mask.sum() > 1 or not mask[taken]:
                into.append(_Decision(entry.street, mask, hand.view(opponent) if observer.view else None,
                                      observer.encoder.encode(hand, opponent) if observer.encoder else None, taken))

        try:
            return replay_view(view, self._config, record)
        except ValueError as err:
            raise ValueError(f"LBR's replay: {err}; give lbr the table's stakes") from None

    def _learn(self, tables: list[_ObservationWork]) -> None:
        """Bayes' rule for every table's pending opponent decisions, one batched policy query per round."""
        rounds = max((len(t.pending) for t in tables), default=0)
        for step in range(rounds):
            asked = []
            for table in tables:
                if step >= len(table.pending):
                    continue
                decision = table.pending[step]
                self.target_actions += 1
                if not decision.mask[decision.taken]:  # an id its mask forbids: no policy gives it weight
                    self.off_policy_actions += 1
                    continue
                if decision.street == 7:
                    table.state.add_seventh(_visible(table.view))
                asked.append((table, decision))
            probabilities = self._ask([(d, t.state.holdings, 1 - t.view.seat) for t, d in asked])
            for (table, decision), rows in zip(asked, probabilities):
                if not table.state.update(rows[:, decision.taken]):
                    self.off_policy_actions += 1
        for table in tables:
            if table.view.street == 7:
                table.state.add_seventh(_visible(table.view))

    def _ask(self, queries: list[tuple[_Decision, np.ndarray, int]]) -> list[np.ndarray]:
        """The target's probabilities (H, 5) for each query's holdings at its decision, in one call.

        Each distinct observation is asked once: holdings that give the target the same observation (with
        ``suit_blind``, the same rank multiset) share its answer, and answers are kept for the hand (a raise's
        fold query is the observation of the opponent's next decision). A target that reads neither view nor
        vector is asked once per decision.
        """
        keys: list[tuple[Any, np.ndarray]] = []
        needed: dict[Any, tuple[_Decision, int, list[np.ndarray], list[np.ndarray]]] = {}
        for number, (decision, holdings, seat) in enumerate(queries):
            if decision.view is None and decision.vector is None:
                key, codes = number, np.zeros(len(holdings), dtype=np.int64)
                missing = np.arange(len(holdings)) < 1
            else:
                key = (seat, decision.mask.tobytes(), _template(decision, self._observer.encoder))
                codes = self._codes(holdings)
                known = self._memo.get(key)
                missing = np.ones(len(codes), dtype=bool) if known is None else ~_found(known[0], codes)
            keys.append((key, codes))
            if missing.any():
                pooled = needed.setdefault(key, (decision, seat, [], []))
                pooled[2].append(holdings[missing])
                pooled[3].append(codes[missing])
        asked = []
        for decision, seat, holdings, codes in needed.values():
            unique, first = np.unique(np.concatenate(codes), return_index=True)
            asked.append((decision, np.concatenate(holdings)[first], seat, unique))
        for key, (_, _, _, codes), rows in zip(needed, asked, self._query(asked)):
            known = self._memo.get(key)
            if known is not None:
                codes, rows = np.concatenate([known[0], codes]), np.concatenate([known[1], rows])
            order = np.argsort(codes, kind="stable")
            self._memo[key] = (codes[order], rows[order])
        out = [self._memo[key][1][np.searchsorted(self._memo[key][0], codes)] for key, codes in keys]
        for key, _ in keys:
            if isinstance(key, int):
                del self._memo[key]
        if len(self._memo) > MAX_CACHED_ANSWERS:
            self._memo.clear()
        return out

    def _codes(self, holdings: np.ndarray) -> np.ndarray:
        """One int64 per holding, equal for holdings the target cannot tell apart (with ``suit_blind``: ranks)."""
        cards = holdings >> 2 if self.suit_blind else holdings
        if self._ordered:  # the first two down cards a set, the 7th apart
            cards = np.column_stack([np.sort(cards[:, :2], axis=1), cards[:, 2:]])
        else:
            cards = np.sort(cards, axis=1)
        return cards @ (DECK_SIZE ** np.arange(cards.shape[1], dtype=np.int64))

    def _query(self, asked: list[tuple[_Decision, np.ndarray, int, np.ndarray]]) -> list[np.ndarray]:
        """The target's probabilities for each (decision, holdings) in one call: its varied fast path when it
        has one and reads the vector only, else its batched policy on each holding's observation."""
        if not asked:
            return []
        self.observations_asked += sum(len(holdings) for _, holdings, _, _ in asked)
        varied = getattr(self.target, "action_probabilities_varied_batch", None)
        if varied is not None and all(d.view is None and d.vector is not None for d, _, _, _ in asked):
            return self._ask_varied(varied, asked)
        observations = self._observations(asked)
        try:
            probabilities = action_probabilities(self.target, observations)
        except Exception as err:  # noqa: BLE001 - whatever the target's policy raises is the target's fault
            raise TargetPolicyError(f"target {self.target.name!r}: action_probabilities raised "
                                    f"{type(err).__name__}: {err}") from err
        _check_policy(probabilities, np.concatenate([np.broadcast_to(d.mask, (len(h), NUM_ACTIONS))
                                                     for d, h, _, _ in asked]), self.target)
        return np.split(probabilities, np.cumsum([len(h) for _, h, _, _ in asked])[:-1])

    def _ask_varied(self, varied: Any, asked: list[tuple[_Decision, np.ndarray, int, np.ndarray]]) -> list[np.ndarray]:
        """The target's probabilities through its ``action_probabilities_varied_batch``: one base vector per decision
        with the own-down slice cleared, and each holding's down-card columns, on LBR's device (one call per number
        of down cards: pairs and triples)."""
        encoder = self._observer.encoder
        down = encoder.layout.slices["own_down"]
        out: list[np.ndarray] = [np.zeros((0, NUM_ACTIONS))] * len(asked)
        for width in sorted({h.shape[1] for _, h, _, _ in asked}):
            group = [i for i, (_, h, _, _) in enumerate(asked) if h.shape[1] == width]
            bases = np.stack([asked[i][0].vector for i in group])
            bases[:, down] = 0.0
            masks = np.stack([asked[i][0].mask for i in group])
            sizes = [len(asked[i][1]) for i in group]
            columns = down.start + np.asarray(encoder.card_index)[np.concatenate([asked[i][1] for i in group])]
            rows = np.repeat(np.arange(len(group)), sizes)
            try:
                probabilities = np.asarray(varied(bases, masks, columns, rows, device=self.device, dtype=self.dtype),
                                           dtype=np.float64)
            except Exception as err:  # noqa: BLE001 - whatever the target's policy raises is the target's fault
                raise TargetPolicyError(f"target {self.target.name!r}: action_probabilities_varied_batch raised "
                                        f"{type(err).__name__}: {err}") from err
            _check_policy(probabilities, masks[rows], self.target)
            for i, part in zip(group, np.split(probabilities, np.cumsum(sizes)[:-1])):
                out[i] = part
        return out

    def _observations(self, asked: list[tuple[_Decision, np.ndarray, int, np.ndarray]]) -> Sequence[Observation]:
        """The target's observation at each query's decision for each of its holdings, one per holding in order:
        each decision's view and vector repeated, only the down cards differing. A target that acts in batch gets
        one :class:`ObservationBatch` (its views a :class:`SeatViews`); any other a list of scalar observations
        (a scalar view per holding costs several times less than reading one back from a batch row)."""
        sizes = [len(h) for _, h, _, _ in asked]
        rows = np.repeat(np.arange(len(asked)), sizes)
        width = max(h.shape[1] for _, h, _, _ in asked)
        down = np.concatenate([np.pad(h, ((0, 0), (0, width - h.shape[1])), constant_values=-1)
                               for _, h, _, _ in asked])
        decisions = [d for d, _, _, _ in asked]
        seats = np.repeat([seat for _, _, seat, _ in asked], sizes)
        masks = np.stack([d.mask for d in decisions])[rows]
        vectors = None
        if decisions[0].vector is not None:
            vectors = np.stack([d.vector for d in decisions])[rows]
            self._observer.encoder.write_own_down(vectors, down)
        if not self._target_acts_in_batch:
            views = [None if d.view is None else _with_down(d.view, tuple(h)) for d, held, _, _ in asked
                     for h in held.tolist()]
            return [Observation(seat, mask, view, None if vectors is None else vectors[i])
                    for i, (seat, mask, view) in enumerate(zip(seats.tolist(), masks, views))]
        views = None
        if decisions[0].view is not None:
            views = SeatViews.from_views([d.view for d in decisions]).with_own_down(rows, down)
        return ObservationBatch(seats, masks, views, vectors)

    # ------------------------------------------------------------------ the decision

    def _choose(self, tables: list[_ObservationWork], masks: list[np.ndarray]) -> list[int]:
        """Each table's legal id of highest local expected value (see the module docstring).

        A raise's value needs the opponent's fold probability per holding; they are asked in rounds, for every
        table at once, the holdings that can move the value most first (:data:`FIRST_FOLD_QUERIES`, then four
        times as many each round), until the raises' bounds settle the choice or every holding is in.
        """
        spots = [self._spot(table, mask) for table, mask in zip(tables, masks)]
        size = FIRST_FOLD_QUERIES
        while True:
            asking = [(spot, r, r.order[r.asked:r.asked + size], 1 - table.view.seat, table.state.holdings)
                      for table, spot in zip(tables, spots) if spot.settled is None
                      for r in spot.raises if r.asked < len(r.order)]
            if not asking:
                break
            answers = self._ask([(r.decision, holdings[rows], seat) for _, r, rows, seat, holdings in asking])
            for (_, r, rows, _, _), answer in zip(asking, answers):
                r.fold[rows] = answer[:, FOLD]
                r.asked += len(rows)
            for spot in {id(spot): spot for spot, _, _, _, _ in asking}.values():
                spot.settle()
            size *= 4
        return [_preferred(spot.values, spot.settled) for spot in spots]

    def _spot(self, table: _ObservationWork, mask: np.ndarray) -> _Spot:
        """The values known without the target (passive actions, raises the opponent cannot answer), and the raises
        still to value with its fold probabilities: none when their bounds already settle the choice."""
        view, state = table.view, table.state
        opponent = 1 - view.seat
        legal = [int(i) for i in np.flatnonzero(mask)]
        result = range_equity(view.own_down + view.own_up, view.up_cards[opponent], state.holdings, state.weights,
                              view.variant, method="auto", max_outcomes=self.max_outcomes_for(view.variant),
                              samples=self.samples, seed=self._decision_seed(view))
        pot, mine = table.hand.pot, table.hand.contributed[view.seat]
        values: dict[int, float] = {}
        for action in legal:
            if action == FOLD:
                values[action] = 0.0
            elif action not in AGGRESSIVE_IDS:
                added = table.hand.to_call if action == CHECK_CALL else min(self._config.stakes.bring_in,
                                                                            view.stacks[view.seat])
                contributed, stacks = list(view.contributed), list(view.stacks)
                contributed[view.seat] += added
                stacks[view.seat] -= added
                values[action] = float(_showdown_value(contributed, stacks, view.seat, mine, result.equity))
        spot = _Spot(values, [], pot, state.weights)
        for action in (a for a in legal if a in AGGRESSIVE_IDS):
            after = self._after(table, action)
            showdown = np.asarray(_showdown_value(after.contributed, after.stacks, view.seat, mine,
                                                  result.per_holding), dtype=np.float64)
            if after.actor != opponent:
                values[action] = float(state.weights @ showdown)
                continue
            observer = self._observer
            decision = _Decision(after.street, mask_for(after.legal_actions()),
                                 after.view(opponent) if observer.view else None,
                                 observer.encoder.encode(after, opponent) if observer.encoder else None, FOLD)
            order = np.argsort(-np.abs(state.weights * (pot - showdown)), kind="stable")
            spot.raises.append(_Raise(action, decision, showdown, order, np.full(len(showdown), np.nan)))
        if spot.raises:
            spot.settle()
        return spot

    def _after(self, table: _ObservationWork, action: int) -> HandState:
        """The hand after LBR's ``action`` (replayed again: cheaper than copying a hand state)."""
        hand = self._replay(table.view)
        hand.act(to_engine(action, hand.legal_actions()))
        return hand

    def _decision_seed(self, view: SeatView) -> int:
        """A sampling seed from the base seed and what this seat sees now (the same observation, the same seed)."""
        entropy = [self.seed & 0xFFFFFFFF, view.seat, len(view.history), *view.own_down, *view.own_up,
                   *view.up_cards[1 - view.seat]]
        return int(np.random.SeedSequence(entropy).generate_state(1)[0])


def _device(device: str) -> str:
    """``device``, with ``"auto"`` resolved: CUDA when torch is loaded and sees a GPU, else the CPU; ``"cuda"``
    without a GPU is refused (``ValueError``) before any hand, not blamed on the target at the first query."""
    if device == "auto":
        torch = sys.modules.get("torch")
        return "cuda" if torch is not None and torch.cuda.is_available() else "cpu"
    if device == "cuda" and not _cuda_available():
        raise ValueError("device: 'cuda', but torch sees no GPU here; use 'auto' or 'cpu'")
    return device


def _cuda_available() -> bool:
    """Whether torch is installed and sees a GPU."""
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def _preferred(values: Mapping[int, float], settled: int | None = None) -> int:
    """``settled`` if given, else the id of highest value (ties broken by :data:`PREFERENCE`)."""
    if settled is not None:
        return settled
    best = max(values.values())
    return next(a for a in PREFERENCE if a in values and values[a] >= best - _TOLERANCE)


def _settled(values: Mapping[int, float], bounds: Mapping[int, tuple[float, float]]) -> int | None:
    """The choice when the raises' value bounds (all fold, none fold) already make it, else None.

    Every raise below the best known value (by more than the tie tolerance and a rounding margin) is never
    chosen; a lone raise above every known value is. Otherwise the fold probabilities are needed.
    """
    if not bounds or not values:
        return None
    best = max(values.values())
    if all(high < best - _TOLERANCE - _BOUND_MARGIN for _, high in bounds.values()):
        return _preferred(values)
    if len(bounds) == 1:
        action, (low, _) = next(iter(bounds.items()))
        if low > best + _TOLERANCE + _BOUND_MARGIN:
            return action
    return None


def _template(decision: _Decision, encoder: TableEncoder | None) -> Any:
    """What the target sees at ``decision`` but the down cards: the key its answers are kept under."""
    if decision.vector is not None:
        vector = decision.vector.copy()
        vector[encoder.layout.slices["own_down"]] = 0.0
        return vector.tobytes(), None if decision.view is None else _with_down(decision.view, ())
    return None, _with_down(decision.view, ())


def _found(known: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Which of ``codes`` are in the sorted ``known``."""
    at = np.minimum(np.searchsorted(known, codes), len(known) - 1)
    return known[at] == codes


_VIEW_FIELDS = SeatView.__slots__


def _with_down(view: SeatView, down: tuple[int, ...]) -> SeatView:
    """``view`` with ``own_down`` replaced: ``dataclasses.replace`` without its per-call checks, for many holdings."""
    out = object.__new__(SeatView)
    for field in _VIEW_FIELDS:
        object.__setattr__(out, field, getattr(view, field))
    object.__setattr__(out, "own_down", down)
    return out


def _visible(view: SeatView) -> tuple[int, ...]:
    """Every card the seat of ``view`` can see: its own and the opponent's up cards."""
    return view.own_down + view.own_up + view.up_cards[1 - view.seat]


def _holdings(seen: Sequence[int], size: int = 2, ordered: bool = False) -> np.ndarray:
    """Every set of ``size`` cards not in ``seen``, shape (H, size); with ``ordered``, triples as a pair and a third
    card apart (three times as many)."""
    free = [c for c in range(DECK_SIZE) if c not in set(seen)]
    if ordered and size == 3:
        return np.array([(*pair, third) for pair in combinations(free, 2) for third in free if third not in pair],
                        dtype=np.int64)
    return np.array(list(combinations(free, size)), dtype=np.int64)


def _extends(state: OpponentRange, view: SeatView, own: tuple[int, ...], up: tuple[int, ...]) -> bool:
    """Whether ``view`` carries on from what ``state`` took into account: its history, cards and up cards so far."""
    return (view.history[:state.done] == state.history and up[:len(state.opponent_up)] == state.opponent_up
            and set(state.own) <= set(own))


def _showdown_value(contributed: Sequence[int], stacks: Sequence[int], seat: int, before: int,
                    equity: np.ndarray | float) -> np.ndarray | float:
    """LBR's chips won from now, per equity, if both only check or call to the showdown from these chips.

    Each player matches the highest contribution as far as its stack allows; LBR wins ``equity`` of
    the matched pot and gets back what it put in beyond what the opponent matched. ``before``: LBR's
    contribution before its decision.
    """
    top = max(contributed)
    mine = min(top, contributed[seat] + stacks[seat])
    theirs = min(top, contributed[1 - seat] + stacks[1 - seat])
    return equity * 2 * min(mine, theirs) + max(0, mine - theirs) - (mine - before)


def _check_policy(probabilities: np.ndarray, masks: np.ndarray, target: Any) -> None:
    """Refuse probabilities that are not distributions over the legal ids (naming the target)."""
    bad = ~np.isfinite(probabilities).all(axis=1) | (probabilities < -_PROBABILITY_SLACK).any(axis=1)
    bad |= np.abs(probabilities.sum(axis=1) - 1) > _PROBABILITY_SLACK
    bad |= (probabilities * (masks == 0) > _PROBABILITY_SLACK).any(axis=1)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise TargetPolicyError(f"target {target.name!r}: action_probabilities gave "
                         f"{np.round(probabilities[row], 6).tolist()} for mask {masks[row].tolist()}: not a "
                         f"distribution over the legal ids")
