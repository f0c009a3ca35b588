"""The batched hand readings equal the scalar ones row by row, on random card sets (none padded anywhere)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from razz_env.agents.handread import (
    GOOD_HOLES,
    NO_RANK,
    WEAK_HOLES,
    assumed_hole_ranks,
    assumed_hole_ranks_batch,
    flush_draw,
    flush_draw_batch,
    high_key,
    high_strength,
    high_strength_batch,
    live_low_cards,
    live_low_cards_batch,
    low_key,
    low_key_batch,
    low_key_missing,
    low_ranks,
    low_ranks_batch,
)

CARD_SETS = st.lists(st.lists(st.integers(0, 51), unique=True, max_size=9), min_size=1, max_size=24)
RANK_LISTS = st.lists(st.lists(st.integers(1, 13), max_size=9), min_size=1, max_size=24)


def padded(rows: list[list[int]], none: int, draw: st.DrawFn) -> np.ndarray:
    """``rows`` as one (N, K) array, ``none`` filling the gaps, the columns shuffled (gaps anywhere in a row)."""
    width = max(len(row) for row in rows) + draw(st.integers(0, 2))
    array = np.full((len(rows), width), none, dtype=np.int64)
    for i, row in enumerate(rows):
        array[i, :len(row)] = row
    return array[:, draw(st.permutations(range(width)))]


def unpacked(key: int) -> tuple:
    """A packed low key read back as the scalar tuple."""
    cards = tuple(digit for digit in ((key >> shift) & 0xF for shift in (16, 12, 8, 4, 0)) if digit)
    return (key >> 24, (key >> 20) & 0xF, cards)


@settings(max_examples=200, deadline=None)
@given(rows=RANK_LISTS, action=st.booleans(), data=st.data())
def test_low_keys_pack_the_tuple_and_order_as_it_does(rows: list[list[int]], action: bool, data) -> None:
    finals = data.draw(st.lists(st.booleans(), min_size=len(rows), max_size=len(rows)))
    keys = low_key_batch(padded(rows, NO_RANK, data.draw), action, np.array(finals))
    expected = [low_key(row, action, final) for row, final in zip(rows, finals)]
    assert [unpacked(int(k)) for k in keys] == expected
    assert low_key_missing(keys).tolist() == [e[1] for e in expected]
    for i in range(len(rows)):
        for j in range(len(rows)):
            assert (keys[i] < keys[j]) == (expected[i] < expected[j])


def test_a_one_flag_final_serves_every_row() -> None:
    rows = [[1, 2, 3, 4, 13], [1, 2, 3, 4, 5]]
    keys = low_key_batch(np.array(rows), action=True, final=True)
    assert [unpacked(int(k)) for k in keys] == [low_key(r, True, True) for r in rows]


@settings(max_examples=200, deadline=None)
@given(rows=RANK_LISTS, picks=st.sampled_from([GOOD_HOLES, WEAK_HOLES, (0, 7, 2)]), data=st.data())
def test_assumed_hole_ranks_match_the_scalar_reading(rows: list[list[int]], picks: tuple[int, ...], data) -> None:
    hidden = data.draw(st.lists(st.integers(0, 4), min_size=len(rows), max_size=len(rows)))
    assumed = assumed_hole_ranks_batch(padded(rows, NO_RANK, data.draw), np.array(hidden), picks)
    for row, count, got in zip(rows, hidden, assumed.tolist()):
        expected = assumed_hole_ranks(row, count, picks)
        assert got == expected + [NO_RANK] * (len(picks) - len(expected))


@settings(max_examples=200, deadline=None)
@given(cards=CARD_SETS, data=st.data())
def test_live_low_cards_match(cards: list[list[int]], data) -> None:
    mine = data.draw(st.lists(st.lists(st.integers(1, 13), max_size=7), min_size=len(cards), max_size=len(cards)))
    below = data.draw(st.integers(1, 14))
    got = live_low_cards_batch(padded(mine, NO_RANK, data.draw), padded(cards, -1, data.draw), below)
    assert got.tolist() == [live_low_cards(m, c, below) for m, c in zip(mine, cards)]


@settings(max_examples=300, deadline=None)
@given(cards=CARD_SETS, data=st.data())
def test_high_strength_flush_draw_and_ranks_match(cards: list[list[int]], data) -> None:
    array = padded(cards, -1, data.draw)
    category, rank = high_strength_batch(array)
    expected = [high_strength(row) for row in cards]
    assert list(zip(category.tolist(), rank.tolist())) == expected
    keys = high_key(category, rank)
    assert all((keys[i] < keys[j]) == (expected[i] < expected[j]) for i in range(len(cards)) for j in range(len(cards)))
    assert flush_draw_batch(array).tolist() == [flush_draw(row) for row in cards]
    ranks = low_ranks_batch(array)
    assert [sorted(r[r != NO_RANK].tolist()) for r in ranks] == [sorted(low_ranks(row)) for row in cards]


def test_made_hands_are_read_in_batch() -> None:
    """Each category, with the edge cases (wheel, broadway, quads, a flush with a pair) in one batch."""
    hands = [
        [0, 4, 8, 12, 16],      # A2345 of clubs: a flush (ace high) beats the wheel straight
        [0, 5, 10, 15, 16],     # A-2-3-4-5 mixed suits: the wheel, five high
        [36, 40, 44, 48, 1],    # T J Q K A: broadway
        [4, 5, 6, 7, 8],        # four deuces
        [4, 5, 6, 8, 9],        # deuces full of threes
        [4, 5, 8, 9, 12],       # two pair
        [],
    ]
    category, rank = high_strength_batch(padded_plain(hands))
    assert list(zip(category.tolist(), rank.tolist())) == [high_strength(h) for h in hands]
    assert category.tolist() == [5, 4, 4, 7, 6, 2, 0]


def padded_plain(rows: list[list[int]]) -> np.ndarray:
    width = max(len(row) for row in rows)
    return np.array([row + [-1] * (width - len(row)) for row in rows], dtype=np.int64)
