"""AIVAT on the batched engine: each table's corrected payoffs, scored while the tables play.

The estimator and its value function are :mod:`razz_env.evaluate.aivat`'s (``showdown_share`` v1, the
version here is :data:`VALUE_VERSION`), written as numba kernels over the engine's arrays: before each step
the decision term of every table whose acting agent stated a policy, after it the chance term of every card
it dealt (in the order :func:`razz_env.evaluate.aivat.aivat_terms` takes them: position, then seat; the
community card last), and at the end of a hand its corrected payoffs. The scalar estimator is the reference:
the tests require the same corrected payoffs to 1e-9 on every variant and table size.

:class:`AivatScorer` wraps a :class:`~razz_env.batch.engine.BatchEngine`: call :meth:`AivatScorer.step`
instead of the engine's ``step``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from razz_env.batch import kernels as _k
from razz_env.batch.engine import BatchEngine, StepResult
from razz_env.batch.kernels import CACHE
from razz_env.engine.cards import DECK_SIZE
from razz_env.engine.showdown_core import K_HIGH, KIND_CODES, MAX_HAND, hand_value, pot_shares

VALUE_NAME = "showdown_share"
VALUE_VERSION = 1
"""The value function these kernels compute: :data:`razz_env.evaluate.aivat.SHOWDOWN_SHARE` (tested equal)."""
_NO_CARD = -1


@njit(cache=CACHE)
def _held(cards, known, seat, community, extra, hand):
    """Write ``seat``'s known cards, the community card and ``extra`` (each when >= 0) into ``hand``; their count."""
    m = 0
    for i in range(known[seat]):
        hand[m] = cards[seat, i]
        m += 1
    if community >= 0:
        hand[m] = community
        m += 1
    if extra >= 0:
        hand[m] = extra
        m += 1
    return m


@njit(cache=CACHE)
def _shares(p, halves, cards, known, folded, community, extra_seat, extra_card, out, hand, values, live, winners):
    """:meth:`ShowdownShare.shares` of one table: each live seat's first ``known[s]`` cards of ``cards[s]`` (and
    the community card when >= 0), ``extra_card`` given to ``extra_seat`` (-1: to every live seat; no card: -1)."""
    n = p[_k.P_N]
    count = 0
    for s in range(n):
        out[s] = 0.0
        if not folded[s]:
            live[count] = s
            count += 1
    if count == 1:
        out[live[0]] = 1.0
        return
    fewest = 99
    for j in range(count):
        s = live[j]
        held = known[s] + (community >= 0) + (extra_card >= 0 and (extra_seat == s or extra_seat < 0))
        if held < fewest:
            fewest = held
    if fewest == 0:
        for j in range(count):
            out[live[j]] = 1.0 / count
        return
    size = min(fewest, p[_k.P_HAND_SIZE])
    for j in range(count):
        s = live[j]
        m = _held(cards, known, s, community, extra_card if extra_seat == s or extra_seat < 0 else -1, hand)
        for h in range(halves.shape[0]):
            values[h, s] = hand_value(hand[:m], halves[h], size)[0]
    pot_shares(values, halves, live, count, out, winners)


@njit(cache=CACHE)
def _deal_term(t, p, halves, cards, known, folded, contributed, community, seat, card, deck, dealt, corr, scratch):
    """Add to ``corr[t]`` the term of ``card`` dealt to ``seat`` (-1: the community card): the value after it
    minus its mean over every card of ``deck`` not in ``dealt`` (each equally likely). The outcomes are grouped
    by rank where suits play no part, and only the values the card changes are worked out again."""
    n = p[_k.P_N]
    taken, mean, shares, hand, values, live, winners, outcomes = scratch
    count = 0
    fewest = 99
    for s in range(n):
        if not folded[s]:
            live[count] = s
            count += 1
            held = known[s] + (community >= 0) + (seat == s or seat < 0)
            fewest = min(fewest, held)
    if count == 1 or fewest == 0:
        return  # the shares do not depend on the card: the term is zero
    size = min(fewest, p[_k.P_HAND_SIZE])
    rank_only = True  # suits play no part unless a high half values five cards
    for h in range(halves.shape[0]):
        if halves[h] == K_HIGH and size >= 5:
            rank_only = False
    groups = 13 if rank_only else deck.shape[0]
    outcomes[:groups] = 0
    chosen = card >> 2 if rank_only else -1
    total = 0
    for i in range(deck.shape[0]):
        if not dealt[i]:
            total += 1
            if rank_only:
                outcomes[deck[i] >> 2] += 1
            else:
                outcomes[i] = 1
                if deck[i] == card:
                    chosen = i
    # the values of the live seats the card leaves alone
    for j in range(count):
        s = live[j]
        if seat >= 0 and s != seat:
            m = _held(cards, known, s, community, -1, hand)
            for h in range(halves.shape[0]):
                values[h, s] = hand_value(hand[:m], halves[h], size)[0]
    for s in range(n):
        mean[s] = 0.0
    for group in range(groups):
        if not outcomes[group]:
            continue
        outcome = group * 4 if rank_only else deck[group]
        for j in range(count):
            s = live[j]
            if seat < 0 or s == seat:
                m = _held(cards, known, s, community, outcome, hand)
                for h in range(halves.shape[0]):
                    values[h, s] = hand_value(hand[:m], halves[h], size)[0]
        pot_shares(values, halves, live, count, shares, winners)
        weight = outcomes[group] / total
        for s in range(n):
            mean[s] += weight * shares[s]
        if group == chosen:
            for s in range(n):
                taken[s] = shares[s]
    pot = 0
    for s in range(n):
        pot += contributed[s]
    for s in range(n):
        corr[t, s] += (taken[s] - mean[s]) * pot


@njit(cache=CACHE)
def chance_terms(rows, p, halves, deck_cards, cards, num_cards, seat_arr, tab, known, community_known, dealt_mask,
                 corr, scratch):
    """For each table of ``rows``, the chance terms of the cards dealt since the last call (``known``: cards a
    seat has been scored for; ``dealt_mask``: per table, which of ``deck_cards`` are out), in the scalar order."""
    n = p[_k.P_N]
    folded = np.zeros(n, dtype=np.int64)
    contributed = np.zeros(n, dtype=np.int64)
    for r in range(rows.shape[0]):
        t = rows[r]
        for s in range(n):
            folded[s] = seat_arr[t, s, _k.S_FOLDED]
            contributed[s] = seat_arr[t, s, _k.S_CONTRIB]
        community = tab[t, _k.C_COMMUNITY]
        lowest = 99
        deepest = 0
        for s in range(n):
            lowest = min(lowest, known[t, s])
            deepest = max(deepest, num_cards[t, s])
        scored_community = community if community_known[t] else -1
        for position in range(lowest, deepest):
            for s in range(n):
                if known[t, s] <= position < num_cards[t, s]:
                    card = cards[t, s, position]
                    _deal_term(t, p, halves, cards[t], known[t], folded, contributed, scored_community, s, card,
                               deck_cards, dealt_mask[t], corr, scratch)
                    known[t, s] += 1
                    _mark(deck_cards, dealt_mask[t], card)
        if community >= 0 and not community_known[t]:
            _deal_term(t, p, halves, cards[t], known[t], folded, contributed, -1, -1, community, deck_cards,
                       dealt_mask[t], corr, scratch)
            community_known[t] = 1
            _mark(deck_cards, dealt_mask[t], community)


@njit(cache=CACHE)
def _mark(deck_cards, dealt, card):
    for i in range(deck_cards.shape[0]):
        if deck_cards[i] == card:
            dealt[i] = 1


@njit(cache=CACHE)
def decision_terms(rows, actions, policies, rules, tables, halves, known, corr, scratch):
    """For each table of ``rows`` whose acting agent stated a policy (``policies[t]``: five probabilities, NaN
    when none), the decision term of the action id ``actions[t]``: the value after it minus its mean under the
    policy (every legal id with a chance, or taken)."""
    p, tab, seat_arr, cards = rules.params, tables.tab, tables.seats, tables.cards
    id_to_engine, mask_table = rules.id_to_engine, rules.mask_table
    n = p[_k.P_N]
    now, after_fold, _, hand, values, live, winners, _ = scratch
    expected = np.zeros(n)
    chosen = np.zeros(n)
    folded = np.zeros(n, dtype=np.int64)
    for r in range(rows.shape[0]):
        t = rows[r]
        if np.isnan(policies[t, 0]):
            continue
        seat = tab[t, _k.C_ACTOR]
        legal = tab[t, _k.C_LEGAL]
        community = tab[t, _k.C_COMMUNITY]
        pot = 0
        for s in range(n):
            folded[s] = seat_arr[t, s, _k.S_FOLDED]
            pot += seat_arr[t, s, _k.S_CONTRIB]
            expected[s] = 0.0
        _shares(p, halves, cards[t], known[t], folded, community, -1, -1, now, hand, values, live, winners)
        folded[seat] = 1
        _shares(p, halves, cards[t], known[t], folded, community, -1, -1, after_fold, hand, values, live, winners)
        for action_id in range(mask_table.shape[1]):
            weight = policies[t, action_id]
            taken = action_id == actions[t]
            if not mask_table[legal, action_id] or (weight == 0 and not taken):
                continue
            action = id_to_engine[legal, action_id]
            amount = _k.action_amount(t, action, p, tab, seat_arr)
            shares = after_fold if action == _k.A_FOLD else now
            for s in range(n):
                paid = seat_arr[t, s, _k.S_CONTRIB] + (amount if s == seat else 0)
                value = shares[s] * (pot + amount) - paid
                expected[s] += weight * value
                if taken:
                    chosen[s] = value
        for s in range(n):
            corr[t, s] += chosen[s] - expected[s]


def _scratch(seats: int) -> tuple[np.ndarray, ...]:
    """Work arrays of the kernels (nothing is allocated per card): three share rows, a hand, per-half values, the
    live seats, per-half winners and the outcome counts of a card."""
    return (np.zeros(seats), np.zeros(seats), np.zeros(seats), np.zeros(MAX_HAND, dtype=np.int64),
            np.zeros((2, seats), dtype=np.int64), np.zeros(seats, dtype=np.int64), np.zeros((2, seats), dtype=np.int64),
            np.zeros(DECK_SIZE, dtype=np.int64))


class AivatScorer:
    """Scores the hands an engine plays with AIVAT: :meth:`step` steps the engine and keeps each table's
    corrections; ``corrected`` (T, S) holds, for the tables that finished in the last step, their AIVAT payoffs
    in chips (float64). Start it before the engine's first step; a table left out of a step's ``rows`` must stay
    out until its hand ends (its decisions would go unscored), and its next hand is scored from its deal."""

    def __init__(self, engine: BatchEngine) -> None:
        self.engine = engine
        config = engine.config
        self._halves = np.array([KIND_CODES[half] for half in config.variant.showdown], dtype=np.int64)
        self._deck = np.array(config.variant.deck, dtype=np.int64)
        tables, seats = engine.num_tables, engine.num_seats
        self._corr = np.zeros((tables, seats))
        self._known = np.zeros((tables, seats), dtype=np.int64)
        self._community_known = np.zeros(tables, dtype=np.int64)
        self._dealt = np.zeros((tables, len(self._deck)), dtype=np.int8)
        self._scratch = _scratch(seats)
        self.corrected = np.zeros((tables, seats))
        self._fresh = np.ones(tables, dtype=bool)  # a new hand whose first cards are not scored yet

    def _score_deals(self, rows: np.ndarray, cards: np.ndarray, seat: np.ndarray, tab: np.ndarray) -> None:
        chance_terms(rows.astype(np.int64), self.engine._rules.params, self._halves, self._deck, cards,
                     seat[:, :, _k.S_NCARDS], seat, tab, self._known, self._community_known, self._dealt, self._corr,
                     self._scratch)

    def step(self, actions: np.ndarray, policies: np.ndarray, rows: np.ndarray | None = None,
             out: np.ndarray | None = None) -> StepResult:
        """Step the engine with ``actions`` (as :meth:`BatchEngine.step`, ``out`` too), scoring the tables of
        ``rows`` (default all): ``policies`` (T, 5) the acting agent's stated policy per table, NaN rows where it
        states none. A finished table's AIVAT payoffs land in ``corrected`` and it starts afresh."""
        engine = self.engine
        tables = engine._tables
        rows = np.arange(engine.num_tables) if rows is None else np.asarray(rows, dtype=np.int64)
        actions = np.asarray(actions, dtype=np.int64)
        fresh = rows[self._fresh[rows]]
        if len(fresh):
            self._score_deals(fresh, tables.cards, tables.seats, tables.tab)
            self._fresh[fresh] = False
        decision_terms(rows, actions, np.asarray(policies, dtype=np.float64), engine._rules, tables, self._halves,
                       self._known, self._corr, self._scratch)
        result = engine.step(actions, out=out)
        done = rows[result.finished[rows] == 1]
        going = rows[result.finished[rows] == 0]
        self._score_deals(going, tables.cards, tables.seats, tables.tab)
        if len(done):
            self._score_deals(done, tables.ended_cards, tables.ended_seats, tables.ended_tab)
            self.corrected[done] = result.payoffs[done] - self._corr[done]
            self._corr[done] = 0.0
            self._known[done] = 0
            self._community_known[done] = 0
            self._dealt[done] = 0
            self._fresh[done] = True
        return result
