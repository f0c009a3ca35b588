"""The equity calculator against published figures, a brute-force oracle, and its own methods."""

from __future__ import annotations

import atexit
import math
import os
import re
from collections import Counter
from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz_env.engine.cards import parse_cards
from razz_env.engine.equity import equity, parse_holding, range_equity
from razz_env.engine.errors import ConfigError
from razz_env.engine.hand_value import action_razz_value, eight_low, evaluator, razz_low, stud_high
from razz_env.engine.variants import VARIANTS

SCALAR = {"razz": [razz_low], "action_razz": [action_razz_value], "stud": [stud_high],
          "stud8": [stud_high, eight_low], **{name: [evaluator("razz", 3)] for name in VARIANTS if "minirazz" in name}}


def brute_force(hands: list[str], variant: str, dead: str = "") -> list[float]:
    """Every deal of the unseen cards of the variant's deck, player by player, valued with the scalar evaluators."""
    full = VARIANTS[variant].cards_per_seat
    known = [parse_cards(h.replace("x", "").split()) for h in hands]
    missing = [full - len(h.split()) + h.split().count("x") for h in hands]
    seen = {c for k in known for c in k} | set(parse_cards(dead.split()))
    shares = [0.0] * len(hands)
    deals = 0

    def deal(player: int, left: list[int], held: list[list[int]]) -> None:
        nonlocal deals
        if player == len(hands):
            deals += 1
            for i, s in enumerate(_split(held, variant)):
                shares[i] += s
            return
        for drawn in combinations(left, missing[player]):
            rest = [c for c in left if c not in drawn]
            deal(player + 1, rest, held + [known[player] + list(drawn)])

    deal(0, [c for c in VARIANTS[variant].deck if c not in seen], [])
    return [s / deals for s in shares]


def _split(held: list[list[int]], variant: str) -> list[float]:
    evaluators = SCALAR[variant]
    values = [[f(cards) for cards in held] for f in evaluators]
    halves = [values[0]]
    if variant == "stud8" and max(values[1]) > 0:
        halves.append(values[1])
    share = [0.0] * len(held)
    for half in halves:
        best = max(half)
        winners = [i for i, v in enumerate(half) if v == best]
        for i in winners:
            share[i] += 1 / len(winners) / len(halves)
    return share


def test_published_razz_matchups() -> None:
    """CardPlayer (propokertools): A23 vs 678 59.56/40.44; A2K vs 678 32.64/67.36, four cards to come each."""
    first = equity(["As 2s 3s", "6h 7h 8h"], "razz")
    second = equity(["As 2s Ks", "6h 7h 8h"], "razz")
    assert [round(100 * s, 2) for s in first.shares] == [59.56, 40.44]
    assert [round(100 * s, 2) for s in second.shares] == [32.64, 67.36]
    assert first.exact and first.method == "ranks"
    assert first.outcomes == math.comb(46, 4) * math.comb(42, 4)
    left = [4 - (r in (0, 1, 2)) - (r in (5, 6, 7)) for r in range(13)]
    draws = sum(all(d.count(r) <= left[r] for r in range(13)) for d in combinations_with_replacement(range(13), 4))
    assert first.evaluated == draws ** 2


@pytest.mark.parametrize(("hands", "variant", "dead"), [
    (["As 2d 3c 4h 5s Kd", "x 6c 7d 8h 9s Ts"], "razz", "Ks"),
    (["As 2d 3c 4h 5s Kd", "x Jc 7d 8h 9s 9d"], "action_razz", ""),
    (["Ah Kh Qh 2c 3d 9s", "x Jc Jd 8h 9h 9d"], "stud", "Tc"),
    (["Ah 2h 3h 4c Kd 9s", "x 6c 7d 8h Qs Qd"], "stud8", ""),
    (["As 2d 3c 4h 5s 6d", "x 7c 8d 9h Ts Jc", "Ah 2c 3d 4s Qh Kh Kc"], "stud8", ""),
    (["As 2d 3c 4h 5s 6d", "Ah 2c 3d 4s 5h 6h", "Qc Kd Jh Ts 9c 9d"], "razz", ""),
    (["Ac 2c x", "x 6d x"], "minirazz", ""),
    (["Ac x", "x 6d", "x 2d"], "minirazz", "3c"),
    (["x 2c", "x 2d", "x 3c"], "minirazz", ""),
    (["Ac 2c 3d", "x 5d"], "minirazz_large", "6c 6d"),
    (["x 3c", "x 3d"], "minirazz_tiny", ""),
])
def test_exact_methods_equal_brute_force(hands: list[str], variant: str, dead: str) -> None:
    expected = brute_force(hands, variant, dead)
    methods = ["cards", "ranks"] if variant not in ("stud", "stud8") else ["cards"]
    for method in methods:
        result = equity(hands, variant, dead, method=method)
        assert result.shares == pytest.approx(expected, abs=1e-12), method
        assert sum(result.shares) == pytest.approx(1.0)


def test_minirazz_equity_deals_only_its_deck_and_plays_three_cards() -> None:
    # A-2 against 6 up: one card to come each from the 9 unseen of the A-6 deck (no 7s or kings to draw).
    result = equity(["Ac 2c x", "x 6d x"], "minirazz")
    assert result.exact and result.outcomes == math.comb(9, 1) * math.comb(8, 2)
    assert equity(["Ac 2c 3c", "4d 5d 6d"], "minirazz").shares == (1.0, 0.0)  # no 7-card razz from a full deck
    sampled = equity(["Ac 2c x", "x 6d x"], "minirazz", method="monte_carlo", samples=40_000, seed=1)
    for value, estimate, error in zip(result.shares, sampled.shares, sampled.std_errors):
        assert abs(value - estimate) < 4 * error


@pytest.mark.parametrize(("call", "match"), [
    (lambda: equity(["Ac 7c", "x x"], "minirazz"), r"^hands\[0\]: 7c is not in the minirazz deck \(ranks A23456 in "
                                                     r"suits cd, 12 cards\)$"),
    (lambda: equity(["Ac x", "x x"], "minirazz", "Kh"), r"^dead: Kh is not in the minirazz deck"),
    (lambda: equity(["Ac 2c 3c 4c", "x x"], "minirazz"), r"^hands\[0\]: at most 3 cards, got 4$"),
    (lambda: range_equity("Ac 2c", "6d", [["7c"]], variant="minirazz"), r"^holdings\[0\]: 7c is not in the minirazz"),
    (lambda: range_equity("Ac Th", "6d", [["3c"]], variant="minirazz"), r"^hero: Th is not in the minirazz deck"),
    (lambda: range_equity("Ac 2c", "6d", [["3c", "4c", "5c"]], variant="minirazz"), r"^holdings: expected an "
                                                                                   r"\(H, k\) "
                                                                              r"array of down cards, H >= 1 and 1 <= k "
                                                                              r"<= 2 beside 1 up cards"),
])
def test_minirazz_equity_refuses_cards_outside_its_deck_and_hands_too_big(call, match) -> None:
    with pytest.raises(ConfigError, match=match):
        call()


@pytest.mark.parametrize("variant", ["minirazz", "minirazz_large"])
def test_minirazz_range_equity_methods_agree_with_equity_of_each_holding(variant: str) -> None:
    holdings = [["3c"], ["4d"], ["5c"], ["Ad"], ["6c"]]
    results = {method: range_equity("Ac 2c", "6d", holdings, [1, 2, 3, 4, 5], variant, method=method)
               for method in ("ranks", "cards")}
    for holding, ranks, cards in zip(holdings, results["ranks"].per_holding, results["cards"].per_holding):
        expected = equity(["Ac 2c" + " x" * (VARIANTS[variant].cards_per_seat - 2), f"{holding[0]} 6d"
                           + " x" * (VARIANTS[variant].cards_per_seat - 2)], variant).shares[0]
        assert ranks == pytest.approx(expected, abs=1e-12) and cards == pytest.approx(expected, abs=1e-12)
    assert results["ranks"].equity == pytest.approx(results["cards"].equity, abs=1e-12)


def test_monte_carlo_agrees_with_the_exact_answer_within_its_error() -> None:
    hands = ["As 2d 3c", "x x 8h"]
    exact = equity(hands, "razz")
    sampled = equity(hands, "razz", method="monte_carlo", samples=40_000, seed=3)
    assert not sampled.exact and sampled.outcomes == 40_000
    for value, estimate, error in zip(exact.shares, sampled.shares, sampled.std_errors):
        assert 0 < error < 0.01
        assert abs(value - estimate) < 4 * error


def test_auto_samples_when_enumeration_is_too_big_and_is_seeded() -> None:
    hands = ["Ah Kh", "x x Qd", "x x Jc"]
    first = equity(hands, "stud", max_outcomes=1000, samples=5000, seed=9)
    again = equity(hands, "stud", max_outcomes=1000, samples=5000, seed=9)
    assert first.method == "monte_carlo" and first == again


def test_razz_with_two_unseen_down_cards_a_player_is_exact_by_default() -> None:
    """111,490,379 rank draws: past the 20M-showdown limit of a card count, but a few seconds of rank draws."""
    from razz_env.engine.equity import DEFAULT_MAX_OUTCOMES, RANK_DRAWS_PER_OUTCOME

    result = equity(["8h 7d", "x x 5c"], "razz")
    assert result.method == "ranks" and result.exact
    assert DEFAULT_MAX_OUTCOMES < result.evaluated <= DEFAULT_MAX_OUTCOMES * RANK_DRAWS_PER_OUTCOME


@pytest.mark.parametrize(("hands", "variant", "kwargs", "message"), [
    (["x"] * 6, "razz", {"method": "ranks"}, "'ranks' would count 14,192,386,078,629,828,614,422,515,625 rank draws"),
    (["As 2s", "Kd Kh"], "stud", {"method": "cards"}, "'cards' would count 1,648,260,405,792 card showdowns"),
    (["As 2s", "Kd Kh"], "razz", {"samples": 10**10}, "samples: must be at most 1000000000"),
    (["As 2s", "Kd Kh"], "razz", {"seed": -1}, "seed: must be at least 0, got -1"),
    (["As 2s", "Kd Kh"], "razz", {"max_outcomes": 0}, "max_outcomes: must be at least 1, got 0"),
])
def test_huge_or_bad_requests_are_refused_before_any_work(hands, variant, kwargs, message) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        equity(hands, variant, **kwargs)


def test_identical_rank_hands_split_the_pot() -> None:
    result = equity(["As 2s 3s 4s 5s 9c 9d", "Ah 2h 3h 4h 5h 9s 9h"], "razz")
    assert result.shares == (0.5, 0.5) and result.scoops == (0.0, 0.0)


def test_parse_holding_reads_stud_notation_and_unknown_cards() -> None:
    assert parse_holding("(As x) 3c") == parse_holding(["As", None, "3c"])
    assert parse_holding([0, "x"]).unseen == 6


@pytest.mark.parametrize(("hands", "variant", "message"), [
    (["As 2s", "As 3d"], "razz", "card As is dealt twice"),
    (["As 2s 3s 4s 5s 6s 7s 8s", "x"], "razz", "at most 7 cards"),
    (["As"], "razz", "give 2 to 8 players"),
    (["As", "Zz"], "razz", "hands[1]"),
    (["As", True], "razz", "hands[1]"),
    (["As", "2s"], "holdem", "unknown variant"),
    (["x"] * 8, "razz", "56 unseen cards are needed but only 52 are left"),
])
def test_bad_input_names_the_field(hands: list, variant: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        equity(hands, variant)


def test_ranks_method_is_refused_where_suits_matter() -> None:
    with pytest.raises(ConfigError, match="suit-free"):
        equity(["As", "2s"], "stud", method="ranks")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(range(52)), min_size=11, max_size=12, unique=True),
       st.sampled_from(["razz", "action_razz", "stud", "stud8"]))
def test_shares_are_a_split_of_the_pot(cards: list[int], variant: str) -> None:
    hands = [cards[:6], cards[6:]]
    result = equity(hands, variant)
    assert result.exact
    assert sum(result.shares) == pytest.approx(1.0)
    assert all(0.0 <= s <= 1.0 for s in result.shares)
    assert all(scoop <= share + 1e-12 for scoop, share in zip(result.scoops, result.shares))


# --------------------------------------------------------------------------- ranges

RANGE_CASES = [
    ("As 2d 3c 4h 9s Kd", "5c 6d 7h 8s", "razz", ""),
    ("As 2d 3c 4h 9s Kd", "Jc Qd 7h 8s", "action_razz", ""),
    ("Ah Kh Qh 2c 3d 9s", "Jc Jd 8h 9h", "stud", "Tc"),
    ("Ah 2h 3h 4c Kd 9s", "6c 7d 8h Qs", "stud8", ""),
]


def _small_range(hero: str, up: str, dead: str, size: int, seed: int) -> np.ndarray:
    """``size`` random two-card holdings from the cards nobody shows."""
    seen = set(parse_cards((hero + " " + up + " " + dead).split()))
    unseen = [c for c in range(52) if c not in seen]
    pairs = list(combinations(unseen, 2))
    picks = np.random.default_rng(seed).choice(len(pairs), size, replace=False)
    return np.array([pairs[i] for i in picks])


@pytest.mark.parametrize(("hero", "up", "variant", "dead"), RANGE_CASES)
def test_range_equity_is_the_equity_of_each_holding_and_their_weighted_mean(hero, up, variant, dead) -> None:
    """Every exact method gives, per holding, what :func:`equity` gives for that holding's cards."""
    held = _small_range(hero, up, dead, 12, seed=len(variant))
    weights = np.arange(1, len(held) + 1, dtype=float)
    expected = [equity([hero, [*map(int, h), *parse_cards(up.split())]], variant, dead).shares[0] for h in held]
    methods = ["ranks", "cards"] if variant in ("razz", "action_razz") else ["cards"]
    for method in methods:
        result = range_equity(hero, up, held, weights, variant, dead, method=method)
        assert result.exact and result.method == method
        assert result.per_holding.tolist() == pytest.approx(expected, abs=1e-12), method
        assert result.equity == pytest.approx(float(np.dot(weights, expected) / weights.sum()), abs=1e-12)
        assert result.outcomes == math.comb(52 - 10 - len(dead.split()) - 2, 1) * math.comb(39 - len(dead.split()), 1)


def test_range_equity_by_ranks_matches_equity_with_cards_to_come_on_5th_street() -> None:
    hero, up = "As 2d 9c 4h Kd", "5c 6d 7h"
    held = _small_range(hero, up, "", 6, seed=2)
    result = range_equity(hero, up, held, None, "razz", method="ranks")
    for holding, share in zip(held, result.per_holding):
        assert share == pytest.approx(equity([hero, [*map(int, holding), *parse_cards(up.split())]]).shares[0],
                                      abs=1e-12)
    assert result.equity == pytest.approx(float(np.mean(result.per_holding)))


def test_range_equity_on_7th_street_compares_finished_hands() -> None:
    result = range_equity("As 2d 3c 8h 9s Kd Kc", "4h 5h Qh Th", [["Jc", "Qc", "Jd"], ["Ac", "2c", "3d"]], [1, 3])
    assert result.per_holding.tolist() == [1.0, 0.0]
    assert result.equity == pytest.approx(0.25) and result.outcomes == 1
    tie = range_equity("As 2d 3c 4d 5s Kd Kc", "4h 5h Qh Th", [["Ah", "2h", "3h"]])
    assert tie.per_holding.tolist() == [0.5] and tie.equity == 0.5


@pytest.mark.parametrize(("hero", "up", "variant", "size"), [
    ("As 2d 3c 9h", "8h 4d", "razz", 20),
    ("Ah 2h 3c 9h Kd 6s", "8h 4d Ks 7c", "stud8", 10),
])
def test_range_equity_sampling_agrees_with_the_exact_answer_within_its_errors(hero, up, variant, size) -> None:
    held = _small_range(hero, up, "", size, seed=5)
    weights = np.linspace(1, 3, len(held))
    exact = [equity([hero, [*map(int, h), *parse_cards(up.split())]], variant).shares[0] for h in held]
    sampled = range_equity(hero, up, held, weights, variant, method="monte_carlo", samples=3000, seed=4)
    assert not sampled.exact and sampled.outcomes == 3000
    assert 0 < sampled.std_error < 0.02
    z = (sampled.per_holding - exact) / sampled.std_errors
    assert np.abs(z).max() < 4.5
    truth = float(np.dot(weights, exact) / weights.sum())
    assert abs(sampled.equity - truth) < 4 * sampled.std_error


def test_range_equity_standard_error_matches_the_spread_over_seeds() -> None:
    """The stated standard error of the range equity is the actual spread of the estimate (within 35%)."""
    hero, up = "As 2d 3c 9h", "8h 4d"
    held = _small_range(hero, up, "", 40, seed=6)
    runs = [range_equity(hero, up, held, None, "razz", method="monte_carlo", samples=400, seed=s)
            for s in range(40)]
    spread = float(np.std([r.equity for r in runs], ddof=1))
    stated = float(np.mean([r.std_error for r in runs]))
    assert 0.65 < stated / spread < 1.35


def test_range_equity_auto_is_exact_late_and_samples_early_and_is_seeded() -> None:
    late = range_equity("As 2d 3c 4h 9s Kd", "5c 6d 7h 8s", _small_range("As 2d 3c 4h 9s Kd", "5c 6d 7h 8s", "", 5, 1))
    assert late.method == "ranks"
    held = _small_range("As 2d 3c", "8h", "", 50, 1)
    first = range_equity("As 2d 3c", "8h", held, samples=500, seed=3)
    again = range_equity("As 2d 3c", "8h", held, samples=500, seed=3)
    assert first.method == "monte_carlo" and first.equity == again.equity
    assert first.per_holding.tolist() == again.per_holding.tolist()
    stud = range_equity("Ah Kh Qh 2c 3d 9s", "Jc Jd 8h 9h", _small_range("Ah Kh Qh 2c 3d 9s", "Jc Jd 8h 9h", "", 4, 1),
                        variant="stud")
    assert stud.method == "cards"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"holdings": [["As", "Kd"]]}, "holdings[0]: As Kd holds a card of hero"),
    ({"holdings": [["Kd", "Kd"]]}, "holdings[0]: a card appears twice"),
    ({"holdings": [["Kd"], ["Qd", "Jd"]]}, "holdings: expected an (H, k) array"),
    ({"holdings": []}, "holdings: expected an (H, k) array"),
    ({"holdings": [["Kd", "Zz"]]}, "holdings[0]: "),
    ({"holdings": np.array([[60, 1]])}, "holdings: card ids are 0-51"),
    ({"weights": [1, 2, 3]}, "weights: expected one per holding (2)"),
    ({"weights": [-1, 2]}, "weights: must be finite, non-negative and not all zero"),
    ({"weights": [0, 0]}, "weights: must be finite, non-negative and not all zero"),
    ({"weights": [float("nan"), 1]}, "weights: must be finite"),
    ({"weights": ["a", "b"]}, "weights: expected 2 numbers"),
    ({"method": "exact"}, "method: unknown 'exact'"),
    ({"method": "ranks", "variant": "stud"}, "method: 'ranks' needs a suit-free variant"),
    ({"hero": "As 2s 3s 4s 5s 6s 7s 8s"}, "hero: give 1 to 7 cards, got 8"),
    ({"opponent_up": "As"}, "card As is dealt twice"),
    ({"samples": 1, "method": "monte_carlo"}, "samples: must be at least 2, got 1"),
    ({"samples": 10**10}, "samples: must be at most 1000000000, got 10000000000"),
    ({"samples": 10**8, "method": "monte_carlo", "variant": "stud"},
     "samples: 100,000,000 runouts of 2 holdings would hold about"),
    ({"method": "cards", "max_outcomes": 1000},
     "method: 'cards' would compare 75,722,752,800 showdowns, more than max_outcomes (1,000)"),
    ({"variant": "holdem"}, "unknown variant"),
    ({"max_outcomes": 0}, "max_outcomes: must be at least 1, got 0"),
    ({"max_outcomes": "many"}, "max_outcomes: expected an integer"),
    ({"seed": -1}, "seed: must be at least 0, got -1"),
    ({"seed": 1.5}, "seed: expected an integer or None"),
])
def test_range_equity_bad_input_names_the_field(kwargs: dict, message: str) -> None:
    arguments = {"hero": "As 2d 3c", "opponent_up": "8h", "holdings": [["Kd", "Qc"], ["4c", "5c"]], **kwargs}
    with pytest.raises(ConfigError, match=re.escape(message)):
        range_equity(**arguments)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from(range(52)), min_size=10, max_size=10, unique=True),
       st.lists(st.floats(0.0, 10.0), min_size=6, max_size=6).filter(lambda w: sum(w) > 0),
       st.sampled_from(["razz", "action_razz", "stud", "stud8"]), st.randoms(use_true_random=False))
def test_range_equity_is_a_share_permutes_with_its_holdings_and_ignores_weight_scale(cards, weights, variant,
                                                                                      rnd) -> None:
    hero, up = cards[:6], cards[6:10]
    unseen = [c for c in range(52) if c not in cards]
    held = np.array([rnd.sample(unseen, 2) for _ in range(6)])
    held = held[np.unique(np.sort(held, axis=1), axis=0, return_index=True)[1]]
    weight = np.array(weights[:len(held)]) + 1e-9
    result = range_equity(hero, up, held, weight, variant)
    assert result.exact and 0.0 <= result.equity <= 1.0
    assert ((0.0 <= result.per_holding) & (result.per_holding <= 1.0)).all()
    order = np.arange(len(held))[::-1]
    flipped = range_equity(hero, up, held[order], weight[order] * 7.5, variant)
    assert flipped.per_holding.tolist() == pytest.approx(result.per_holding[order].tolist(), abs=1e-12)
    assert flipped.equity == pytest.approx(result.equity, abs=1e-12)


# RAZZ_FUZZ_EXAMPLES=2000 pytest tests/engine/test_equity.py -n 0 -s -k fuzz prints the figures.
RANGE_FUZZ_EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "60"))
RANGE_FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nrange_equity fuzz figures:", dict(sorted(RANGE_FIGURES.items()))))

_ANY_CARD = st.one_of(st.integers(-3, 55), st.sampled_from(["As", "Kd", "2c", "x", "10h", "", "Zz"]), st.none(),
                      st.booleans(), st.floats(allow_nan=True))


@st.composite
def _range_inputs(draw):
    """Mostly well-formed inputs (distinct cards of the variant's deck, one holding size) with, sometimes, one
    part corrupted (cards from outside a MiniRazz deck included)."""
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    declared = VARIANTS[variant]
    deck = draw(st.permutations(declared.deck if draw(st.integers(0, 9)) else range(52)))
    full = declared.cards_per_seat
    hero_size, up_size = draw(st.integers(1, full)), draw(st.integers(0, len(declared.up_positions)))
    size = draw(st.integers(1, max(1, min(3, full - up_size))))
    rest = deck[hero_size + up_size:]
    count = draw(st.integers(1, 6))
    holdings = [rest[i * size:(i + 1) * size] for i in range(count)]
    arguments = {"hero": deck[:hero_size], "opponent_up": deck[hero_size:hero_size + up_size], "holdings": holdings,
                 "weights": draw(st.one_of(st.none(), st.lists(st.floats(0, 5), min_size=count, max_size=count))),
                 "variant": variant,
                 "method": draw(st.sampled_from(["auto", "ranks", "cards", "monte_carlo"]))}
    corrupt = draw(st.sampled_from([None, None, "hero", "opponent_up", "holdings", "weights", "variant", "method",
                                    "max_outcomes", "samples", "seed"]))
    if corrupt in ("hero", "opponent_up"):
        arguments[corrupt] = draw(st.one_of(st.lists(_ANY_CARD, max_size=8), st.text(max_size=12)))
    elif corrupt == "holdings":
        arguments["holdings"] = draw(st.one_of(st.lists(st.lists(_ANY_CARD, max_size=3), max_size=4),
                                               st.lists(st.lists(st.integers(0, 51), max_size=4), max_size=4),
                                               st.integers(), st.text(max_size=6)))
    elif corrupt == "weights":
        arguments["weights"] = draw(st.one_of(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=7),
                                              st.text(max_size=4)))
    elif corrupt in ("max_outcomes", "samples", "seed"):
        arguments[corrupt] = draw(st.one_of(st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=3),
                                            st.booleans(), st.none()))
    elif corrupt is not None:
        arguments[corrupt] = draw(st.text(max_size=8))
    return arguments


@settings(max_examples=RANGE_FUZZ_EXAMPLES, deadline=None)
@given(arguments=_range_inputs())
def test_fuzz_range_equity_gives_a_share_or_one_clean_error(arguments):
    """Any input: a valid result (shares in [0, 1]) or a ConfigError naming the field, never another exception."""
    try:
        result = range_equity(**{"max_outcomes": 50_000, "samples": 50, **arguments})
    except ConfigError as err:
        RANGE_FIGURES["clean error"] += 1
        assert "\n" not in str(err) and str(err)
        return
    RANGE_FIGURES[f"valid ({result.method})"] += 1
    assert 0.0 <= result.equity <= 1.0
    assert ((0.0 <= result.per_holding) & (result.per_holding <= 1.0)).all()
