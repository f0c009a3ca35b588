"""AIVAT (razz_env.evaluate.aivat): unbiased against exact values, zero-mean corrections, no look-ahead, less spread."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, ENGINE_TO_ID, FOLD, NUM_ACTIONS
from razz_env.engine import showdown_core
from razz_env.engine.actions import Action
from razz_env.engine.config import HandConfig, max_seats
from razz_env.engine.state import HandState
from razz_env.engine.variants import Variant, get_variant
from razz_env.evaluate.aivat import (
    CHANCE,
    DECISION,
    SHOWDOWN_SHARE,
    ShowdownShare,
    aivat,
    aivat_many,
    aivat_terms,
    hand_value,
)

Policy = Callable[[HandState], np.ndarray]


def legal_ids(hand: HandState) -> list[int]:
    """The action ids legal now (an open fold included: the engine allows it)."""
    return sorted({ENGINE_TO_ID[action] for action in hand.legal_actions()})


def engine_action(hand: HandState, action_id: int) -> Action:
    """The engine action an id stands for now."""
    return next(action for action in hand.legal_actions() if ENGINE_TO_ID[action] == action_id)


def uniform(hand: HandState) -> np.ndarray:
    """Every legal id alike."""
    probabilities = np.zeros(NUM_ACTIONS)
    ids = legal_ids(hand)
    probabilities[ids] = 1.0 / len(ids)
    return probabilities


def one_hot(hand: HandState, preferred: Sequence[int]) -> np.ndarray:
    """All on the first legal id of ``preferred``."""
    ids = legal_ids(hand)
    probabilities = np.zeros(NUM_ACTIONS)
    probabilities[next(i for i in preferred if i in ids)] = 1.0
    return probabilities


def aggressive_low(hand: HandState) -> np.ndarray:
    """Deterministic: bet or raise holding an ace, else check or call (never folds)."""
    low = min(card >> 2 for card in hand.cards[hand.actor]) == 0
    return one_hot(hand, (BET_RAISE, CHECK_CALL, BRING_IN) if low else (CHECK_CALL, BRING_IN, BET_RAISE))


def cautious(hand: HandState) -> np.ndarray:
    """Mixed, by the actor's worst card: folds and raises more or less often."""
    worst = max(card >> 2 for card in hand.cards[hand.actor])
    weights = np.array([worst, 3.0, 3.0 - worst, 1.0, 1.0]).clip(0.25)
    probabilities = np.zeros(NUM_ACTIONS)
    ids = legal_ids(hand)
    probabilities[ids] = weights[ids] / weights[ids].sum()
    return probabilities


TINY = HandConfig.create("minirazz_tiny", num_seats=2)


def payoff(hand: HandState, stated: Sequence[np.ndarray]) -> np.ndarray:
    """Seat 0's raw payoff."""
    return np.array([hand.payoffs[0]], dtype=np.float64)


def exact_value(config: HandConfig, policies: Sequence[Policy],
                score: Callable[[HandState, Sequence[np.ndarray]], np.ndarray] = payoff) -> np.ndarray:
    """The expectation of ``score`` (of the finished hand and the policies stated in it; by default seat 0's
    payoff) by brute force: every deck order, every action each policy may take, weighted by its chance."""
    deck = list(config.variant.deck)

    def walk(order: tuple[int, ...], actions: tuple[Action, ...], stated: tuple[np.ndarray, ...]) -> np.ndarray:
        hand = HandState(config, deck=order)
        for action in actions:
            hand.act(action)
        if hand.is_over:
            return score(hand, stated)
        probabilities = policies[hand.actor](hand)
        return sum(p * walk(order, (*actions, engine_action(hand, i)), (*stated, probabilities))
                   for i, p in enumerate(probabilities) if p)

    orders = list(itertools.permutations(deck))
    return sum(walk(order, (), ()) for order in orders) / len(orders)


@functools.cache
def exact_payoff(pair: str) -> float:
    """Seat 0's exact expected payoff under a pair of :data:`PAIRS`."""
    return float(exact_value(TINY, PAIRS[pair])[0])


def play(config: HandConfig, policies: Sequence[Policy], rng: random.Random) -> tuple[HandState, list[np.ndarray]]:
    """One hand on a shuffled deck, each seat sampling its policy; the hand and the policy of each decision."""
    deck = list(config.variant.deck)
    rng.shuffle(deck)
    hand = HandState(config, deck=deck)
    stated = []
    while not hand.is_over:
        probabilities = policies[hand.actor](hand)
        stated.append(probabilities)
        hand.act(engine_action(hand, rng.choices(range(NUM_ACTIONS), weights=probabilities)[0]))
    return hand, stated


PAIRS = {
    "deterministic vs uniform": (aggressive_low, uniform),
    "uniform vs uniform": (uniform, uniform),
    "mixed vs deterministic": (cautious, aggressive_low),
}


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_unbiased_against_the_exact_value_on_minirazz(pair: str) -> None:
    policies = PAIRS[pair]
    exact = exact_payoff(pair)
    rng = random.Random(2027)
    raw, chance_only, full = [], [], []
    for _ in range(1500):
        hand, stated = play(TINY, policies, rng)
        result = aivat(hand, stated)
        raw.append(result.payoffs[0])
        chance_only.append(result.payoffs[0] - result.chance[0])
        full.append(result.corrected[0])
    for name, sample in (("raw", raw), ("chance only", chance_only), ("aivat", full)):
        mean, error = np.mean(sample), np.std(sample, ddof=1) / math.sqrt(len(sample))
        assert abs(mean - exact) < 4 * error, f"{pair}, {name}: {mean:.4f} ± {error:.4f} vs exact {exact:.4f}"
    assert np.std(full) < np.std(raw)


def test_the_expected_corrected_payoff_is_exactly_the_expected_payoff() -> None:
    pair = "mixed vs deterministic"  # a mixed policy (every legal id possible) against a deterministic one

    def scores(hand: HandState, stated: Sequence[np.ndarray]) -> np.ndarray:
        result = aivat(hand, stated)
        return np.array([result.payoffs[0], result.corrected[0], result.payoffs[0] - result.chance[0]])

    raw, corrected, chance_only = exact_value(TINY, PAIRS[pair], scores)
    assert raw == pytest.approx(exact_payoff(pair), abs=1e-12)
    assert corrected == pytest.approx(raw, abs=1e-9) and chance_only == pytest.approx(raw, abs=1e-9)


def test_the_policy_free_estimate_applies_the_chance_corrections_only() -> None:
    hand, stated = play(TINY, PAIRS["uniform vs uniform"], random.Random(5))
    known, unknown = aivat(hand, stated), aivat(hand)
    np.testing.assert_array_equal(unknown.chance, known.chance)
    assert not unknown.action.any()
    np.testing.assert_allclose(unknown.corrected, unknown.payoffs - unknown.chance)
    some = [p if i % 2 else None for i, p in enumerate(stated)]
    kinds = [term.kind for term in aivat_terms(hand, some)]
    assert kinds.count(DECISION) == len(stated) // 2


# ------------------------------------------------------------------ zero-mean corrections, no look-ahead

VARIANTS = ("minirazz_tiny", "minirazz", "minirazz_large", "razz", "action_razz", "stud", "stud8")


@dataclass
class Scenario:
    """A hand dealt from ``deck`` whose n-th decision picks legal id ``choices[n] % len(legal ids)``."""

    config: HandConfig
    deck: list[int]
    choices: list[int]
    forced: dict[int, int]
    policy: np.ndarray | None = None
    at: int = -1

    def play(self, deck: Sequence[int] | None = None) -> tuple[HandState, list[np.ndarray | None]]:
        """The finished hand and its stated policies (only decision ``at`` has one)."""
        hand = HandState(self.config, deck=list(self.deck if deck is None else deck))
        stated: list[np.ndarray | None] = []
        while not hand.is_over:
            ids = legal_ids(hand)
            n = len(stated)
            chosen = self.forced.get(n, ids[self.choices[n % len(self.choices)] % len(ids)])
            stated.append(self.policy if n == self.at else None)
            hand.act(engine_action(hand, chosen))
        return hand, stated


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    variant = draw(st.sampled_from(VARIANTS))
    seats = draw(st.integers(2, max_seats(get_variant(variant))))
    short = draw(st.booleans())  # short stacks: all-ins, side pots, streets dealt with no betting between
    stacks = [draw(st.integers(1, 40)) if short else 1000 for _ in range(seats)]
    config = HandConfig.create(variant, stacks=stacks)
    deck = list(config.variant.deck)
    random.Random(draw(st.integers(0, 2**32))).shuffle(deck)
    # id order: fold, check/call, bet/raise...; weighting check/call keeps most hands going to later streets
    choices = draw(st.lists(st.sampled_from([1, 1, 1, 2, 2, 0, 3, 4]), min_size=1, max_size=12))
    return Scenario(config, deck, choices, {})


def terms_of(scenario: Scenario, deck: Sequence[int] | None = None, value: ShowdownShare = SHOWDOWN_SHARE) -> list:
    hand, stated = scenario.play(deck)
    return aivat_terms(hand, stated, value)


def check_chance_event(scenario: Scenario, k: int) -> None:
    """Event ``k`` (a card) of the scenario's hand: its expectation is the same whichever card came, and the
    corrections average zero over every card that could have come."""
    terms = terms_of(scenario)
    seen = {term.taken for term in terms[:k] if term.kind == CHANCE}
    taken = terms[k].taken
    outcomes = [card for card in scenario.config.variant.deck if card not in seen]
    corrections, expectations = [], []
    for card in outcomes:  # the deck with `card` where `taken` was: the same past, `card` dealt at event k
        deck = [card if c == taken else taken if c == card else c for c in scenario.deck]
        alternative = terms_of(scenario, deck)[k]
        assert alternative.kind == CHANCE and alternative.taken == card and alternative.seat == terms[k].seat
        corrections.append(alternative.value - alternative.expected)
        expectations.append(alternative.expected)
    for expected in expectations:
        np.testing.assert_allclose(expected, expectations[0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(np.mean(corrections, axis=0), 0.0, atol=1e-9)


@settings(max_examples=25, deadline=None)
@given(scenarios(), st.data())
def test_chance_corrections_average_zero_over_every_card_that_could_come(scenario: Scenario,
                                                                          data: st.DataObject) -> None:
    terms = terms_of(scenario)
    check_chance_event(scenario, data.draw(st.sampled_from([k for k, t in enumerate(terms) if t.kind == CHANCE])))


def test_a_community_card_is_corrected_over_every_card_that_could_come() -> None:
    config = HandConfig.create("razz", num_seats=8)
    deck = list(config.variant.deck)
    random.Random(8).shuffle(deck)
    calls = Scenario(config, deck, [1], {})  # everyone checks and calls: eight seats reach 7th street
    terms = terms_of(calls)
    community = [k for k, term in enumerate(terms) if term.kind == CHANCE and term.seat == -1]
    assert len(community) == 1 and calls.play()[0].community is not None
    check_chance_event(calls, community[0])


@settings(max_examples=25, deadline=None)
@given(scenarios(), st.data())
def test_action_corrections_average_zero_under_the_stated_policy(scenario: Scenario, data: st.DataObject) -> None:
    hand, _ = scenario.play()
    assume(hand.history)  # antes can put every seat all in: no decision at all
    at = data.draw(st.integers(0, len(hand.history) - 1))
    scenario.at = at
    replay = HandState(scenario.config, deck=scenario.deck)
    for entry in hand.history[:at]:
        replay.act(entry.action)
    ids = legal_ids(replay)
    weights = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(ids), max_size=len(ids))), dtype=float)
    if not weights.any():
        weights[0] = 1.0
    policy = np.zeros(NUM_ACTIONS)
    policy[ids] = weights / weights.sum()
    scenario.policy = policy
    total = np.zeros(scenario.config.num_seats)
    expectations = []
    for action_id in ids:
        if not policy[action_id]:
            continue
        scenario.forced = {at: action_id}
        decision = [term for term in terms_of(scenario) if term.kind == DECISION]
        assert len(decision) == 1 and ENGINE_TO_ID[decision[0].taken] == action_id
        total += policy[action_id] * (decision[0].value - decision[0].expected)
        expectations.append(decision[0].expected)
    for expected in expectations:
        np.testing.assert_allclose(expected, expectations[0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(total, 0.0, atol=1e-9)


class LeakyShare(ShowdownShare):
    """A value function that peeks: it values every seat on the cards it will hold at the end of the hand."""

    final: list[list[int]] = []

    def shares(self, variant: Variant, hands: Sequence[Sequence[int] | None]) -> list[float]:
        """Shares as :class:`ShowdownShare`, each hand padded with the cards dealt to that seat later."""
        return super().shares(variant, [None if held is None else [*held, *final[len(held):]]
                                        for held, final in zip(hands, self.final)])

    def deal_shares(self, variant: Variant, hands: Sequence[Sequence[int] | None], seat: int,
                    outcomes: Sequence[int], taken: int) -> tuple[list[float], list[float]]:
        """By the definition (the mean of :meth:`shares` over the outcomes), so the peeking shares are used."""
        return self._mean_shares(variant, hands, seat, outcomes, taken)


def looks_ahead(scenario: Scenario, value: ShowdownShare, rng: random.Random) -> bool:
    """Whether some event's term changes when only cards dealt after it are changed (two undealt cards swapped)."""
    hand, _ = scenario.play()
    if isinstance(value, LeakyShare):
        value.final = [list(held) for held in hand.cards]
    terms = terms_of(scenario, value=value)
    dealt = [term.taken for term in terms if term.kind == CHANCE]
    for k in range(len(terms)):
        seen = {t.taken for t in terms[:k + 1] if t.kind == CHANCE}
        later = [card for card in dealt if card not in seen]
        spare = [card for card in scenario.config.variant.deck if card not in seen]
        if not later or len(spare) < 2:
            continue
        a, b = later[0], rng.choice([card for card in spare if card != later[0]])
        deck = [b if c == a else a if c == b else c for c in scenario.deck]
        if isinstance(value, LeakyShare):
            other, _ = scenario.play(deck)
            value.final = [list(held) for held in other.cards]
        changed = terms_of(scenario, deck, value)[: k + 1]
        for before, after in zip(terms[: k + 1], changed):
            if before.taken != after.taken or not (np.allclose(before.value, after.value)
                                                   and np.allclose(before.expected, after.expected)):
                return True
        if isinstance(value, LeakyShare):
            value.final = [list(held) for held in hand.cards]
    return False


@settings(max_examples=20, deadline=None)
@given(scenarios(), st.integers(0, 2**16))
def test_no_term_depends_on_cards_dealt_after_it(scenario: Scenario, seed: int) -> None:
    assert not looks_ahead(scenario, SHOWDOWN_SHARE, random.Random(seed))


def test_a_value_function_that_peeks_at_later_cards_is_caught() -> None:
    config = HandConfig.create("razz", num_seats=2)
    calls = Scenario(config, list(config.variant.deck), [1], {})
    random.Random(11).shuffle(calls.deck)
    assert looks_ahead(calls, LeakyShare(), random.Random(0))
    assert not looks_ahead(calls, SHOWDOWN_SHARE, random.Random(0))


# ------------------------------------------------------------------ the value function and its pieces


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(2, 8), st.integers(0, 2**32), st.integers(0, 2**32))
def test_corrected_payoffs_sum_to_zero_at_every_table(variant: str, seats: int, seed: int, play_seed: int) -> None:
    count = min(seats, max_seats(get_variant(variant)))
    stacks = [random.Random(seed + seat).choice([3, 12, 30, 1000]) for seat in range(count)]
    config = HandConfig.create(variant, stacks=stacks)
    hand, stated = play(config, (uniform,) * config.num_seats, random.Random(play_seed))
    result = aivat(hand, stated)
    assert result.corrected.dtype == np.float64 and result.corrected.shape == (config.num_seats,)
    assert abs(result.corrected.sum()) < 1e-9
    np.testing.assert_allclose(result.corrected, result.payoffs - result.chance - result.action)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(2, 6), st.integers(0, 2**32), st.lists(st.integers(0, 4), max_size=20))
def test_chips_of_an_action_not_taken_are_what_the_engine_puts_in(variant: str, seats: int, seed: int,
                                                                   choices: list[int]) -> None:
    config = HandConfig.create(variant, num_seats=min(seats, max_seats(get_variant(variant))))
    hand = HandState(config, seed=seed)
    for choice in choices:
        if hand.is_over:
            break
        history = [entry.action for entry in hand.history]
        for action in hand.legal_actions():
            probe = HandState(config, seed=seed)
            for taken in history:
                probe.act(taken)
            assert probe.act(action).amount == hand.chips_for(action)
        hand.act(hand.legal_actions()[choice % len(hand.legal_actions())])


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4).flatmap(lambda size: st.tuples(st.just(size), st.lists(
    st.integers(0, 51), min_size=size, max_size=7, unique=True))), st.data())
def test_stud_high_under_five_cards_is_the_showdown_cores_value(sized: tuple[int, list[int]], data) -> None:
    """The value function's partial high hands (looked up by rank key) order hands as the core's best subset,
    which ``tests/engine/test_showdown_core.py`` holds to a brute force."""
    size, cards = sized
    other = data.draw(st.lists(st.integers(0, 51), min_size=len(cards), max_size=len(cards), unique=True))
    ours = [hand_value("high", size, hand) for hand in (cards, other)]
    core = [int(showdown_core.hand_value(hand, showdown_core.K_HIGH, size)[0]) for hand in (cards, other)]
    assert (ours[0] > ours[1]) - (ours[0] < ours[1]) == (core[0] > core[1]) - (core[0] < core[1])


def test_shares_once_every_card_is_dealt_are_the_showdown() -> None:
    config = HandConfig.create("stud8", num_seats=3)
    for seed in range(30):
        hand = HandState(config, seed=seed)
        while not hand.is_over:
            hand.act(Action.CALL if hand.can_act(Action.CALL) else Action.CHECK if hand.can_act(Action.CHECK)
                     else hand.legal_actions()[0])
        shares = SHOWDOWN_SHARE.shares(config.variant, [hand.showdown_cards(s) for s in range(3)])
        winnings = np.array(hand.payoffs) + np.array(hand.contributed)
        np.testing.assert_allclose(np.array(shares) * hand.pot, winnings, atol=1.0)  # odd chips go whole


@settings(max_examples=60, deadline=None)
@given(scenarios(), st.data())
def test_dealing_shares_by_groups_match_their_definition(scenario: Scenario, data: st.DataObject) -> None:
    hand, _ = scenario.play()
    variant = scenario.config.variant
    cards = [held[: data.draw(st.integers(0, len(held)))] for held in hand.cards]
    folded = data.draw(st.lists(st.booleans(), min_size=len(cards), max_size=len(cards)))
    hands = [None if out else held for held, out in zip(cards, folded)]
    live = [seat for seat, held in enumerate(hands) if held is not None]
    if not live:
        return
    seat = data.draw(st.sampled_from(live))
    if len(hands[seat]) == variant.cards_per_seat:
        return
    seen = {card for held in cards for card in held}
    outcomes = [card for card in variant.deck if card not in seen]
    taken = data.draw(st.sampled_from(outcomes))
    fast = SHOWDOWN_SHARE.deal_shares(variant, hands, seat, outcomes, taken)
    slow = SHOWDOWN_SHARE._mean_shares(variant, hands, seat, outcomes, taken)
    np.testing.assert_allclose(fast[0], slow[0], atol=1e-12)
    np.testing.assert_allclose(fast[1], slow[1], atol=1e-12)


def test_the_stamp_names_the_value_function_and_its_version() -> None:
    assert SHOWDOWN_SHARE.stamp() == {"name": "showdown_share", "version": 1}
    hand, stated = play(TINY, (uniform, uniform), random.Random(1))
    assert aivat(hand, stated).value == "showdown_share v1"


def test_bad_policies_and_unfinished_hands_are_refused() -> None:
    hand, stated = play(TINY, (uniform, uniform), random.Random(3))
    with pytest.raises(ValueError, match="one entry per decision"):
        aivat(hand, stated[:-1])
    bad = [p.copy() for p in stated]
    bad[0] = bad[0] * 2
    with pytest.raises(ValueError, match="sum to 1"):
        aivat(hand, bad)
    bad[0] = np.zeros(NUM_ACTIONS)
    bad[0][FOLD if ENGINE_TO_ID[hand.history[0].action] != FOLD else CHECK_CALL] = 1.0
    with pytest.raises(ValueError):
        aivat(hand, bad)
    with pytest.raises(ValueError, match="still in play"):
        aivat(HandState(TINY, seed=1))


def test_many_hands_at_once_match_one_at_a_time() -> None:
    rng = random.Random(9)
    played = [play(TINY, (cautious, uniform), rng) for _ in range(20)]
    raw, corrected = aivat_many([h for h, _ in played], [s for _, s in played])
    assert raw.shape == corrected.shape == (20, 2)
    for row, (hand, stated) in enumerate(played):
        np.testing.assert_array_equal(corrected[row], aivat(hand, stated).corrected)


def simple_razz(hand: HandState) -> np.ndarray:
    """Deterministic razz rule: complete or bet while the up cards hold no card above eight, else check or call."""
    up = hand.up_cards(hand.actor)
    good = max(card >> 2 for card in up) <= 7
    return one_hot(hand, (BET_RAISE, CHECK_CALL, BRING_IN) if good else (CHECK_CALL, BRING_IN, FOLD))


@functools.cache
def razz_sd_ratio(hands: int = 300) -> float:
    """Raw SD over AIVAT SD of seat 0's payoff, heads-up razz, two deterministic rules."""
    config = HandConfig.create("razz", num_seats=2)
    rng = random.Random(4)
    played = [play(config, (simple_razz, aggressive_low), rng) for _ in range(hands)]
    raw, corrected = aivat_many([h for h, _ in played], [s for _, s in played])
    return float(np.std(raw[:, 0]) / np.std(corrected[:, 0]))


def test_aivat_varies_less_than_the_raw_payoff_in_heads_up_razz() -> None:
    ratio = razz_sd_ratio()
    print(f"raw SD / AIVAT SD = {ratio:.2f}")
    assert ratio > 1.2
