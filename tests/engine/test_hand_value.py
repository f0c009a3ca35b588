"""Hand evaluators (rules.md "Showdown", rule documents 000-003): razz, eight-or-better, Action Razz, stud.

Checked against the rule documents' examples, against brute force over five-card subsets, and
differentially against PokerKit (and phevaluator for stud high) as independent oracles.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, combinations_with_replacement, pairwise

import numpy as np
import pytest

from razz_env.engine import hand_value
from razz_env.engine.cards import CARD_NAMES, DECK_SIZE, cards_str, parse_cards
from razz_env.engine.hand_value import (
    ACTION_RAZZ_MAX,
    EIGHT_LOW_MAX,
    RAZZ_LOW_MAX,
    STUD_HIGH_MAX,
    action_razz_batch,
    action_razz_value,
    best_five,
    describe,
    eight_low,
    eight_low_batch,
    razz_low,
    razz_low_batch,
    stud_high,
)

SEVEN_CARD_RANK_MULTISETS = 49_205
PK_SAMPLE = 2_000


def rank_multisets(size: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` rank indices with at most four of a rank, lowest rank first."""
    for ranks in combinations_with_replacement(range(13), size):
        if max(Counter(ranks).values()) <= 4:
            yield ranks


def cards_of(ranks: Sequence[int]) -> list[int]:
    """Distinct cards with these ranks: the n-th copy of a rank gets the n-th suit (clubs first)."""
    return [rank * 4 + copy for rank, copy in zip(ranks, _copy_numbers(ranks))]


def _copy_numbers(ranks: Sequence[int]) -> list[int]:
    seen: Counter[int] = Counter()
    numbers = []
    for rank in ranks:
        numbers.append(seen[rank])
        seen[rank] += 1
    return numbers


def assert_same_order(ours: Sequence[int], theirs: Sequence[object]) -> None:
    """Our values and the oracle's hands sort the same way, ties included: each of our values is one
    oracle class, and the classes are strictly increasing (by the oracle's own ``<``) with our values."""
    by_value: dict[int, set[object]] = {}
    for value, hand in zip(ours, theirs, strict=True):
        by_value.setdefault(value, set()).add(hand)
    split = {value: hands for value, hands in by_value.items() if len(hands) > 1}
    assert not split, f"one value of ours, several oracle classes: {list(split.items())[:3]}"
    oracle_in_our_order = [next(iter(by_value[value])) for value in sorted(by_value)]
    for weaker, stronger in pairwise(oracle_in_our_order):
        assert weaker < stronger, f"we rank {stronger} above {weaker}; the oracle does not"


# --- Rule documents -------------------------------------------------------------------------------

# 000: "sample Razz hands ... ranked from least powerful (#1) to most powerful (#12, the nuts)".
RANKED_RAZZ_HANDS = [
    "3c 3d 3h 5s 5c",
    "Kh Ks 4d 3c 2s",
    "2d 2h 7c 6s 5d",
    "Ac As Th 9d 8c",
    "Ks Qh Jd Tc 9s",
    "Kd Qc Jh Ts 7d",
    "9h 8s 7d 6c 5h",
    "9c 7h 6s 5d 3c",
    "9s 7c 6d 5h Ad",
    "6h 5c 4s 3d 2c",
    "6d 4h 3c 2s Ah",
    "5c 4d 3h 2c As",
]


def test_ranked_razz_hands_of_rule_doc_000_increase() -> None:
    values = [razz_low(parse_cards(hand)) for hand in RANKED_RAZZ_HANDS]
    assert all(weaker < stronger for weaker, stronger in pairwise(values)), values
    assert values[-1] == RAZZ_LOW_MAX


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("8c 6d 5h 4s 3c", "9d 4h 3s 2c Ad"),  # 002 (French): "8 6 5 4 3 est meilleur que 9 4 3 2 As"
        ("2c 3d 4h 5s 6c", "Ad 2h 5c 7s 8d"),  # 003 (German): Spieler 1 beats Spieler 2
        ("3c 4d 5h 6s 7c", "Ad 2h 3c 4s 8d"),  # 002: "A-2-3-4-8 est pire que 3-4-5-6-7"
        ("2c 2d 7h 6s 5c", "Kd Kh 4s 3c 2h"),  # pairs: lower pair first
        ("Ac Ad Th 9s 8c", "2h 2s 7d 6c 5h"),
        ("6d 4h 3c 2s Ah", "6h 5c 4s 3d 2c"),
    ],
)
def test_low_comparisons_from_the_rule_documents(better: str, worse: str) -> None:
    assert razz_low(parse_cards(better)) > razz_low(parse_cards(worse))


def test_action_razz_example_of_rule_doc_001() -> None:
    player1 = parse_cards("2h 2d 3s 3c 4d 5s 7c")
    player2 = parse_cards("Ah Ad 2s 4c 4h 6s 8c")
    player3 = parse_cards("3h 5d 7s 8d 9h Qs Kc")
    assert action_razz_value(player3) > action_razz_value(player1) > action_razz_value(player2)
    assert describe(player3, "action_razz") == "face 9-8-7-5-3"
    assert describe(player1, "action_razz") == "butt 7-5-4-3-2"
    assert describe(player2, "action_razz") == "butt 8-6-4-2-A"


def test_action_razz_face_full_house_beats_butt_wheel() -> None:
    butt_wheel = parse_cards("Ah 2h 3s 4c 5d 6s 7c")
    face_boat = parse_cards("Kh Kd Ks Kc Qd Qs Qc")
    assert razz_low(butt_wheel) > razz_low(face_boat)
    assert action_razz_value(face_boat) > action_razz_value(butt_wheel)
    assert describe(butt_wheel, "action_razz") == "butt 5-4-3-2-A"
    assert describe(face_boat, "action_razz") == "face full house, queens full of kings"
    assert action_razz_value(parse_cards("Ah 2h 3s 4c 5d Jc 7c")) == ACTION_RAZZ_MAX


# --- Direct algorithm against brute force and a reference ordering ------------------------------


def reference_low_badness(ranks: Sequence[int]) -> tuple[int, ...]:
    """Independent ace-to-five sort key, smaller is better: the group shape (no pair best, quads
    worst), then the group ranks from the biggest group down, high to low within equal groups."""
    groups = sorted(((count, rank) for rank, count in Counter(ranks).items()), reverse=True)
    shapes = [(1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1)]
    return (shapes.index(tuple(count for count, _ in groups)), *(rank for _, rank in groups))


def test_five_card_lows_follow_the_reference_order() -> None:
    fives = list(rank_multisets(5))
    assert len(fives) == RAZZ_LOW_MAX
    ours = sorted(fives, key=lambda ranks: razz_low(cards_of(ranks)))
    assert ours == sorted(fives, key=reference_low_badness, reverse=True)
    assert sorted(razz_low(cards_of(ranks)) for ranks in fives) == list(range(1, RAZZ_LOW_MAX + 1))


@pytest.mark.parametrize("size", [6, 7])
@pytest.mark.parametrize("evaluate", [razz_low, eight_low], ids=["razz", "eight"])
def test_direct_best_low_equals_brute_force(size: int, evaluate: Callable[[Sequence[int]], int]) -> None:
    five_card_value = {ranks: evaluate(cards_of(ranks)) for ranks in rank_multisets(5)}
    count = 0
    for ranks in rank_multisets(size):
        brute_force = max(five_card_value[five] for five in combinations(ranks, 5))
        assert evaluate(cards_of(ranks)) == brute_force, ranks
        count += 1
    assert count == {6: 18_395, 7: SEVEN_CARD_RANK_MULTISETS}[size]


def test_eight_low_qualifies_exactly_five_distinct_ranks_eight_or_lower() -> None:
    for ranks in rank_multisets(5):
        qualifies = len(set(ranks)) == 5 and max(ranks) <= 7
        assert (eight_low(cards_of(ranks)) > 0) == qualifies, ranks
    assert eight_low(parse_cards("8c 7d 6h 5s 4c")) == 1
    assert eight_low(parse_cards("Ac 2d 3h 4s 5c Kd Kh")) == EIGHT_LOW_MAX
    assert eight_low(parse_cards("9c 7d 6h 5s 4c 4d 2h")) == eight_low(parse_cards("7d 6h 5s 4c 2h"))


# --- PokerKit as an oracle ----------------------------------------------------------------------


def pokerkit_cards() -> list[object]:
    pokerkit = pytest.importorskip("pokerkit")
    return list(pokerkit.Card.parse("".join(CARD_NAMES)))


def test_pokerkit_low_hands_compare_stronger_as_greater() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    assert pokerkit.RegularLowHand("5c4d3h2cAs") > pokerkit.RegularLowHand("6d4h3c2sAh")
    assert pokerkit.EightOrBetterLowHand("5c4d3h2cAs") > pokerkit.EightOrBetterLowHand("8c7d6h4s2c")
    assert pokerkit.EightOrBetterLowHand.from_game_or_none("9c7d6h5s4c") is None


def assert_lows_match_pokerkit(multisets: Sequence[tuple[int, ...]]) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    deck = pokerkit_cards()
    hands = [cards_of(ranks) for ranks in multisets]
    their_cards = [[deck[card] for card in cards] for cards in hands]
    their_lows = [pokerkit.RegularLowHand.from_game(cards) for cards in their_cards]
    assert_same_order([razz_low(cards) for cards in hands], their_lows)

    their_eights = [pokerkit.EightOrBetterLowHand.from_game_or_none(cards) for cards in their_cards]
    our_eights = [eight_low(cards) for cards in hands]
    assert [value == 0 for value in our_eights] == [hand is None for hand in their_eights]
    qualifying = [i for i, value in enumerate(our_eights) if value]
    assert_same_order([our_eights[i] for i in qualifying], [their_eights[i] for i in qualifying])


def test_lows_match_pokerkit_on_sampled_seven_card_multisets() -> None:
    multisets = list(rank_multisets(7))
    assert_lows_match_pokerkit(random.Random(7).sample(multisets, PK_SAMPLE))


@pytest.mark.slow
def test_lows_match_pokerkit_on_every_seven_card_multiset() -> None:
    multisets = list(rank_multisets(7))
    assert len(multisets) == SEVEN_CARD_RANK_MULTISETS
    assert_lows_match_pokerkit(multisets)


def random_hands(count: int, size: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(DECK_SIZE), size) for _ in range(count)]


def flush_heavy_hands(count: int, seed: int) -> list[list[int]]:
    """Seven cards with five or more of one suit, to exercise the flush and straight-flush path."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        suit = rng.randrange(4)
        suited = rng.sample([c for c in range(DECK_SIZE) if c % 4 == suit], rng.choice([5, 6, 7]))
        rest = [c for c in range(DECK_SIZE) if c not in suited]
        hands.append(suited + rng.sample(rest, 7 - len(suited)))
    return hands


def test_stud_high_matches_pokerkit() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    deck = pokerkit_cards()
    hands = random_hands(2_000, 7, seed=1) + flush_heavy_hands(500, seed=2)
    hands += [parse_cards("As 2s 3s 4s 5s Kd Kc"), parse_cards("Ad 2c 3h 4s 5c 5d 5h")]
    theirs = [pokerkit.StandardHighHand.from_game([deck[c] for c in cards]) for cards in hands]
    assert_same_order([stud_high(cards) for cards in hands], theirs)


def test_stud_high_matches_phevaluator() -> None:
    phevaluator = pytest.importorskip("phevaluator")
    their_id = [(card + 48) % DECK_SIZE for card in range(DECK_SIZE)]  # phevaluator's ranks run 2..A
    hands = [hand for size in (5, 6, 7) for hand in random_hands(10_000, size, seed=size)]
    hands += flush_heavy_hands(5_000, seed=3)
    for cards in hands:
        # phevaluator: 1 is a royal flush, 7462 the worst high card; smaller is stronger.
        theirs = phevaluator.evaluate_cards(*(their_id[c] for c in cards))
        assert stud_high(cards) == STUD_HIGH_MAX + 1 - theirs, cards_str(cards)


# --- Batch evaluators ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 6, 7])
def test_batches_equal_scalars_on_every_rank_multiset(size: int) -> None:
    hands = [cards_of(ranks) for ranks in rank_multisets(size)]
    cards = np.array(hands, dtype=np.int8)
    for batch, scalar in (
        (razz_low_batch, razz_low),
        (eight_low_batch, eight_low),
        (action_razz_batch, action_razz_value),
    ):
        assert batch(cards).tolist() == [scalar(hand) for hand in hands]


@pytest.mark.parametrize("size", [5, 6, 7])
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int64])
def test_batches_equal_scalars_on_random_hands(size: int, dtype: type) -> None:
    hands = random_hands(5_000, size, seed=size)
    cards = np.array(hands, dtype=dtype)
    assert razz_low_batch(cards).tolist() == [razz_low(hand) for hand in hands]
    assert eight_low_batch(cards).tolist() == [eight_low(hand) for hand in hands]
    assert action_razz_batch(cards).tolist() == [action_razz_value(hand) for hand in hands]


@pytest.mark.parametrize("shape", [(10, 4), (10, 8), (7,)])
def test_batch_rejects_other_shapes(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="shape"):
        razz_low_batch(np.zeros(shape, dtype=np.int64))


# --- best_five and describe ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "kind", "five", "text"),
    [
        ("8c 6d 5h 4s 3c Kd Qh", "razz", "8c 6d 5h 4s 3c", "8-6-5-4-3 low"),
        ("Ac Ad 2c 3c 4c 5c 5s", "razz", "5s 4c 3c 2c Ad", "5-4-3-2-A low"),
        ("Kc Kd 4c 3d 2h Kh Ks", "razz", "Ks Kh 4c 3d 2h", "pair of kings"),
        ("Ac Ad 9c 8d Th As Ah", "razz", "Th 9c 8d As Ah", "pair of aces"),
        ("3c 3d 2h 2s Kc 3h Ks", "razz", "Ks 3h 3d 2s 2h", "two pair, threes and twos"),
        ("3c 3d 3h 5s 5c", "razz", "5s 5c 3h 3d 3c", "full house, threes full of fives"),
        ("8c 7d 6h 5s 4c 2d", "eight", "7d 6h 5s 4c 2d", "7-6-5-4-2 low"),
        ("9c 7d 6h 5s 4c Kd Kh", "eight", "", "no low"),
        ("Ah Kh 9h 5h 2h 2c 2d", "high", "Ah Kh 9h 5h 2h", "flush, A-K-9-5-2"),
        ("As 2d 3c 4h 5s Kd Kc", "high", "As 5s 4h 3c 2d", "straight, five high"),
        ("Kh Kd 5s 5c 9d 9s 3c", "high", "Kh Kd 9s 9d 5s", "two pair, kings and nines"),
        ("Kh Kd 5s Kc 5d 2s 3c", "high", "Kh Kd Kc 5s 5d", "full house, kings full of fives"),
        ("Ac Ad Ah As 2c 2d 2h", "high", "As Ah Ad Ac 2h", "four of a kind, aces"),
        ("6c 6d 7h 8s 9c Jd Qh", "high", "Qh Jd 9c 6d 6c", "pair of sixes"),
        ("9s 8s 7s 6s 5s 4s Ts", "high", "Ts 9s 8s 7s 6s", "straight flush, ten high"),
        ("Ah Kh Qh Jh Th 9h 2c", "high", "Ah Kh Qh Jh Th", "royal flush"),
        ("Ah Kd 9h 5c 3h 2c 7d", "high", "Ah Kd 9h 7d 5c", "high card, A-K-9-7-5"),
    ],
)
def test_best_five_and_describe(cards: str, kind: str, five: str, text: str) -> None:
    hand = parse_cards(cards)
    assert cards_str(best_five(hand, kind)) == five
    assert describe(hand, kind) == text


def test_best_five_prefers_the_highest_suits_among_equal_choices() -> None:
    assert cards_str(best_five(parse_cards("7c 7d 7h 2c 3c 4d 5c"), "razz")) == "7h 5c 4d 3c 2c"
    assert cards_str(best_five(parse_cards("Qc Qd 2c 2d 2h 2s 9c"), "high")) == "Qd 2s 2h 2d 2c"


def test_bad_input_is_reported() -> None:
    with pytest.raises(ValueError, match="5 to 7 cards"):
        razz_low(parse_cards("Ac 2d 3h 4s"))
    with pytest.raises(ValueError, match="unknown hand kind"):
        best_five(parse_cards("Ac 2d 3h 4s 5c"), "badugi")


def test_importing_builds_no_table() -> None:
    probe = "from razz_env.engine import hand_value as e; print(len(e._RAZZ_LOW), len(e._HIGH_PLAIN))"
    output = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert output.split() == ["0", "0"]
    assert len(hand_value.RANK_KEY) == DECK_SIZE
