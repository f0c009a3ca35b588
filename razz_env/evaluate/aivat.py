"""AIVAT: an unbiased, lower-variance payoff per seat for each finished hand (Burch et al., 2018).

A hand's payoff is the sum of its luck and its skill; AIVAT subtracts, at every card dealt and at every
decision of an agent whose policy is known, the part of the payoff that event brought in beyond what was
expected of it:

    corrected_i = payoff_i - sum over events of (V_i(after the event) - E[V_i(after the event)])

where the expectation of a card is over every card that could have come (uniform over the cards not yet
dealt: the evaluator knows every card dealt so far, down cards included, and nothing later) and that of a
decision is over the acting agent's stated policy. Each term has mean zero whatever ``V`` is, so the
corrected payoff is unbiased for any fixed ``V``; a ``V`` close to the expected payoff only makes it vary
less. ``V`` is fixed before any data, and its :meth:`ShowdownShare.stamp` (name and version) goes into the
results it produces, so nobody can tune it toward a conclusion.

Events, in the order the engine deals and acts: each first-street card (slot order: position, then seat),
each decision, each later card (position, then seat) and a community card. A decision with no stated
policy (``None``) gets no correction; with no policy at all only the chance corrections are applied. The
value after a decision is the value with the action's chips in the pot (a fold takes the seat out of it),
before any card it leads to.

A harness calls :func:`aivat` once per finished hand with, per entry of ``hand.history``, the
``action_probabilities`` of the acting agent where it declares ``states_policy`` (else None), and stamps its
results with ``SHOWDOWN_SHARE.stamp()``; :func:`aivat_many` does a list of hands. :func:`aivat_terms` lists
every event's term, for diagnostics and tests. Cost: about 0.4 to 0.9 ms of CPU a heads-up razz hand here
(``benchmarks/bench_aivat.py``), a few times the scalar engine's play and far more than the batched engine's.

>>> from razz_env.engine.config import HandConfig
>>> from razz_env.engine.state import HandState
>>> hand = HandState(HandConfig.create("razz", num_seats=2), seed=3)
>>> while not hand.is_over:
...     _ = hand.act(hand.legal_actions()[-1] if hand.street == 3 else hand.legal_actions()[1])
>>> result = aivat(hand)
>>> bool(abs(result.corrected.sum()) < 1e-9), result.value  # zero-sum, like the payoffs
(True, 'showdown_share v1')
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import filterfalse
from typing import Any, NamedTuple

import numpy as np

from razz_env.encoding.actions import ENGINE_TO_ID, NUM_ACTIONS
from razz_env.engine import showdown_core
from razz_env.engine.actions import Action
from razz_env.engine.hand_value import RANK_KEY, evaluator, stud_high
from razz_env.engine.state import HandState
from razz_env.engine.variants import Variant

CHANCE, DECISION = "chance", "decision"
Stated = Sequence[float] | np.ndarray
"""A stated policy: probabilities over the five action ids of :mod:`razz_env.encoding.actions`."""
POLICY_TOLERANCE = 1e-6
"""How far a stated policy may stray from summing to 1 (or from 0 on an action that is not legal)."""
_NUM_RANKS = 13
_RANK_OF = tuple(card >> 2 for card in range(52))


class _RankValues(dict):
    """``kind`` values of the best ``size``-card hand by additive rank key (suits play no part), worked out on
    first use."""

    def __init__(self, kind: str, size: int) -> None:
        super().__init__()
        self.kind, self.size = kind, size

    def __missing__(self, key: int) -> int:
        cards = [rank * 4 + suit for rank in range(_NUM_RANKS) for suit in range((key >> 3 * rank) & 7)]
        if self.kind == "high":
            value = int(showdown_core.hand_value(cards, showdown_core.K_HIGH, self.size)[0])
        else:
            value = evaluator(self.kind, self.size)(cards)
        self[key] = value
        return value


@functools.cache
def _rank_values(kind: str, size: int) -> _RankValues:
    """The one table of ``kind`` values of ``size``-card hands by rank key."""
    return _RankValues(kind, size)


def _rank_only(halves: Sequence[str], size: int) -> bool:
    """Whether every half values ``size``-card hands by their ranks alone (stud high's five-card hands see suits)."""
    return size < 5 or "high" not in halves


def hand_value(kind: str, size: int, cards: Sequence[int]) -> int:
    """``kind`` value (higher better) of the best ``size``-card hand of ``cards`` (at least ``size``): the
    engine's evaluators, and for stud high under five cards pairs, trips and quads by rank (no straights or
    flushes in fewer than five cards)."""
    if kind == "high" and size == 5:
        return stud_high(cards)
    key = 0
    for card in cards:
        key += RANK_KEY[card]
    return _rank_values(kind, size)[key]


@functools.cache
def _kind_codes(halves: tuple[str, ...]) -> tuple[int, ...]:
    """The showdown core's codes of a variant's halves, looked up once per variant (every dealt card splits pots)."""
    return tuple(showdown_core.KIND_CODES[half] for half in halves)


def _split(values: Sequence[Sequence[int]], halves: tuple[str, ...], live: Sequence[int], seats: int) -> list[float]:
    """Pot shares per seat when the live seats show down hands of these values (per half, per live seat):
    :func:`~razz_env.engine.showdown_core.pot_shares`."""
    by_seat = [[0] * seats for _ in halves]
    for row, scores in zip(by_seat, values):
        for seat, score in zip(live, scores):
            row[seat] = score
    out = [0.0] * seats
    showdown_core.pot_shares(by_seat, _kind_codes(halves), live, len(live), out, [[0] * seats for _ in halves])
    return out


@dataclass(frozen=True)
class ShowdownShare:
    """The value function: ``V_i = share_i * pot - contributed_i``, where ``share_i`` is seat i's share of the
    whole pot were the live seats to show down now on the cards they hold.

    Every live seat is valued on its best hand of ``m`` cards, ``m`` the fewest cards a live seat holds
    (the community card counted) capped at the variant's showdown hand size, so a card dealt before the
    others' of its street still counts; a seat that is alone live takes the pot, and before every live seat
    holds a card they split it. Ties split; stud8 gives half to the best high and half to the best
    qualifying low (all to the high when no low qualifies). Exact once every card is dealt (one pot, no side
    pots); a cheap, fixed estimate before. Version 1: bump it whenever any of this changes.
    """

    name: str = "showdown_share"
    version: int = 1

    def stamp(self) -> dict[str, Any]:
        """The name and version that go into a results stamp."""
        return {"name": self.name, "version": self.version}

    def shares(self, variant: Variant, hands: Sequence[Sequence[int] | None]) -> list[float]:
        """Each seat's pot share: ``hands[i]`` is live seat i's cards (the community card included), None for a
        folded seat."""
        live = [seat for seat, held in enumerate(hands) if held is not None]
        if len(live) == 1:
            return [1.0 if seat == live[0] else 0.0 for seat in range(len(hands))]
        fewest = min(len(hands[seat]) for seat in live)
        if fewest == 0:
            return [1.0 / len(live) if held is not None else 0.0 for held in hands]
        size = min(fewest, variant.hand_size)
        halves = variant.showdown
        values = [[hand_value(half, size, hands[seat]) for seat in live] for half in halves]
        return _split(values, halves, live, len(hands))

    def deal_shares(self, variant: Variant, hands: Sequence[Sequence[int] | None], seat: int,
                    outcomes: Sequence[int], taken: int) -> tuple[list[float], list[float]]:
        """The shares once ``taken`` is dealt to live ``seat`` (-1: as the community card, to every live seat),
        and their mean over ``outcomes`` (each card that could have come, equally likely): :meth:`shares`
        grouped by what the outcome changes (the dealt seat's value against the others' best)."""
        live = [other for other, held in enumerate(hands) if held is not None]
        if seat < 0:
            return self._mean_shares(variant, hands, seat, outcomes, taken)
        fewest = min(len(hands[other]) + (other == seat) for other in live)
        if len(live) == 1 or fewest == 0:  # the shares do not depend on the card
            shares = self.shares(variant, [None if held is None else [*held, taken] if other == seat else held
                                           for other, held in enumerate(hands)])
            return shares, shares
        size = min(fewest, variant.hand_size)
        halves = variant.showdown
        others = [[hand_value(half, size, hands[other]) for other in live if other != seat] for half in halves]
        bests = [max(values) for values in others]
        held = hands[seat]
        by_rank = _rank_only(halves, size)
        # outcomes that give the dealt seat one value: by rank where suits play no part
        groups = Counter(map(_RANK_OF.__getitem__, outcomes)) if by_rank else dict.fromkeys(outcomes, 1)
        chosen = taken >> 2 if by_rank else taken
        cases: dict[tuple[int, ...], list] = {}  # what decides the split: the seat's value against the others' best
        if by_rank and len(halves) == 1 and halves[0] != "eight":
            table, best = _rank_values(halves[0], size), bests[0]
            key = 0
            for card in held:
                key += RANK_KEY[card]
            for group, count in groups.items():
                value = table[key + RANK_KEY[group * 4]]
                case = ((value > best) - (value < best),)
                entry = cases.get(case)
                if entry is None:
                    entry = cases[case] = [0, [value]]
                entry[0] += count
                if group == chosen:
                    taken_case = case
        else:
            for group, count in groups.items():
                mine = [hand_value(half, size, [*held, group * 4 if by_rank else group]) for half in halves]
                case = tuple([(v > b) - (v < b) + 3 * (v > 0) for v, b in zip(mine, bests)])
                entry = cases.get(case)
                if entry is None:
                    entry = cases[case] = [0, mine]
                entry[0] += count
                if group == chosen:
                    taken_case = case
        column = live.index(seat)
        total = len(outcomes)
        mean = [0.0] * len(hands)
        split_of = {}
        for case, (count, mine) in cases.items():
            values = [o[:column] + [v] + o[column:] for v, o in zip(mine, others)]
            split_of[case] = split = _split(values, halves, live, len(hands))
            weight = count / total
            for index, share in enumerate(split):
                mean[index] += weight * share
        return split_of[taken_case], mean

    def _mean_shares(self, variant: Variant, hands: Sequence[Sequence[int] | None], seat: int,
                     outcomes: Sequence[int], taken: int) -> tuple[list[float], list[float]]:
        """:meth:`deal_shares` by its definition: :meth:`shares` after each outcome, averaged."""
        mean = [0.0] * len(hands)
        chosen: list[float] = []
        for card in outcomes:
            dealt = [None if held is None else [*held, card] if seat in (other, -1) else held
                     for other, held in enumerate(hands)]
            shares = self.shares(variant, dealt)
            for index, share in enumerate(shares):
                mean[index] += share / len(outcomes)
            if card == taken:
                chosen = shares
        return chosen, mean


SHOWDOWN_SHARE = ShowdownShare()
"""The declared value function of version 1 (see :class:`ShowdownShare`)."""


class Term(NamedTuple):
    """One event's correction: ``kind`` (``"chance"`` or ``"decision"``), the seat dealt to or acting (-1 for a
    community card), the card or engine action taken, ``V`` per seat after it and its expectation per seat."""

    kind: str
    seat: int
    taken: int
    value: np.ndarray
    expected: np.ndarray


@dataclass(frozen=True)
class AivatResult:
    """One hand: the raw payoffs and the AIVAT-corrected ones per seat (float64), the chance and decision
    corrections per seat (``corrected = payoffs - chance - action``), and the value function's stamp."""

    payoffs: np.ndarray
    corrected: np.ndarray
    chance: np.ndarray
    action: np.ndarray
    value: str


class _Walk:
    """The cards known so far and the value of the hand for any card or action, during one replay."""

    def __init__(self, hand: HandState, value: ShowdownShare) -> None:
        self.variant = hand.config.variant
        self.value = value
        self.known: list[list[int]] = [[] for _ in range(hand.num_seats)]
        self.community: int | None = None
        self.dealt: set[int] = set()

    def _hands(self, folded: Sequence[bool]) -> list[list[int] | None]:
        """Each live seat's known cards (the community card included), None for a folded seat."""
        extra = [] if self.community is None else [self.community]
        return [None if out else held + extra for held, out in zip(self.known, folded)]

    def deal(self, seat: int, card: int, hand: HandState) -> Term:
        """The term of ``card`` dealt to ``seat`` (-1: the community card), then the card is known."""
        dealt = self.dealt
        outcomes = list(filterfalse(dealt.__contains__, self.variant.deck))
        taken, mean = self.value.deal_shares(self.variant, self._hands(hand.folded), seat, outcomes, card)
        if seat < 0:
            self.community = card
        else:
            self.known[seat].append(card)
        dealt.add(card)
        paid = hand.contributed
        pot = sum(paid)
        return Term(CHANCE, seat, card, _values(taken, pot, paid), _values(mean, pot, paid))

    def decide(self, hand: HandState, policy: Stated, taken: Action) -> Term:
        """The term of the seat to act taking ``taken`` under its stated ``policy`` (five action ids)."""
        seat = hand.actor
        legal = hand.legal_actions()
        probabilities = _checked_policy(policy, legal, taken)
        expected = [0.0] * hand.num_seats
        chosen = expected
        shares_now = None
        pot = sum(hand.contributed)
        for action in legal:
            weight = probabilities[ENGINE_TO_ID[action]]
            if not weight and action is not taken:
                continue
            if action is Action.FOLD:
                folded = list(hand.folded)
                folded[seat] = True
                shares = self.value.shares(self.variant, self._hands(folded))
            else:
                if shares_now is None:
                    shares_now = self.value.shares(self.variant, self._hands(hand.folded))
                shares = shares_now
            amount = hand.chips_for(action)
            paid = list(hand.contributed)
            paid[seat] += amount
            after = _values(shares, pot + amount, paid)
            expected = [e + weight * a for e, a in zip(expected, after)]
            if action is taken:
                chosen = after
        return Term(DECISION, seat, int(taken), np.array(chosen), np.array(expected))


def _values(shares: Sequence[float], pot: float, paid: Sequence[int]) -> np.ndarray:
    """``V`` per seat: its share of the pot less what it put in."""
    return np.array([share * pot - chips for share, chips in zip(shares, paid)])


def policy_violations(policies: np.ndarray, legal: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """Which rows of ``policies`` (N, 5) are not what a stated policy must be: finite, non-negative, summing to 1
    over the row's ``legal`` ids (N, 5; to :data:`POLICY_TOLERANCE`) and giving the id ``taken`` (N,) a chance."""
    legal = np.asarray(legal, dtype=bool)
    finite = np.isfinite(policies).all(axis=1) & (policies >= 0).all(axis=1)
    stray = np.where(legal, 0.0, np.abs(policies)).sum(axis=1)
    good = (finite & (stray <= POLICY_TOLERANCE) & (np.abs(policies.sum(axis=1) - 1.0) <= POLICY_TOLERANCE)
            & (policies[np.arange(len(taken)), taken] > 0))
    return ~good


def _checked_policy(policy: Stated, legal: tuple[Action, ...], taken: Action) -> list[float]:
    """The policy as five probabilities, or ``ValueError`` if it is not a distribution over the legal
    action ids that gives the action taken a chance."""
    try:
        probabilities = [float(p) for p in policy]
    except (TypeError, ValueError):
        probabilities = []
    if len(probabilities) != NUM_ACTIONS or not all(0 <= p < math.inf for p in probabilities):
        raise ValueError(f"policy: expected {NUM_ACTIONS} non-negative probabilities (one per action id), "
                         f"got {policy!r}")
    ids = sorted({ENGINE_TO_ID[action] for action in legal})
    if policy_violations(np.array([probabilities]), np.isin(np.arange(NUM_ACTIONS), ids)[None],
                         np.array([ENGINE_TO_ID[taken]]))[0]:
        raise ValueError(f"policy: {probabilities} must sum to 1 over the legal action ids {ids} and give the "
                         f"action taken ({taken}) a chance")
    return probabilities


def aivat_terms(hand: HandState, policies: Sequence[Stated | None] | None = None,
                value: ShowdownShare = SHOWDOWN_SHARE) -> list[Term]:
    """Every event's term of a finished ``hand``, in order (see the module docstring).

    ``policies``: one entry per decision of ``hand.history``, the acting agent's stated probabilities over the
    five action ids (:mod:`razz_env.encoding.actions`) or None where its policy is unknown; None for all.
    """
    if not hand.is_over:
        raise ValueError("hand: AIVAT corrects finished hands; this one is still in play")
    history = hand.history
    if policies is None:
        policies = [None] * len(history)
    elif len(policies) != len(history):
        raise ValueError(f"policies: expected one entry per decision ({len(history)}), got {len(policies)}")
    replay = HandState(hand.config, cards=hand.cards, community=hand.community)
    walk = _Walk(hand, value)
    terms: list[Term] = []
    counts = [0] * hand.num_seats
    community: int | None = None
    for entry, policy in [(None, None), *zip(history, policies)]:
        if entry is not None:
            if policy is not None:
                terms.append(walk.decide(replay, policy, entry.action))
            replay.act(entry.action)
        held = replay.cards
        deepest = max(len(cards) for cards in held)
        for position in range(min(counts), deepest):
            for seat in range(hand.num_seats):
                if counts[seat] <= position < len(held[seat]):
                    terms.append(walk.deal(seat, held[seat][position], replay))
        counts = [len(cards) for cards in held]
        if replay.community is not None and community is None:
            community = replay.community
            terms.append(walk.deal(-1, community, replay))
    return terms


def aivat(hand: HandState, policies: Sequence[Stated | None] | None = None,
          value: ShowdownShare = SHOWDOWN_SHARE) -> AivatResult:
    """The AIVAT-corrected payoff per seat of a finished ``hand`` (``policies`` as in :func:`aivat_terms`)."""
    chance = np.zeros(hand.num_seats)
    action = np.zeros(hand.num_seats)
    for term in aivat_terms(hand, policies, value):
        if term.kind == CHANCE:
            chance += term.value - term.expected
        else:
            action += term.value - term.expected
    payoffs = np.asarray(hand.payoffs, dtype=np.float64)
    return AivatResult(payoffs, payoffs - chance - action, chance, action, f"{value.name} v{value.version}")


def aivat_many(hands: Sequence[HandState], policies: Sequence[Sequence[Stated | None] | None] | None = None,
               value: ShowdownShare = SHOWDOWN_SHARE) -> tuple[np.ndarray, np.ndarray]:
    """Raw and corrected payoffs of many finished hands of one table size, each shape (hands, seats)."""
    if policies is None:
        policies = [None] * len(hands)
    results = [aivat(hand, stated, value) for hand, stated in zip(hands, policies, strict=True)]
    return (np.array([r.payoffs for r in results]).reshape(len(hands), -1),
            np.array([r.corrected for r in results]).reshape(len(hands), -1))
