"""The table encoders ("flat", "ranks" and their padded twins "flat8", "ranks8"): every named slice on hand-built
hands, no leaks, bounds, options; the plain layouts pinned byte for byte, the padded ones equal at every table size.

``RAZZ_FUZZ_EXAMPLES`` sets the hypothesis examples per category (default 25); ``-s`` prints the outcomes."""

from __future__ import annotations

import copy
import hashlib
import os
import pickle
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from razz_env.encoding import (
    ENCODINGS,
    FlatEncoder,
    Layout,
    PaddedFlatEncoder,
    PaddedRanksEncoder,
    Piece,
    RanksEncoder,
    is_padded,
    make_encoder,
    register_encoding,
)
from razz_env.encoding.encoders import BET_COUNT_BINS, default_history_slots
from razz_env.engine import Action, HandConfig, HandState, parse_cards
from razz_env.engine.config import MAX_SEATS, max_seats
from razz_env.engine.variants import VARIANTS

FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET, BET_BIG, RAISE = tuple(Action)
BIG_BET = 10
# Razz, three seats. Seat 0 (K♥ door) brings in; after 3rd street seat 1 (7-3) has the lowest board.
THREE = ["As 2s Kh 3h 4h 5h 6h", "Ad 2d 7c 3c 4c 5c 6c", "Ac 2c 8d 3d 4d 5d 6d"]


def deck_for(seat_cards: list[str]) -> list[int]:
    """A full deck dealing ``seat_cards[seat]`` in dealing order (slot ``position * seats + seat``)."""
    n = len(seat_cards)
    slots = {p * n + s: c for s, text in enumerate(seat_cards) for p, c in enumerate(parse_cards(text))}
    rest = iter(c for c in range(52) if c not in slots.values())
    return [slots[i] if i in slots else next(rest) for i in range(52)]


def config(variant: str = "razz", seats: int = 3, **kwargs) -> HandConfig:
    return HandConfig.create(variant, stacks=[100] * seats, ante=1, bring_in=2, small_bet=5, big_bet=BIG_BET,
                             **kwargs)


def one_hot(width: int, *indices: int) -> list[float]:
    out = [0.0] * width
    for i in indices:
        out[i] += 1.0
    return out


def piece(encoder: FlatEncoder, vector: np.ndarray, name: str) -> np.ndarray:
    return encoder.layout.view(vector, name)


@pytest.fixture
def fourth_street() -> HandState:
    """Seat 0 brings in, seat 1 completes, seat 2 folds, seat 0 calls: 4th street, seat 1 to act."""
    hand = HandState(config(), cards=[parse_cards(t) for t in THREE])
    for action in (BRING_IN, COMPLETE, FOLD, CALL):
        hand.act(action)
    assert (hand.street, hand.actor) == (4, 1)
    return hand


def test_every_named_slice_on_a_hand_built_state(fourth_street: HandState) -> None:
    enc = FlatEncoder(fourth_street.config)
    v = enc.encode(fourth_street, 1)
    assert v.dtype == np.float32 and v.shape == (enc.size,)
    c = {name: parse_cards(name.replace("_", " ")) for name in ("Ad_2d", "7c_3c", "8d", "Kh_3h")}
    np.testing.assert_array_equal(piece(enc, v, "own_down"), one_hot(52, *c["Ad_2d"]))
    np.testing.assert_array_equal(piece(enc, v, "own_up"), one_hot(52, *c["7c_3c"]))
    up = piece(enc, v, "up_cards")  # relative seats: 1 (observer), 2, 0
    np.testing.assert_array_equal(up, [one_hot(52, *c["7c_3c"]), one_hot(52, *c["8d"]), one_hot(52, *c["Kh_3h"])])
    np.testing.assert_array_equal(piece(enc, v, "dead_cards"), one_hot(52, *c["8d"]))
    assert not piece(enc, v, "community").any()
    np.testing.assert_allclose(piece(enc, v, "stacks"), [9.4, 9.9, 9.4], rtol=1e-6)
    assert not piece(enc, v, "round_bets").any()
    np.testing.assert_allclose(piece(enc, v, "contributed"), [0.6, 0.1, 0.6], rtol=1e-6)
    np.testing.assert_allclose(piece(enc, v, "pot"), [1.3], rtol=1e-6)
    np.testing.assert_array_equal(piece(enc, v, "to_call"), [0.0])
    np.testing.assert_allclose(piece(enc, v, "bet_size"), [0.5])
    np.testing.assert_array_equal(piece(enc, v, "street"), one_hot(5, 1))
    np.testing.assert_array_equal(piece(enc, v, "bet_count"), one_hot(BET_COUNT_BINS, 0))
    np.testing.assert_array_equal(piece(enc, v, "live"), [1, 0, 1])
    np.testing.assert_array_equal(piece(enc, v, "all_in"), [0, 0, 0])
    np.testing.assert_array_equal(piece(enc, v, "bring_in"), [0, 0, 1])
    np.testing.assert_array_equal(piece(enc, v, "to_act"), [1, 0, 0])
    np.testing.assert_array_equal(piece(enc, v, "big_bet_open"), [0])
    history = piece(enc, v, "history")
    assert history.shape == (5, enc.history_slots, 3 + 8 + 1)
    expected_third = [  # (relative seat, action, chips)
        (2, BRING_IN, 2), (0, COMPLETE, 5), (1, FOLD, 0), (2, CALL, 3),
    ]
    for slot, (rel, action, chips) in enumerate(expected_third):
        np.testing.assert_allclose(history[0, slot], one_hot(3, rel) + one_hot(8, action) + [chips / BIG_BET],
                                   rtol=1e-6)
    assert not history[0, len(expected_third):].any() and not history[1:].any()
    assert not piece(enc, v, "history_overflow").any()


def test_relative_seats_follow_the_observer(fourth_street: HandState) -> None:
    enc = FlatEncoder(fourth_street.config)
    v = enc.encode(fourth_street, 0)
    np.testing.assert_allclose(piece(enc, v, "contributed"), [0.6, 0.6, 0.1], rtol=1e-6)
    np.testing.assert_array_equal(piece(enc, v, "live"), [1, 1, 0])
    np.testing.assert_array_equal(piece(enc, v, "bring_in"), [1, 0, 0])
    np.testing.assert_array_equal(piece(enc, v, "to_act"), [0, 1, 0])
    np.testing.assert_array_equal(piece(enc, v, "own_down"), one_hot(52, *parse_cards("As 2s")))
    assert piece(enc, v, "history")[0, 0, 0] == 1.0  # seat 0 brought in: relative seat 0 for itself


def test_round_bets_to_call_and_bet_count_during_a_raise_war() -> None:
    hand = HandState(config(), deck=deck_for(THREE))
    for action in (BRING_IN, COMPLETE, RAISE):  # seat 2 raises to 10
        hand.act(action)
    enc = FlatEncoder(hand.config)
    v = enc.encode(hand, 0)  # seat 0 to act: put in 2, faces 10
    np.testing.assert_allclose(piece(enc, v, "round_bets"), [0.2, 0.5, 1.0])
    np.testing.assert_allclose(piece(enc, v, "to_call"), [0.8])
    np.testing.assert_array_equal(piece(enc, v, "bet_count"), one_hot(BET_COUNT_BINS, 2))


def test_seventh_street_down_card_community_card_and_all_in() -> None:
    seats = 8
    cfg = HandConfig.create("razz", stacks=[3] + [100] * (seats - 1), ante=1, bring_in=2, small_bet=5, big_bet=10)
    hand = HandState(cfg, seed=11)
    while hand.street < 7 and not hand.is_over:
        legal = hand.legal_actions()
        hand.act(next(a for a in (BRING_IN, CHECK, CALL) if a in legal))
    assert hand.community is not None  # eight live seats: 8 * 7 > 52
    enc = FlatEncoder(cfg)
    v = enc.encode(hand, 1)
    np.testing.assert_array_equal(piece(enc, v, "community"), one_hot(52, hand.community))
    np.testing.assert_array_equal(piece(enc, v, "own_down"), one_hot(52, *hand.down_cards(1)))
    np.testing.assert_array_equal(piece(enc, v, "street"), one_hot(5, 4))
    v0 = enc.encode(hand, 0)
    assert piece(enc, v0, "all_in")[0] == 1.0 and piece(enc, v0, "stacks")[0] == 0.0
    assert piece(enc, v, "all_in")[seats - 1] == 1.0  # seat 0 is seven seats clockwise of seat 1


def test_ranks_encoder_counts_ranks_without_suits(fourth_street: HandState) -> None:
    enc = RanksEncoder(fourth_street.config)
    v = enc.encode(fourth_street, 1)
    assert enc.size < FlatEncoder(fourth_street.config).size
    np.testing.assert_array_equal(piece(enc, v, "own_down"), one_hot(13, 0, 1))  # A, 2
    np.testing.assert_array_equal(piece(enc, v, "own_up"), one_hot(13, 6, 2))  # 7, 3
    np.testing.assert_array_equal(piece(enc, v, "up_cards")[2], one_hot(13, 12, 2))  # K, 3
    np.testing.assert_array_equal(piece(enc, v, "dead_cards"), one_hot(13, 7))  # 8
    same_ranks = FlatEncoder(fourth_street.config).encode(fourth_street, 1)
    tail = enc.layout.slices["stacks"].start, FlatEncoder(fourth_street.config).layout.slices["stacks"].start
    np.testing.assert_array_equal(v[tail[0]:], same_ranks[tail[1]:])  # chips and history are shared


def test_ranks_counts_pairs() -> None:
    cards = ["Ah 2h 5s 5c 9h Th Jh", "Ad 2d Kc Qd Jc Tc 7h"]
    hand = HandState(HandConfig.create("razz"), deck=deck_for(cards))
    while hand.street < 4:
        legal = hand.legal_actions()
        hand.act(next(a for a in (BRING_IN, CHECK, CALL) if a in legal))
    enc = RanksEncoder(hand.config)
    np.testing.assert_array_equal(piece(enc, enc.encode(hand, 0), "own_up"), one_hot(13, 4, 4))


def test_ranks_refuses_games_where_suits_matter() -> None:
    for variant in ("stud", "stud8"):
        with pytest.raises(ValueError, match="suits"):
            make_encoder("ranks", config(variant))
    assert isinstance(make_encoder("ranks", config("action_razz")), RanksEncoder)


def random_states(cfg: HandConfig, hands: int, seed: int) -> list[tuple[HandState, int]]:
    """Copies of every decision point of random hands, with the seat to act."""
    rng = random.Random(seed)
    out = []
    for _ in range(hands):
        hand = HandState(cfg, rng=rng)
        while not hand.is_over:
            out.append((copy.deepcopy(hand), hand.actor))
            hand.act(rng.choice(hand.legal_actions()))
        out.append((hand, rng.randrange(cfg.num_seats)))
    return out


@pytest.mark.parametrize("variant", ["razz", "stud8"])
@pytest.mark.parametrize("seats", [2, 3, 8])
@pytest.mark.parametrize("name", ["flat", "ranks", "flat8", "ranks8"])
def test_vectors_lie_in_the_space(variant: str, seats: int, name: str) -> None:
    cfg = config(variant, seats)
    if name.startswith("ranks") and variant != "razz":
        return
    enc = make_encoder(name, cfg)
    space = enc.observation_space
    assert space is enc.observation_space
    for hand, seat in random_states(cfg, 15, seats):
        v = enc.encode(hand, seat)
        assert v in space
        out = np.full(enc.size, 7.0, np.float32)
        assert enc.encode(hand, seat, out=out) is out
        np.testing.assert_array_equal(out, v)


@pytest.mark.parametrize("seats", [2, 3, 8])
@pytest.mark.parametrize("name", ["flat", "ranks", "flat8", "ranks8"])
def test_other_seats_down_cards_never_change_the_vector(seats: int, name: str) -> None:
    """Same up cards and actions, different hidden cards for every other seat: identical vectors."""
    cfg = config("razz", seats)
    enc = make_encoder(name, cfg)
    rng = random.Random(seats)
    for _ in range(30):
        observer = rng.randrange(seats)
        deck = list(range(52))
        rng.shuffle(deck)
        other = list(deck)
        spare = list(range(7 * seats, 52))
        positions = (0, 1, 6) if spare else (0, 1)  # a full table deals 7th cards from spare slots
        hidden = [p * seats + s for s in range(seats) if s != observer for p in positions]
        if spare:  # swap other seats' hidden cards with undealt cards
            for slot, free in zip(hidden, spare):
                other[slot], other[free] = other[free], other[slot]
        else:  # a full table: permute hidden cards among the other seats
            cards = [other[i] for i in hidden]
            rng.shuffle(cards)
            for i, card in zip(hidden, cards):
                other[i] = card
        a, b = HandState(cfg, deck=deck), HandState(cfg, deck=other)
        compared = 0
        while not a.is_over:
            if a.street == 7 and a.community is not None:
                break  # the community card is drawn from whatever is left: a deal difference, not a leak
            np.testing.assert_array_equal(enc.encode(a, observer), enc.encode(b, observer))
            compared += 1
            action = rng.choice(a.legal_actions())
            a.act(action)
            b.act(action)
        assert compared


@pytest.mark.parametrize("variant", ["razz", "stud"])
@pytest.mark.parametrize("seats", [2, 6])
@pytest.mark.parametrize("name", ["flat", "ranks"])
def test_cached_templates_match_a_fresh_encoder_at_every_step(variant: str, seats: int, name: str) -> None:
    """An encoder reused along hands (its per-seat templates warm) equals a brand-new encoder at each step."""
    if name == "ranks" and variant == "stud":
        return
    cfg = HandConfig.create(variant, num_seats=seats, stacks=60, heads_up_uncapped=True)
    warm = make_encoder(name, cfg, history_slots=4)
    cold = make_encoder(name, cfg, history_slots=4)
    rng = random.Random(seats)
    overflowed = 0
    for _ in range(16 // seats + 2):
        hand = HandState(cfg, rng=rng)
        while True:
            for seat in rng.sample(range(seats), min(seats, 3)):
                np.testing.assert_array_equal(warm.encode(hand, seat), cold.encode(copy.deepcopy(hand), seat))
            if hand.is_over:
                break
            legal = hand.legal_actions()
            hand.act(rng.choice([a for a in legal if a is not FOLD] or legal))
        overflowed += any(count > 4 for count in Counter(e.street for e in hand.history).values())
    assert overflowed  # the rare full-history path was compared too


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda obj: pickle.loads(pickle.dumps(obj))])
@pytest.mark.parametrize("name", ["flat", "ranks", "flat8"])
def test_a_copied_warm_encoder_with_its_hand_keeps_encoding_that_hand(duplicate, name: str) -> None:
    """Copied mid-hand together with its hand (as inside a pickled environment), the encoder's warm templates
    still write the vectors it returns: the copy encodes every later step as a fresh encoder does."""
    cfg = HandConfig.create("razz", num_seats=3)
    rng = random.Random(5)
    hand = HandState(cfg, rng=rng)
    warm = make_encoder(name, cfg)
    for _ in range(4):
        for seat in range(3):
            warm.encode(hand, seat)
        hand.act(rng.choice([a for a in hand.legal_actions() if a is not FOLD]))
    warm_copy, hand_copy = duplicate((warm, hand))
    steps = 0
    while not hand_copy.is_over:
        for seat in range(3):
            np.testing.assert_array_equal(warm_copy.encode(hand_copy, seat),
                                          make_encoder(name, cfg).encode(hand_copy, seat))
        hand_copy.act(rng.choice([a for a in hand_copy.legal_actions() if a is not FOLD]))
        steps += 1
    assert steps


def test_history_keeps_the_last_slots_and_flags_overflow() -> None:
    cfg = HandConfig.create("razz", stacks=[1000, 1000], heads_up_uncapped=True)
    hand = HandState(cfg, deck=deck_for(["As 2s Kh 3h 4h 5h 6h", "Ad 2d 7c 3c 4c 5c 6c"]))
    hand.act(BRING_IN)
    hand.act(COMPLETE)
    for _ in range(4):
        hand.act(RAISE)
    enc = FlatEncoder(cfg, history_slots=3)
    v = enc.encode(hand, 0)
    history = piece(enc, v, "history")
    assert [int(np.argmax(history[0, k, 2:10])) for k in range(3)] == [RAISE] * 3
    np.testing.assert_array_equal(piece(enc, v, "history_overflow"), one_hot(5, 0))
    np.testing.assert_array_equal(piece(enc, v, "bet_count"), one_hot(BET_COUNT_BINS, BET_COUNT_BINS - 1))


def test_default_history_slots_cover_a_capped_round() -> None:
    assert default_history_slots(config(seats=2), 2) == 6  # bring-in, complete, 3 raises, call
    assert default_history_slots(config(seats=3), 3) == 11
    assert default_history_slots(config(seats=8), 8) == 16
    assert default_history_slots(config(seats=2, raise_cap=0), 2) == 16


def test_max_players_pads_extra_seats_with_zeros(fourth_street: HandState) -> None:
    padded = FlatEncoder(fourth_street.config, max_players=5)
    plain = FlatEncoder(fourth_street.config)
    v = padded.encode(fourth_street, 1)
    w = plain.encode(fourth_street, 1)
    for name in ("stacks", "live", "to_act", "bring_in"):
        np.testing.assert_array_equal(piece(padded, v, name)[:3], piece(plain, w, name))
        assert not piece(padded, v, name)[3:].any()
    assert not piece(padded, v, "up_cards")[3:].any()
    with pytest.raises(ValueError, match="max_players"):
        FlatEncoder(fourth_street.config, max_players=2)
    with pytest.raises(ValueError, match="history_slots"):
        FlatEncoder(fourth_street.config, history_slots=0)


def test_describe_observation_covers_the_vector_without_gaps() -> None:
    enc = FlatEncoder(config())
    described = enc.describe_observation()
    stops = 0
    for name, (sl, text) in described.items():
        assert sl.start == stops and text, name
        stops = sl.stop
    assert stops == enc.size
    assert list(described) == [p.name for p in enc.layout.pieces]


def test_registry_and_layout_helpers() -> None:
    with pytest.raises(ValueError, match="known: flat, ranks"):
        make_encoder("nope", config())
    register_encoding("flat_copy", FlatEncoder)
    try:
        assert make_encoder("flat_copy", config()).size == FlatEncoder(config()).size
    finally:
        del ENCODINGS["flat_copy"]
    with pytest.raises(ValueError, match="duplicate"):
        Layout([Piece("a", (1,), "x"), Piece("a", (2,), "y")])
    assert "``a``" in Layout([Piece("a", (1,), "x")]).table()


def test_minirazz_every_named_slice_over_its_twelve_cards() -> None:
    """MiniRazz, three seats: cards are one-hots over its deck (Ac=0, Ad=1, 2c=2 ... 6d=11), two streets, chips
    in its big bet of 4. Seat 1's 6d door brings in, seat 2 completes, seat 0 folds, seat 1 calls: 3rd street."""
    cfg = HandConfig.create("minirazz", num_seats=3)
    hand = HandState(cfg, cards=[parse_cards("Ac 4d 2d"), parse_cards("2c 6d 3d"), parse_cards("3c 5c 6c")])
    for action in (BRING_IN, COMPLETE, FOLD, CALL):
        hand.act(action)
    assert (hand.street, hand.actor) == (3, 1)
    enc = FlatEncoder(cfg)
    assert enc.card_width == 12 and enc.history_slots == 3 + 2 * 2
    v = enc.encode(hand, 1)  # relative seats: 1 (observer), 2, 0
    np.testing.assert_array_equal(piece(enc, v, "own_down"), one_hot(12, 2))
    np.testing.assert_array_equal(piece(enc, v, "own_up"), one_hot(12, 11, 5))
    np.testing.assert_array_equal(piece(enc, v, "up_cards"), [one_hot(12, 11, 5), one_hot(12, 8, 10), one_hot(12, 7)])
    np.testing.assert_array_equal(piece(enc, v, "dead_cards"), one_hot(12, 7))
    assert not piece(enc, v, "community").any()
    np.testing.assert_allclose(piece(enc, v, "stacks"), [197 / 4, 197 / 4, 199 / 4])
    np.testing.assert_allclose(piece(enc, v, "contributed"), [0.75, 0.75, 0.25])
    np.testing.assert_allclose(piece(enc, v, "pot"), [1.75])
    np.testing.assert_allclose(piece(enc, v, "bet_size"), [1.0])
    np.testing.assert_array_equal(piece(enc, v, "street"), one_hot(2, 1))
    np.testing.assert_array_equal(piece(enc, v, "live"), [1, 1, 0])
    np.testing.assert_array_equal(piece(enc, v, "bring_in"), [1, 0, 0])
    history = piece(enc, v, "history")
    assert history.shape == (2, 7, 3 + 8 + 1)
    for slot, (rel, action, chips) in enumerate([(0, BRING_IN, 1), (1, COMPLETE, 2), (2, FOLD, 0), (0, CALL, 1)]):
        np.testing.assert_allclose(history[0, slot], one_hot(3, rel) + one_hot(8, action) + [chips / 4])
    assert not history[0, 4:].any() and not history[1].any()
    assert piece(enc, v, "history_overflow").shape == (2,)
    described = enc.describe_observation()
    assert "street one-hot, 2nd to 3rd" in described["street"][1]
    assert "one-hot over the 12 cards of the deck" in described["own_down"][1]
    ranks = RanksEncoder(cfg)
    w = ranks.encode(hand, 1)
    np.testing.assert_array_equal(piece(ranks, w, "own_down"), one_hot(6, 1))
    np.testing.assert_array_equal(piece(ranks, w, "up_cards"), [one_hot(6, 5, 2), one_hot(6, 4, 5), one_hot(6, 3)])
    assert ranks.layout.high()[ranks.layout.slices["own_up"]].max() == 2.0  # two suits: at most 2 of a rank
    assert "count per rank (A to 6, 0-2)" in ranks.describe_observation()["own_down"][1]


@pytest.mark.parametrize(("variant", "seats"), [("minirazz", 2), ("minirazz", 5), ("minirazz_large", 3),
                                                ("minirazz_tiny", 2)])
@pytest.mark.parametrize("name", ["flat", "ranks"])
def test_minirazz_vectors_lie_in_the_space_and_a_warm_encoder_equals_a_fresh_one(variant: str, seats: int,
                                                                                 name: str) -> None:
    cfg = HandConfig.create(variant, num_seats=seats, stacks=30, heads_up_uncapped=True)
    warm = make_encoder(name, cfg, history_slots=3)
    space = warm.observation_space
    assert space.shape == (warm.size,)
    rng = random.Random(seats)
    overflowed = 0
    for _ in range(12):
        hand = HandState(cfg, rng=rng)
        while True:
            for seat in range(seats):
                v = warm.encode(hand, seat)
                assert v in space
                np.testing.assert_array_equal(v, make_encoder(name, cfg, history_slots=3).encode(hand, seat))
            if hand.is_over:
                break
            legal = hand.legal_actions()
            hand.act(rng.choice([a for a in legal if a is not FOLD] or legal))
        overflowed += any(count > 3 for count in Counter(e.street for e in hand.history).values())
    assert overflowed


@pytest.mark.parametrize("variant", ["minirazz", "minirazz_large"])
def test_minirazz_other_seats_down_cards_never_change_the_vector(variant: str) -> None:
    cfg = HandConfig.create(variant, num_seats=2)
    deck_cards, up = list(cfg.variant.deck), cfg.variant.up_positions
    enc = FlatEncoder(cfg)
    rng = random.Random(3)
    for _ in range(30):
        deck = rng.sample(deck_cards, len(deck_cards))
        other = list(deck)
        hidden = [p * 2 + 1 for p in range(cfg.variant.cards_per_seat) if p not in up]  # seat 1's down cards
        for slot, free in zip(hidden, range(2 * cfg.variant.cards_per_seat, len(deck))):
            other[slot], other[free] = other[free], other[slot]
        a, b = HandState(cfg, deck=deck), HandState(cfg, deck=other)
        while not a.is_over:
            np.testing.assert_array_equal(enc.encode(a, 0), enc.encode(b, 0))
            action = rng.choice(a.legal_actions())
            a.act(action)
            b.act(action)


# ---------------------------------------------------------------- the plain layouts, pinned

PINNED = [
    # (encoding, variant, seats, options, vector size, sha256 of every seat's vector at every step of six seeded
    # random hands, then the Box's high bound and the layout's slices), written by the code before "flat8" existed
    ("flat", "razz", 2, {}, 676, "02a88e154fb5f30663e40df5df89ddb57db29c340efee696c54b3f298142e156"),
    ("ranks", "razz", 3, {}, 792, "287c5ab6ab4e3f2d83e76c41f32b4ccaac5e62af9ab4e0d65751f04cdbd65cbf"),
    ("flat", "stud", 8, {}, 2060, "b024619250e5bf37a35d11b20472d30597978aa8b2d084bbc1751e8bfc026f79"),
    ("flat", "stud8", 4, {}, 1504, "1b8b98fddd41302015b290e31439ec5c9244bdee9d8becc896e76d20ceedc2cd"),
    ("flat", "minirazz", 2, {"max_players": 4}, 398,
     "7aa1c651f1b643d6ca84df65be9d908fbbc3678515395eedb413962307130a75"),
    ("ranks", "razz", 2, {"history_slots": 3}, 277, "37fb44b9f6889787d183078f5d86b8a2221cfab0ca25e9665eda77aeee533d40"),
]


@pytest.mark.parametrize(("name", "variant", "seats", "options", "size", "sha256"), PINNED,
                         ids=[f"{n}-{v}-{s}" for n, v, s, *_ in PINNED])
def test_plain_layouts_are_pinned_byte_for_byte(name, variant, seats, options, size, sha256) -> None:
    """The shipped SB3 agents read "flat" (676 floats heads-up razz): the plain encodings never change."""
    cfg = HandConfig.create(variant, num_seats=seats)
    enc = make_encoder(name, cfg, **options)
    digest = hashlib.sha256()
    rng = random.Random(11)
    for _ in range(6):
        hand = HandState(cfg, rng=rng)
        while True:
            for seat in range(seats):
                digest.update(enc.encode(hand, seat).tobytes())
            if hand.is_over:
                break
            hand.act(rng.choice(hand.legal_actions()))
    digest.update(enc.observation_space.high.tobytes())
    digest.update(repr(enc.layout.slices).encode())
    assert (enc.size, digest.hexdigest()) == (size, sha256)
    assert "seated" not in enc.layout.slices and not is_padded(name)


# ---------------------------------------------------------------- the padded layouts ("flat8", "ranks8")

PADDED = {"flat8": (PaddedFlatEncoder, FlatEncoder), "ranks8": (PaddedRanksEncoder, RanksEncoder)}
LOWBALL = [v for v in VARIANTS if VARIANTS[v].low_board and "high" not in VARIANTS[v].showdown]
FUZZ_EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OUTCOMES: Counter = Counter()


def variants_for(name: str) -> list[str]:
    return LOWBALL if name.startswith("ranks") else list(VARIANTS)


@pytest.mark.parametrize("name", list(PADDED))
def test_padded_layout_and_space_are_the_same_at_every_table_size(name: str) -> None:
    """One variant, 2 to its most seats: the same size, named slices and Box (low and high) for every size."""
    for variant in variants_for(name):
        encoders = [make_encoder(name, HandConfig.create(variant, num_seats=seats))
                    for seats in range(2, max_seats(VARIANTS[variant]) + 1)]
        first = encoders[0]
        assert type(first) is PADDED[name][0] and is_padded(name)
        assert (first.seats, first.history_slots) == (MAX_SEATS, 16)
        for enc in encoders[1:]:
            assert enc.size == first.size and enc.describe_observation() == first.describe_observation(), variant
            assert enc.observation_space == first.observation_space, variant
            np.testing.assert_array_equal(enc.observation_space.high, first.observation_space.high)
            np.testing.assert_array_equal(enc.observation_space.low, first.observation_space.low)


def test_seated_tells_a_folded_seat_from_an_empty_position(fourth_street: HandState) -> None:
    """Three seats, seat 2 folded, seat 1 observing (relative 0 = seat 1, 1 = seat 2, 2 = seat 0)."""
    enc = PaddedFlatEncoder(fourth_street.config)
    v = enc.encode(fourth_street, 1)
    np.testing.assert_array_equal(piece(enc, v, "seated"), [1, 1, 1, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(piece(enc, v, "live"), [1, 0, 1, 0, 0, 0, 0, 0])
    assert enc.layout.slices["seated"].stop == enc.layout.slices["live"].start
    assert piece(enc, v, "history").shape == (5, 16, 8 + 8 + 1)
    np.testing.assert_allclose(piece(enc, v, "stacks"), [94 / BIG_BET, 99 / BIG_BET, 94 / BIG_BET, 0, 0, 0, 0, 0])
    assert enc.observation_space.high[enc.layout.slices["pot"]] == 8 * 100 / BIG_BET  # eight largest stacks


@pytest.mark.parametrize("name", list(PADDED))
def test_padded_options_are_fixed(name: str) -> None:
    cfg = config("razz", 3)
    assert make_encoder(name, cfg, max_players=8, history_slots=16).size == make_encoder(name, cfg).size
    with pytest.raises(ValueError, match=f"max_players: encoding '{name}' always has 8, got 6; leave it unset, or "
                                         f"use encoding '{name[:-1]}' to choose it"):
        make_encoder(name, cfg, max_players=6)
    with pytest.raises(ValueError, match=f"history_slots: encoding '{name}' always has 16, got 4"):
        make_encoder(name, cfg, history_slots=4)
    with pytest.raises(ValueError, match="known: flat, ranks, flat8, ranks8"):
        make_encoder("flat9", cfg)


def test_ranks8_refuses_games_where_suits_matter_and_names_flat8() -> None:
    with pytest.raises(ValueError, match="encoding 'ranks8' drops suits, which matter in stud; .* encoding='flat8'"):
        make_encoder("ranks8", config("stud"))


@FUZZ
@given(name=st.sampled_from(list(PADDED)), data=st.data(), seed=st.integers(0, 2**32 - 1),
       stack=st.integers(1, 400), short=st.booleans())
def test_padded_vector_is_the_wide_plain_vector_plus_seated(name: str, data, seed: int, stack: int,
                                                            short: bool) -> None:
    """Random variant, seat count, stacks and hands: the padded vector is the plain encoder's at 8 positions and
    16 slots with ``seated`` added (1 for the table's seats, 0 beyond), and lies in the Box of every table size."""
    variant = data.draw(st.sampled_from(variants_for(name)))
    seats = data.draw(st.integers(2, max_seats(VARIANTS[variant])))
    stacks = [stack] * seats
    if short:  # uneven stacks: the bound is still eight times the largest
        stacks = [data.draw(st.integers(1, stack)) for _ in range(seats - 1)] + [stack]
    cfg = HandConfig.create(variant, stacks=stacks)
    padded_cls, plain_cls = PADDED[name]
    padded, plain = padded_cls(cfg), plain_cls(cfg, max_players=MAX_SEATS, history_slots=16)
    shared = padded_cls(HandConfig.create(variant, stacks=[stack] * 2)).observation_space
    seated = padded.layout.slices["seated"]
    rng = random.Random(seed)
    hand = HandState(cfg, rng=rng)
    while True:
        seat = rng.randrange(seats)
        v = padded.encode(hand, seat)
        assert v in shared
        np.testing.assert_array_equal(v[seated], [1.0] * seats + [0.0] * (MAX_SEATS - seats))
        np.testing.assert_array_equal(np.delete(v, np.arange(seated.start, seated.stop)), plain.encode(hand, seat))
        if hand.is_over:
            break
        hand.act(rng.choice(hand.legal_actions()))
    OUTCOMES["padded vectors", "valid"] += 1


OPTION_VALUES = st.one_of(st.none(), st.integers(-3, 20), st.booleans(), st.floats(allow_nan=True),
                          st.text(max_size=3), st.just(8.0), st.just(16.0))


@FUZZ
@given(name=st.sampled_from(list(PADDED)), max_players=OPTION_VALUES, history_slots=OPTION_VALUES,
       seats=st.integers(2, 8))
def test_padded_options_fuzz(name: str, max_players, history_slots, seats: int) -> None:
    """Any value for the two fixed options: a one-line ``ValueError`` naming the option, or the fixed layout."""
    cfg = HandConfig.create("razz", num_seats=seats)
    try:
        enc = make_encoder(name, cfg, max_players=max_players, history_slots=history_slots)
    except ValueError as err:
        message = str(err)
        assert "\n" not in message and message.split(":")[0] in ("max_players", "history_slots"), message
        assert "always has" in message
        OUTCOMES["padded options", "clean error"] += 1
        return
    assert (enc.seats, enc.history_slots, enc.size) == (MAX_SEATS, 16, make_encoder(name, cfg).size)
    assert max_players in (None, MAX_SEATS) and history_slots in (None, 16)
    assert not isinstance(max_players, (bool, float)) and not isinstance(history_slots, (bool, float))
    OUTCOMES["padded options", "valid"] += 1


def teardown_module() -> None:
    if OUTCOMES and os.environ.get("RAZZ_FUZZ_EXAMPLES"):
        print("\nencoding fuzz outcomes:", dict(OUTCOMES))


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_write_own_down_gives_the_vector_of_those_down_cards(name: str) -> None:
    """Another hand's down cards written into a seat's vector give the vector that hand encodes (same public play:
    only the seats' down cards differ), at every street; -1 pads a shorter holding."""
    config = HandConfig.create("razz", num_seats=3)
    first, second = [parse_cards(c) for c in THREE], [parse_cards(c) for c in THREE]
    second[1] = parse_cards("Kc Qd") + second[1][2:6] + parse_cards("Jh")
    hands = [HandState(config, cards=cards) for cards in (first, second)]
    encoder = make_encoder(name, config)
    while not hands[0].is_over:
        vectors = np.stack([encoder.encode(hands[0], 1), encoder.encode(hands[1], 1)])
        down = np.full((2, 4), -1)
        down[0, :len(hands[1].down_cards(1))] = hands[1].down_cards(1)
        down[1, :len(hands[0].down_cards(1))] = hands[0].down_cards(1)
        encoder.write_own_down(vectors, down)
        np.testing.assert_array_equal(vectors, [encoder.encode(hands[1], 1), encoder.encode(hands[0], 1)])
        action = CALL if CALL in hands[0].legal_actions() else hands[0].legal_actions()[-1]
        for hand in hands:
            hand.act(action)
