"""The equity calculator against published figures, a brute-force oracle, and its own methods."""

from __future__ import annotations

import math
import re
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz_env.engine.cards import parse_cards
from razz_env.engine.equity import equity, parse_holding
from razz_env.engine.errors import ConfigError
from razz_env.engine.evaluation import action_razz_value, eight_low, razz_low, stud_high

SCALAR = {"razz": [razz_low], "action_razz": [action_razz_value], "stud": [stud_high],
          "stud8": [stud_high, eight_low]}


def brute_force(hands: list[str], variant: str, dead: str = "") -> list[float]:
    """Every deal of the unseen cards, player by player, valued with the scalar evaluators."""
    known = [parse_cards(h.replace("x", "").split()) for h in hands]
    missing = [7 - len(h.split()) + h.split().count("x") for h in hands]
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

    deal(0, [c for c in range(52) if c not in seen], [])
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
])
def test_exact_methods_equal_brute_force(hands: list[str], variant: str, dead: str) -> None:
    expected = brute_force(hands, variant, dead)
    methods = ["cards", "ranks"] if variant in ("razz", "action_razz") else ["cards"]
    for method in methods:
        result = equity(hands, variant, dead, method=method)
        assert result.shares == pytest.approx(expected, abs=1e-12), method
        assert sum(result.shares) == pytest.approx(1.0)


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
