"""The showdown core, run as Python, against the reference: the evaluators value by value, ``showdown.settle`` pot
by pot, and a brute force for stud high under five cards (the AIVAT value function's partial hands).

The same functions compiled by numba are held to the same references in ``tests/batch/test_kernels.py`` and,
through the engines, decision by decision in the batched engine's differential tests.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz_env.engine import HandConfig, HandState
from razz_env.engine import showdown_core as core
from razz_env.engine.hand_value import best_hand, evaluator
from razz_env.engine.showdown import pot_layers


def _sign(a: int, b: int) -> int:
    return int(a > b) - int(a < b)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([("razz", 5), ("action_razz", 5), ("eight", 5), ("high", 5), ("razz", 3), ("eight", 3)]),
       st.integers(0, 2), st.data())
def test_hand_values_order_hands_as_the_evaluators(kind_size: tuple[str, int], extra: int, data) -> None:
    """Every pair of hands compares alike (ties included), an eight qualifies alike, and the top card is the
    highest card of ``best_hand`` (rank, then suit, in the kind's order)."""
    kind, size = kind_size
    hands = st.lists(st.integers(0, 51), min_size=size + extra, max_size=size + extra, unique=True)
    first, second = data.draw(hands), data.draw(hands)
    reference = evaluator(kind, size)
    ours = [core.hand_value(hand, core.KIND_CODES[kind], size) for hand in (first, second)]
    assert _sign(ours[0][0], ours[1][0]) == _sign(reference(first), reference(second))
    for hand, (value, top) in zip((first, second), ours):
        if kind == "eight":
            assert (value > 0) == (reference(hand) > 0)
        best = best_hand(hand, kind, size)
        if best:
            assert top == (core.high_order(best[0]) if kind == "high" else best[0])


def reference_high(cards: Sequence[int], size: int) -> tuple:
    """Best ``size``-card high hand below five cards by brute force: (count pattern, ranks by count) compared."""
    def score(hand: Sequence[int]) -> tuple:
        ranks = [(card >> 2) - 1 if card >> 2 else 12 for card in hand]  # ace high: two 0 ... ace 12
        counts = {rank: ranks.count(rank) for rank in ranks}
        order = sorted(ranks, key=lambda rank: (counts[rank], rank), reverse=True)
        return tuple(sorted(counts.values(), reverse=True)), tuple(order)
    return max(score(hand) for hand in itertools.combinations(cards, size))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda size: st.tuples(st.just(size), st.lists(
    st.integers(0, 51), min_size=size, max_size=7, unique=True))), st.data())
def test_stud_high_under_five_cards_orders_hands_as_brute_force(sized: tuple[int, list[int]], data) -> None:
    size, cards = sized
    other = data.draw(st.lists(st.integers(0, 51), min_size=len(cards), max_size=len(cards), unique=True))
    ours = [core.hand_value(hand, core.K_HIGH, size)[0] for hand in (cards, other)]
    assert _sign(*ours) == _sign(reference_high(cards, size), reference_high(other, size))


def _random_finished_hand(variant: str, seats: int, seed: int, chip: int) -> HandState:
    """A hand played out by random legal actions from uneven stacks (side pots, all-ins, odd chips)."""
    policy = random.Random(seed)
    stacks = [chip * policy.choice([3, 7, 12, 40, 200]) for _ in range(seats)]
    options = {"ante": chip, "bring_in": chip, "small_bet": 2 * chip, "big_bet": 4 * chip} if chip > 1 else {}
    hand = HandState(HandConfig.create(variant, stacks=stacks, chip=chip, **options), seed=seed)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(legal[policy.randrange(len(legal))])
    return hand


def _core_winnings(hand: HandState) -> list[int]:
    """``showdown.settle``'s winnings, each pot awarded by :func:`showdown_core.award_pot`."""
    n, variant = hand.num_seats, hand.config.variant
    kinds = [core.KIND_CODES[half] for half in variant.showdown]
    values = [[0] * n for _ in kinds]
    tops = [[-1] * n for _ in kinds]
    for seat in range(n):
        if not hand.folded[seat]:
            for h, kind in enumerate(kinds):
                values[h][seat], tops[h][seat] = core.hand_value(hand.showdown_cards(seat), kind, variant.hand_size)
    winnings = [0] * n
    for amount, eligible in pot_layers(hand.contributed, hand.folded):
        core.award_pot(amount, eligible, len(eligible), kinds, values, tops, hand.config.stakes.chip, winnings,
                       [[0] * n for _ in kinds], [0] * n)
    return winnings


@pytest.mark.parametrize(("variant", "seats", "chip"), [
    ("razz", 2, 1), ("razz", 5, 1), ("action_razz", 4, 1), ("stud", 8, 1), ("stud8", 3, 1), ("stud8", 7, 1),
    ("stud8", 4, 5), ("razz", 6, 5), ("minirazz", 2, 1),
])
def test_award_pot_settles_every_pot_as_the_engine(variant: str, seats: int, chip: int) -> None:
    """Side pots, split halves, an unqualified low and odd chips (one chip and a chip of 5): the chips each seat
    takes equal the scalar engine's."""
    settled = 0
    for seed in range(60):
        hand = _random_finished_hand(variant, seats, seed, chip)
        live = sum(not folded for folded in hand.folded)
        winnings = [p + c for p, c in zip(hand.payoffs, hand.contributed)]
        if live > 1:
            settled += 1
            assert _core_winnings(hand) == winnings, (variant, seed)
    assert settled >= 10  # enough hands reached a showdown to mean something


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 3), min_size=n, max_size=n), st.lists(st.integers(0, 3), min_size=n, max_size=n),
    st.sampled_from([[core.K_RAZZ], [core.K_HIGH], [core.K_HIGH, core.K_EIGHT]]))))
def test_pot_shares_are_award_pot_without_odd_chips(case: tuple[list[int], list[int], list[int]]) -> None:
    """The fractional shares are the chips :func:`award_pot` gives from a pot every split divides evenly."""
    high, low, kinds = case
    n = len(high)
    values = [high, low][:len(kinds)]
    live = list(range(n))
    amount = 2 * 840  # both halves of it divide by any number of winners up to eight
    shares = [0.0] * n
    core.pot_shares(values, kinds, live, n, shares, [[0] * n for _ in kinds])
    chips = [0] * n
    core.award_pot(amount, live, n, kinds, values, [[0] * n for _ in kinds], 1, chips, [[0] * n for _ in kinds],
                   [0] * n)
    assert [Fraction(c, amount) for c in chips] == [Fraction(s).limit_denominator(10_000) for s in shares]
    assert sum(shares) == pytest.approx(1.0)
