"""Information-set keys from what a seat sees: the exact key separates any two different vectors or masks, and the
encoding each table's keys read is the rank game's for lowball variants."""

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import observe
from razz_env.engine.actions import Action
from razz_env.engine.cards import rank_of, suit_of
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.solve.abstraction import (
    abstraction_encoder,
    abstraction_layout,
    bucket_fields,
    encoding_name,
    infoset_keys,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, -1.0]), min_size=12, max_size=12),
       st.integers(0, 11), st.sampled_from([0.5, 1.0, 3.0]), st.integers(0, 4))
def test_the_exact_key_changes_with_any_entry_or_legal_id(values, where, new, legal):
    vector = np.array([values], dtype=np.float32)
    mask = np.array([[0, 1, 1, 0, 0]], dtype=np.int8)
    key = infoset_keys("exact", vector, mask)[0]
    changed = vector.copy()
    changed[0, where] = new if new != vector[0, where] else new + 1.0
    other_mask = mask.copy()
    other_mask[0, legal] ^= 1
    assert infoset_keys("exact", changed, mask)[0] != key
    assert infoset_keys("exact", vector, other_mask)[0] != key
    assert infoset_keys("exact", vector.copy(), mask.copy())[0] == key


@pytest.mark.parametrize(("variant", "encoding"), [("razz", "ranks"), ("minirazz", "ranks"), ("action_razz", "ranks"),
                                                     ("stud", "flat"), ("stud8", "flat")])
def test_lowball_games_are_keyed_on_ranks_others_on_cards(variant, encoding):
    config = HandConfig.create(variant)
    assert encoding_name(config) == encoding
    assert abstraction_encoder(config).name == encoding


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown abstraction 'coarse'; known: exact, razz_buckets, action_razz"):
        infoset_keys("coarse", np.zeros((1, 3), dtype=np.float32), np.ones((1, 5), dtype=np.int8))
    with pytest.raises(ValueError, match=r"expected \(N, size\) vectors and \(N, 5\) masks"):
        infoset_keys("exact", np.zeros((2, 3), dtype=np.float32), np.ones((1, 5), dtype=np.int8))


RAZZ = HandConfig.create("razz", stacks=1000)
LEVEL = [0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 9, 9]
GOOD_TOP = [1, 1, 1, 1, 2, 3, 4, 5]
AGGRESSIVE = {Action.COMPLETE, Action.BET, Action.BET_BIG, Action.RAISE}


def board(ranks):
    """Bricks (9 or higher, or pairing) and the highest good card's level, counted from the ranks by hand."""
    bricks = sum(1 for r in ranks if r >= 8) + sum(ranks.count(r) - 1 for r in set(ranks) if r < 8)
    good = [r for r in set(ranks) if r < 8]
    return bricks, GOOD_TOP[max(good)] if good else 0


def betting_fields(hand, seat, config):
    """The betting's fields and the legal ids, read off the hand itself."""
    street = config.variant.street_numbers.index(hand.street)
    previous = [h for h in hand.history if street and h[0] == config.variant.street_numbers[street - 1]
                and h[2] in AGGRESSIVE]
    pot = hand.pot / config.big_bet
    mask = observe(hand, seat).action_mask
    return {"street": street, "bets": min(hand.bet_count, 4), "facing": int(hand.to_call > 0),
            "brought_in_by": (hand.bring_in_seat - seat) % 2, "pot": sum(pot >= edge for edge in (1.0, 2.0, 3.5, 6.0,
                                                                                                  10.0)),
            "aggressor": (previous[-1][1] - seat) % 2 if previous else 2,
            "legal": int("".join(str(int(m)) for m in mask), 2)}


def expected_fields(hand, seat, config=RAZZ):
    """``razz_buckets``' fields read off the hand itself (the oracle: no vector involved); at Action Razz's table,
    ``action_razz_buckets``' (and whether each side has a J, Q or K)."""
    other = 1 - seat
    faces = {} if config.variant.name == "razz" else {
        "own_face": int(any(rank_of(card) >= 10 for card in hand.cards[seat])),
        "other_face": int(any(rank_of(card) >= 10 for card in hand.up_cards(other)))}
    distinct = sorted({rank_of(card) for card in hand.cards[seat]})[:5]
    own_bricks, _ = board([rank_of(card) for card in hand.up_cards(seat)])
    other_bricks, other_top = board([rank_of(card) for card in hand.up_cards(other)])
    return {"distinct": len(distinct), "top": LEVEL[distinct[-1]],
            "second": LEVEL[distinct[-2]] if len(distinct) > 1 else 10, "own_bricks": min(own_bricks, 4),
            "other_bricks": min(other_bricks, 4), "other_top": other_top, **betting_fields(hand, seat, config),
            **faces}


def razz_fine_expected(hand, seat, config):
    """``razz_fine``'s fields: ``razz_buckets``' (above) and the third-highest of the seat's best five (A-4, or five
    or higher)."""
    distinct = sorted({rank_of(card) for card in hand.cards[seat]})[:5]
    third = 0 if len(distinct) < 3 else 1 if distinct[-3] <= 3 else 2
    return {**expected_fields(hand, seat, config), "third": third}


def razz_third_expected(hand, seat, config):
    """``razz_third``'s fields: on 3rd street the seat's down ranks (low, high), its up rank, the other's up rank and
    the betting, read off the hand's cards; later ``razz_buckets``' (above)."""
    if hand.street != config.variant.street_numbers[0]:
        return expected_fields(hand, seat, config)
    down = sorted(rank_of(card) for card in hand.cards[seat][:2])
    betting = betting_fields(hand, seat, config)
    return {"street": 0, "down_low": down[0], "down_high": down[1], "up": rank_of(hand.cards[seat][2]),
            "other_up": rank_of(hand.up_cards(1 - seat)[0]), **{name: betting[name] for name in (
                "bets", "facing", "brought_in_by", "pot", "aggressor", "legal")}}


def longest_run(ranks):
    """The longest run of consecutive ranks held, the ace at either end (A-2-3 and Q-K-A)."""
    longest = run = 0
    for rank in [*range(13), 0]:
        run = run + 1 if rank in ranks else 0
        longest = max(longest, run)
    return longest


def stud8_expected(hand, seat, config):
    """``stud8_buckets``' fields read off the hand itself: its cards' ranks and suits counted by hand."""
    other = 1 - seat
    ranks = [rank_of(card) for card in hand.cards[seat]]
    counts = Counter(ranks)
    pairs = sorted(rank for rank, count in counts.items() if count == 2)
    trips = [rank for rank, count in counts.items() if count == 3]
    suited = max(Counter(suit_of(card) for card in hand.cards[seat]).values())
    run = longest_run(set(ranks))
    if 4 in counts.values() or (trips and pairs) or len(trips) > 1 or suited >= 5 or run >= 5:
        high = 6
    elif trips:
        high = 5
    elif len(pairs) > 1:
        high = 4
    elif pairs:
        high = 3 if pairs[0] == 0 else 2 if pairs[0] >= 8 else 1
    else:
        high = 0
    lows = sorted({rank for rank in ranks if rank < 8})[:5]
    shown = Counter(rank_of(card) for card in hand.up_cards(other))
    return {"low_distinct": len(lows), "low_top": lows[-1] if lows else 8, "high": high, "suited": min(suited, 5),
            "run": min(run, 5), "own_up_low": min(len({rank_of(c) for c in hand.up_cards(seat) if rank_of(c) < 8}), 4),
            "other_low": min(len([rank for rank in shown if rank < 8]), 4),
            "other_pairs": min(sum(1 for count in shown.values() if count >= 2), 2),
            "other_suited": min(max(Counter(suit_of(card) for card in hand.up_cards(other)).values()), 4),
            "other_ace": int(0 in shown), **betting_fields(hand, seat, config)}


def stud8_coarse_expected(hand, seat, config):
    """``stud8_coarse``'s fields: ``stud8_buckets``' counts (above) merged into its levels."""
    fine = stud8_expected(hand, seat, config)
    top = fine["low_top"]
    low = {5: 5 if top <= 5 else 4, 4: 3, 3: 2 if top <= 4 else 1}.get(fine["low_distinct"], 0)
    drawing = max(fine["suited"], fine["run"])
    draw = 0 if fine["high"] == 6 else 2 if drawing >= 4 else 1 if drawing == 3 else 0
    betting = {name: fine[name] for name in ("bets", "facing", "brought_in_by", "pot", "aggressor", "legal")}
    return {"street": fine["street"], "low": low, "high": fine["high"], "draw": draw,
            "other_low": min(max(fine["other_low"] - 1, 0), 2), "other_pair": int(fine["other_pairs"] > 0),
            "other_suited": int(fine["other_suited"] >= 3), "other_ace": fine["other_ace"], **betting}


STUD8 = HandConfig.create("stud8", stacks=1000)


@pytest.mark.parametrize("config, abstraction, expected, hands", [
    (RAZZ, "razz_buckets", expected_fields, 300),
    (RAZZ, "razz_fine", razz_fine_expected, 300),
    (RAZZ, "razz_third", razz_third_expected, 300),
    (HandConfig.create("action_razz", stacks=1000), "action_razz_buckets", expected_fields, 300),
    (STUD8, "stud8_buckets", stud8_expected, 600),
    (STUD8, "stud8_coarse", stud8_coarse_expected, 600)])
def test_bucket_keys_read_what_the_hand_holds(config, abstraction, expected, hands):
    """At every decision of hundreds of random hands, the key's fields are what the hand says, counted by hand."""
    encoder = abstraction_encoder(config)
    offsets = abstraction_layout(config)
    rng = random.Random(7)
    checked = 0
    faces = set()
    highs = set()
    coarse = set()
    seen = []
    for number in range(hands):
        hand = HandState(config, seed=number)
        while not hand.is_over:
            seat = hand.actor
            mask = observe(hand, seat).action_mask
            key = infoset_keys(abstraction, encoder.encode(hand, seat)[None], mask[None], offsets)[0]
            fields = bucket_fields(int(key))
            assert fields == expected(hand, seat, config)
            seen.append(fields)
            faces.add((fields.get("own_face"), fields.get("other_face")))
            highs.add(fields.get("high"))
            coarse.add((fields.get("low"), fields.get("draw")))
            checked += 1
            choice = rng.choice(np.flatnonzero(mask).tolist())
            hand.act(to_engine(choice, hand.legal_actions()))
    assert checked > 1500
    assert faces == ({(0, 0), (0, 1), (1, 0), (1, 1)} if abstraction == "action_razz_buckets" else {(None, None)})
    assert highs == (set(range(7)) if abstraction.startswith("stud8") else {None})  # every class of high met
    lows, draws = {low for low, _ in coarse}, {draw for _, draw in coarse}
    assert (lows, draws) == (({*range(6)}, {0, 1, 2}) if abstraction == "stud8_coarse" else ({None}, {None}))
    if abstraction == "razz_fine":  # every level of the new field met
        assert {fields["third"] for fields in seen} == {0, 1, 2}
    if abstraction == "razz_third":  # both layouts met, and down pairs among the 3rd-street keys
        third = [fields for fields in seen if "down_low" in fields]
        assert third and len(third) < len(seen) and any(f["down_low"] == f["down_high"] for f in third)


def test_razz_buckets_refuse_other_tables():
    from razz_env.solve.sampled_cfr import SampledCFR

    with pytest.raises(ValueError, match="'razz_buckets' reads heads-up razz, not stud with 2 seats"):
        SampledCFR(HandConfig.create("stud"), abstraction="razz_buckets")
    with pytest.raises(ValueError, match="'action_razz_buckets' reads heads-up action_razz, not razz with 2 seats"):
        SampledCFR(HandConfig.create("razz"), abstraction="action_razz_buckets")
    with pytest.raises(ValueError, match="reads the vectors' layout; pass offsets"):
        infoset_keys("razz_buckets", np.zeros((1, 3), dtype=np.float32), np.ones((1, 5), dtype=np.int8))
