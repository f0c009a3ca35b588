"""Games as data (rules.md "Games as data", "MiniRazz"): the variant declaration, its validation, and
MiniRazz played through the engine: dealing, the bring-in and the opener, the stakes and cap, the
three-card low showdown, records, text, and the seat counts a short deck can deal."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

from razz_env.engine import (
    VARIANTS,
    Action,
    ConfigError,
    HandConfig,
    HandState,
    IllegalActionError,
    Rules,
    Stakes,
    parse_cards,
)
from razz_env.engine.cards import DECK_SIZE, RANKS, card_str
from razz_env.engine.config import STREET_NAMES, VARIANT_DEFAULT, max_seats
from razz_env.engine.dealing import deck_for, position_names
from razz_env.engine.hand_value import best_hand, describe, evaluator, low_hand_count, razz_low
from razz_env.engine.phh import to_phh
from razz_env.engine.record import hand_from_record, replay_record, to_record, write_records
from razz_env.engine.text import render_hand
from razz_env.engine.variants import BIG, SMALL, Street, Variant, get_variant

FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET, BET_BIG, RAISE = tuple(Action)
MINI = get_variant("minirazz")


def mini(cards: list[str], variant: str = "minirazz", community: str | None = None, **kwargs) -> HandState:
    """A MiniRazz hand dealt the listed cards (per seat, dealing order: down, door, 3rd-street up...)."""
    config = HandConfig.create(variant, stacks=kwargs.pop("stacks", [100] * len(cards)), **kwargs)
    return HandState(config, cards=[parse_cards(c) for c in cards],
                     community=parse_cards(community)[0] if community else None)


def play(hand: HandState, *actions: Action) -> HandState:
    for action in actions:
        hand.act(action)
    return hand


def check_down(hand: HandState) -> HandState:
    """Bring in, call it, check every later street."""
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(next(a for a in (BRING_IN, CHECK, CALL) if a in legal))
    return hand


# ---------------------------------------------------------------------------- the declaration


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"ranks": ""}, "ranks must be distinct ranks"),
        ({"ranks": "A2X"}, "ranks must be distinct ranks"),
        ({"ranks": "AA2"}, "ranks must be distinct ranks"),
        ({"suits": "cx"}, "suits must be distinct suits"),
        ({"suits": "cc"}, "suits must be distinct suits"),
        ({"streets": ()}, "at least one street"),
        ({"streets": (Street(1, 1, SMALL), Street(0, 0, BIG))}, "street 2 must deal at least one card"),
        ({"streets": (Street(1, 1, "huge"),)}, "bet 'small' or 'big'"),
        ({"streets": (Street(-1, 2, SMALL),)}, "street 1 must deal"),
        ({"streets": (Street(2, 0, SMALL), Street(0, 1, BIG))}, "the first street must deal an up card"),
        ({"streets": (Street(1, 1, SMALL), Street(1, 0, BIG), Street(0, 1, BIG))}, "up cards must follow one"),
        ({"hand_size": 0}, "hand_size must be 1 to the 3 cards"),
        ({"hand_size": 4}, "hand_size must be 1 to the 3 cards"),
        ({"showdown": ()}, "showdown must be one or two of razz, action_razz, high, eight"),
        ({"showdown": ("razz", "razz")}, "showdown must be one or two"),
        ({"showdown": ("omaha",)}, "showdown must be one or two"),
        ({"showdown": ("high", "eight", "razz")}, "showdown must be one or two"),
        ({"showdown": ("high",)}, "a 'high' showdown plays five-card hands"),
    ],
)
def test_a_malformed_declaration_is_refused_naming_the_variant_and_the_field(kwargs, match):
    fields = {"name": "custom", "title": "Custom", "low_board": True, "showdown": ("razz",),
              "open_pair_big_bet": False, "ranks": "A23456", "suits": "cd",
              "streets": (Street(1, 1, SMALL), Street(0, 1, BIG)), "hand_size": 3, **kwargs}
    with pytest.raises(ConfigError, match=f"^variant custom: .*{match}"):
        Variant(**fields)


def test_the_seven_card_variants_are_declared_as_before():
    for name in ("razz", "action_razz", "stud", "stud8"):
        variant = VARIANTS[name]
        assert variant.deck == tuple(range(DECK_SIZE))
        assert variant.street_numbers == (3, 4, 5, 6, 7) and variant.faces == "dduuuud"
        assert list(variant.up_positions) == [2, 3, 4, 5] and variant.hand_size == 5
        assert max_seats(variant) == 8
    assert position_names(VARIANTS["razz"]) == ("1st down", "2nd down", "door", "4th-street", "5th-street",
                                                 "6th-street", "7th-street")


@pytest.mark.parametrize(
    ("name", "deck", "streets", "per_seat", "seats"),
    [("minirazz", 12, (2, 3), 3, 5), ("minirazz_tiny", 6, (2, 3), 3, 2), ("minirazz_small", 8, (2, 3), 3, 3),
     ("minirazz_large", 12, (2, 3, 4), 4, 3)],
)
def test_the_minirazz_presets(name, deck, streets, per_seat, seats):
    variant = VARIANTS[name]
    assert len(variant.deck) == deck and variant.street_numbers == streets
    assert variant.cards_per_seat == per_seat and variant.hand_size == 3
    assert {card_str(c)[1] for c in variant.deck} == {"c", "d"} and card_str(variant.deck[0]) == "Ac"
    assert max_seats(variant) == seats
    config = HandConfig.create(name, num_seats=seats)
    assert (config.stakes.ante, config.stakes.bring_in, config.stakes.small_bet, config.stakes.big_bet) == (1, 1, 2, 4)
    assert config.rules.raise_cap == 2 and config.big_bet == 4


def test_street_names_cover_every_street_number():
    assert [STREET_NAMES[n] for n in range(1, 8)] == ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th"]
    assert STREET_NAMES[11] == "11th" and STREET_NAMES[22] == "22nd"


# ---------------------------------------------------------------------------- stakes and config


def test_minirazz_bets_by_street_and_the_big_bet():
    config = HandConfig.create("minirazz")
    assert [config.bet_size(s) for s in (2, 3)] == [2, 4]
    with pytest.raises(ConfigError, match=r"street: minirazz plays streets \(2, 3\) \(2nd to 3rd street\), got 4"):
        config.bet_size(4)
    scheduled = HandConfig.create("minirazz_large", street_bets=[3, 5, 7])
    assert [scheduled.bet_size(s) for s in (2, 3, 4)] == [3, 5, 7] and scheduled.big_bet == 5


def test_the_seven_card_big_bet_is_the_5th_street_bet_as_before():
    assert HandConfig.create("razz").big_bet == 10
    assert HandConfig.create("stud", street_bets=[4, 4, 8, 8, 16], bring_in=1).big_bet == 8
    assert HandConfig.create("stud", street_bets=[4, 4, 8, 8, 16], bring_in=1).bet_size(7) == 16


@pytest.mark.parametrize(
    ("variant", "bets", "match"),
    [
        ("minirazz", [2, 4, 4], r"^street_bets: expected 2 sizes \(2nd to 3rd street\), got 3"),
        ("minirazz", [2], r"^street_bets: expected 2 sizes \(2nd to 3rd street\), got 1"),
        ("minirazz", [2, 0], r"^street_bets \(3rd street\): must be at least 1"),
        ("minirazz", 4, r"^street_bets: expected a list of 2 bet sizes \(2nd to 3rd street\)"),
        ("minirazz_large", [2, 4], r"^street_bets: expected 3 sizes \(2nd to 4th street\), got 2"),
        ("razz", [5, 5, 10], r"^street_bets: expected 5 sizes \(3rd to 7th street\), got 3"),
    ],
)
def test_street_bets_are_checked_against_the_variants_streets(variant, bets, match):
    with pytest.raises(ConfigError, match=match):
        HandConfig.create(variant, street_bets=bets)


def test_a_stakes_object_is_checked_against_the_variant_by_the_config():
    with pytest.raises(ConfigError, match=r"stakes\.street_bets: expected 2 sizes \(2nd to 3rd street\), got 5"):
        HandConfig(MINI, Stakes(1, 1, 2, 4, (2, 2, 4, 4, 4)), (50, 50))
    with pytest.raises(ConfigError, match=r"^bring_in: must be below the 2nd-street bet 2, got 2"):
        HandConfig.create("minirazz", bring_in=2)
    with pytest.raises(ConfigError, match=r"^bring_in: must be below the 2nd-street bet 3, got 3"):
        HandConfig.create("minirazz", bring_in=3, street_bets=[3, 6])


def test_stakes_and_cap_left_out_are_the_variants_and_none_is_no_cap():
    assert HandConfig.create("minirazz", ante=0, big_bet=6).stakes == Stakes(0, 1, 2, 6)
    assert HandConfig(MINI, Stakes(1, 1, 2, 4), (50, 50)).rules.raise_cap == 2
    assert HandConfig(MINI, Stakes(1, 1, 2, 4), (50, 50), Rules(VARIANT_DEFAULT, True)).rules == Rules(2, True)
    assert HandConfig.create("minirazz", raise_cap=0).raise_cap_for(2) is None
    assert HandConfig.create("minirazz", raise_cap=3).rules.raise_cap == 3
    assert HandConfig.create("razz").rules.raise_cap == 4
    assert HandConfig.create("minirazz") == HandConfig(MINI, Stakes(1, 1, 2, 4), (200, 200), Rules(2))


@pytest.mark.parametrize(("variant", "seats"), [("minirazz", 6), ("minirazz", 8), ("minirazz_tiny", 3),
                                                ("minirazz_small", 4), ("minirazz_large", 4)])
def test_a_seat_count_the_deck_cannot_deal_is_refused_naming_the_variant_and_the_deck(variant, seats):
    declared = VARIANTS[variant]
    with pytest.raises(ConfigError, match=rf"num_seats: {variant} seats 2 to {max_seats(declared)} \(its "
                       rf"{len(declared.deck)}-card deck deals {declared.cards_per_seat} cards a seat\), got {seats}"):
        HandConfig.create(variant, num_seats=seats)
    match = (rf"stacks: {variant} seats 2 to {max_seats(declared)} \(its {len(declared.deck)}-card deck deals "
             rf"{declared.cards_per_seat} cards a seat\), got {seats}")  # the same rule, the same words
    with pytest.raises(ConfigError, match=match):
        HandConfig(declared, Stakes(1, 1, 2, 4), [50] * seats)


def test_a_custom_variant_of_a_different_shape_plays():
    six_card = Variant("sixes", "Six-card razz", True, ("razz",), False,
                       streets=(Street(2, 1, SMALL), Street(0, 1, SMALL), Street(0, 1, BIG), Street(1, 0, BIG)))
    assert max_seats(six_card) == 8
    hand = check_down(HandState(HandConfig.create(six_card, num_seats=3), seed=4))
    assert hand.is_over and sum(hand.payoffs) == 0
    assert {e.street for e in hand.history} <= {3, 4, 5, 6}
    assert all(len(held) == 6 for held in hand.cards)
    two_up = Variant("twoup", "Two up", True, ("razz",), False, ranks="A23456", suits="cd",
                     streets=(Street(1, 2, SMALL), Street(0, 1, BIG)), hand_size=3)
    hand = HandState(HandConfig.create(two_up, stacks=[50, 50]), cards=[parse_cards("Ac 6c 2c"),
                                                                        parse_cards("2d 5d 4d")])
    assert hand.up_cards(0) == parse_cards("6c 2c") and hand.down_cards(0) == parse_cards("Ac")
    assert hand.bring_in_seat == 0  # board 6-2 is weaker than 5-4


# ---------------------------------------------------------------------------- MiniRazz: dealing and betting


def test_minirazz_deals_one_down_and_one_up_then_one_up():
    hand = mini(["Ac 4d 2d", "2c 6c 3c"])
    assert hand.street == 2 and hand.cards == [parse_cards("Ac 4d"), parse_cards("2c 6c")]
    assert hand.down_cards(0) == parse_cards("Ac") and hand.up_cards(0) == parse_cards("4d")
    play(hand, BRING_IN, CALL)
    assert hand.street == 3
    assert hand.up_cards(0) == parse_cards("4d 2d") and hand.down_cards(0) == parse_cards("Ac")
    view = hand.view(1)
    assert view.own_down == tuple(parse_cards("2c")) and view.up_cards == (tuple(parse_cards("4d 2d")),
                                                                          tuple(parse_cards("6c 3c")))


def test_the_highest_door_brings_in():
    hand = mini(["Ac 4d 2d", "2c 6c 3c"])
    assert hand.bring_in_seat == 1 and hand.actor == 1
    assert hand.legal_actions() == (BRING_IN, COMPLETE)
    assert mini(["Ac 6d 2c", "2d 4c 3c"]).bring_in_seat == 0  # the door is the second card, not the third
    assert mini(["Ac Ad 2c", "2d 5c 3c", "3d 4c 4d"]).bring_in_seat == 1


def test_a_door_tie_is_broken_by_suit_the_diamond_brings_in_over_the_club():
    assert mini(["Ac 6c 2d", "2c 6d 3c"]).bring_in_seat == 1
    assert mini(["Ac 6d 2d", "2c 6c 3c"]).bring_in_seat == 0


def test_bring_in_1_complete_2_bet_4_and_a_cap_of_two_bets():
    hand = mini(["Ac 4d 2d", "2c 6c 3c"])
    assert play(hand, BRING_IN).history[-1].amount == 1
    assert hand.legal_actions() == (FOLD, CALL, COMPLETE)
    assert play(hand, COMPLETE).history[-1].amount == 2  # the complete is the first bet
    assert hand.legal_actions() == (FOLD, CALL, RAISE)
    assert play(hand, RAISE).history[-1].amount == 3  # 1 in, raised to 4: the second and last bet
    assert hand.legal_actions() == (FOLD, CALL)
    play(hand, CALL)
    assert hand.street == 3 and hand.pot == 2 + 4 + 4
    assert hand.legal_actions() == (FOLD, CHECK, BET)
    assert play(hand, BET).history[-1].amount == 4
    assert play(hand, RAISE).history[-1].amount == 8
    assert hand.legal_actions() == (FOLD, CALL)


def test_a_bring_in_can_complete_to_2():
    hand = mini(["Ac 4d 2d", "2c 6c 3c"])
    assert play(hand, COMPLETE).history[-1].amount == 2


def test_the_best_board_opens_3rd_street():
    # The 6c door brings in each time (seat 1, then seat 2); 3rd street is opened by the best two-card board.
    hand = play(mini(["Ac 4d 2d", "2c 6c Ad", "3c 5c 4c"]), BRING_IN, CALL, CALL)
    assert hand.street == 3 and hand.actor == 0  # boards 4-2, 6-A, 5-4: 4-2 is the best low
    hand = play(mini(["Ac 4d 6d", "2c 6c Ad", "3c 5c 4c"]), BRING_IN, CALL, CALL)
    assert hand.street == 3 and hand.actor == 2  # 6-4, 6-A, 5-4: 5-4
    hand = play(mini(["Ac 4d 4c", "2c 6c Ad", "3c 5c 2d"]), BRING_IN, CALL, CALL)
    assert hand.street == 3 and hand.actor == 2  # a paired 4-4 board is the worst; 5-2 beats 6-A
    hand = play(mini(["Ac 5d 2d", "6d 5c 2c", "4c 6c 3c"]), BRING_IN, CALL, CALL)
    assert hand.street == 3 and hand.actor == 1  # 5-2 twice: the lower suits (5c 2c) open first


def test_the_bring_in_seat_must_bring_in_or_complete_not_fold():
    with pytest.raises(IllegalActionError, match="seat 1 on 2nd street: fold is not legal; legal: bring_in, complete"):
        mini(["Ac 4d 2d", "2c 6c 3c"]).act(FOLD)


# ---------------------------------------------------------------------------- MiniRazz: showdown


def test_the_best_three_card_low_wins_the_pot():
    hand = check_down(mini(["Ac 6c 2d", "2c 4d 3c"]))  # 6-2-A against 4-3-2: the highest card decides
    assert hand.payoffs == [-2, 2]
    assert hand.pots[0].winners == {"razz": [1]}


def test_pairs_are_bad_and_straights_do_not_count():
    hand = check_down(mini(["Ac Ad 2d", "4c 6c 5c"]))  # pair of aces against 6-5-4 (a "straight flush")
    assert hand.payoffs == [-2, 2]


def test_minirazz_large_plays_the_best_three_of_four_cards():
    cards = ["6c Ac 6d 2c", "3c 4c 5c 3d"]  # 6-2-A against 5-4-3 (the pair of threes is not played)
    hand = check_down(mini(cards, "minirazz_large"))
    assert len(hand.cards[0]) == 4 and hand.payoffs == [-2, 2]
    assert describe(hand.showdown_cards(1), "razz", 3) == "5-4-3 low"


def test_tied_three_card_lows_split_and_the_odd_chip_goes_to_the_highest_card():
    # Both play 6-4-2. 6d brings in (1), seat 2 folds, seat 0 calls: antes 3 + 2 = 5 chips for two seats.
    hand = play(mini(["2c 6c 4c", "2d 6d 4d", "Ac Ad 5c"]), BRING_IN, FOLD, CALL)
    assert hand.street == 3 and hand.actor == 0  # 6c 4c against 6d 4d: the lower suits open
    play(hand, CHECK, CHECK)
    assert hand.pots[0].amount == 5 and hand.pots[0].winners == {"razz": [0, 1]}
    assert hand.pots[0].shares == {0: 2, 1: 3}  # the odd chip: 6d outranks 6c
    assert hand.payoffs == [0, 1, -1]


# ---------------------------------------------------------------------------- the three-card evaluator


def _oracle_key(hand: tuple[int, ...]) -> tuple:
    """Independent ace-to-five reading of a three-card hand: fewer pairs first, then the ranks from the
    most-repeated and highest down, lower better (smaller key = better hand)."""
    ranks = [RANKS.index(card_str(c)[0]) for c in hand]
    counts = {r: ranks.count(r) for r in ranks}
    pattern = tuple(sorted(counts.values(), reverse=True))
    ordered = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (pattern, tuple(ordered))


def _oracle_best(cards: tuple[int, ...]) -> tuple:
    return min(_oracle_key(three) for three in combinations(cards, 3))


@pytest.mark.parametrize("size", [3, 4])
def test_three_card_lows_agree_with_a_brute_force_oracle_on_every_hand_of_the_a6_deck(size):
    value = evaluator("razz", 3)
    hands = list(combinations(MINI.deck, size))
    oracle = [_oracle_best(hand) for hand in hands]
    ours = [value(hand) for hand in hands]
    # The same order: sorting by our value (best first) sorts the oracle keys (best first), ties alike.
    by_value = sorted(range(len(hands)), key=lambda i: -ours[i])
    for a, b in zip(by_value, by_value[1:]):
        assert (oracle[a] < oracle[b]) == (ours[a] > ours[b]) and (oracle[a] == oracle[b]) == (ours[a] == ours[b])
    assert len(hands) == (220 if size == 3 else 495)


def test_three_card_values_span_every_low_and_read_like_razz():
    value = evaluator("razz", 3)
    all_threes = list(combinations(range(DECK_SIZE), 3))
    values = {value(hand) for hand in all_threes}
    assert values == set(range(1, low_hand_count(3) + 1))
    assert value(parse_cards("3c 2d Ac")) == low_hand_count(3)
    assert value(parse_cards("Kc Kd Ks")) == 1


def test_the_general_evaluator_of_five_cards_is_razz_low():
    generic = evaluator("razz", 5)
    assert generic is razz_low
    from razz_env.engine.hand_value import _BestLowTable

    table = _BestLowTable("razz", 5)
    for hand in combinations(range(0, DECK_SIZE, 3), 5):
        assert table[sum(8 ** (c >> 2) for c in hand)] == razz_low(hand)


def test_three_card_eight_and_action_razz():
    eight, action = evaluator("eight", 3), evaluator("action_razz", 3)
    assert eight(parse_cards("9c 2d Ac")) == 0 and eight(parse_cards("8c 7d 6c")) == 1
    assert eight(parse_cards("3c 2d Ac")) == 56 and eight(parse_cards("Ac Ad 2c")) == 0
    assert action(parse_cards("Kc 6d 5c 4d")) > action(parse_cards("3c 2d Ac"))
    with pytest.raises(ValueError, match="'high' hands have five cards"):
        evaluator("high", 3)


def test_best_hand_and_describe_of_three_cards():
    assert best_hand(parse_cards("6c 6d 2c 4d"), "razz", 3) == parse_cards("6d 4d 2c")
    assert describe(parse_cards("Ac Ad 2c"), "razz", 3) == "pair of aces"
    assert describe(parse_cards("5c 5d 5s"), "razz", 3) == "three of a kind, fives"
    assert describe(parse_cards("5c 5d 5s 6c"), "razz", 3) == "pair of fives"
    assert describe(parse_cards("5c 6d 4s"), "razz", 3) == "6-5-4 low"
    assert describe(parse_cards("9c 8d 7s"), "eight", 3) == "no low"


# ---------------------------------------------------------------------------- cards outside the deck


def test_cards_outside_the_variants_deck_are_refused_naming_the_card_and_the_deck():
    deck = r"the minirazz deck \(ranks A23456 in suits cd, 12 cards\)"
    config = HandConfig.create("minirazz")
    with pytest.raises(ConfigError, match=rf"^cards\[1\]\[1\]: 7c is not in {deck}$"):
        HandState(config, cards=[parse_cards("Ac 2c"), parse_cards("3c 7c")])
    with pytest.raises(ConfigError, match=rf"^cards\[0\]\[0\]: Ah is not in {deck}$"):
        HandState(config, cards=[parse_cards("Ah 2c"), parse_cards("3c 4c")])
    with pytest.raises(ConfigError, match=rf"^deck\[3\]: Ks is not in {deck}$"):
        HandState(config, deck=[*MINI.deck[:3], parse_cards("Ks")[0], *MINI.deck[4:]])
    with pytest.raises(ConfigError, match=r"^deck: expected all 12 cards of the minirazz deck, got 52$"):
        HandState(config, deck=list(range(DECK_SIZE)))
    with pytest.raises(ConfigError, match=rf"^seat_cards\[0\]\[1\]: 9d is not in {deck}$"):
        deck_for(["Ac 9d"], 2, "minirazz")


def test_a_deck_that_is_a_permutation_of_the_variants_deck_deals_by_fixed_slots():
    order = list(reversed(MINI.deck))
    hand = HandState(HandConfig.create("minirazz", num_seats=3), deck=order)
    assert hand.cards == [[order[0], order[3]], [order[1], order[4]], [order[2], order[5]]]
    chosen = deck_for(["Ac 6d 2d", "2c 5c 3c"], variant="minirazz")
    assert sorted(chosen) == list(MINI.deck)
    assert HandState(HandConfig.create("minirazz"), deck=chosen).cards == [parse_cards("Ac 6d"),
                                                                          parse_cards("2c 5c")]


def test_a_seeded_minirazz_hand_deals_only_deck_cards_and_repeats():
    config = HandConfig.create("minirazz", num_seats=4)
    for seed in range(30):
        hand = check_down(HandState(config, seed=seed))
        dealt = [c for held in hand.cards for c in held]
        assert set(dealt) <= set(MINI.deck) and len(set(dealt)) == 12
        assert check_down(HandState(config, seed=seed)).cards == hand.cards


def test_the_seven_card_games_deal_the_same_cards_for_a_seed_as_before():
    # Taken from the engine before variants were data: seeded hands must not change.
    hand = HandState(HandConfig.create("razz", num_seats=3), seed=2024)
    assert [card_str(c) for held in hand.cards for c in held] == ["7c", "Qh", "5h", "Th", "6s", "2h", "5d", "Ad",
                                                                  "Js"]
    eight = check_down(HandState(HandConfig.create("stud", num_seats=8), seed=77))
    assert [" ".join(map(card_str, held)) for held in eight.cards] == [
        "Jd Ah 2s 5s Ks Ad", "5d Tc Qh 2d Qs Jh", "4h 2h 7c 3h 9d Jc", "Js Qd 8d Ac Kd 6s", "3d 4d 6h 3c Td 8h",
        "7s Kh 4s 6d As 5h", "8s 6c Th 7h Ts 9c", "9h 3s 8c Kc 9s 5c"]
    assert card_str(eight.community) == "7d" and eight.payoffs == [-3, -3, -3, -3, -3, -3, 21, -3]


# ---------------------------------------------------------------------------- community card at five seats


def test_five_minirazz_seats_share_a_community_card_on_3rd_street():
    cards = ["Ac 2c", "Ad 2d", "3c 4c", "3d 4d", "5c 5d"]
    hand = check_down(mini(cards, community="6c"))
    assert hand.community == parse_cards("6c")[0]
    assert all(len(held) == 2 for held in hand.cards)
    assert hand.showdown_cards(0) == parse_cards("Ac 2c 6c")
    assert hand.pots[0].winners == {"razz": [0, 1]}
    seeded = check_down(HandState(HandConfig.create("minirazz", num_seats=5), seed=3))
    assert seeded.community is not None and len({c for h in seeded.cards for c in h} | {seeded.community}) == 11


def test_a_community_card_is_refused_where_the_deck_never_runs_short():
    with pytest.raises(ConfigError, match=r"community: with 2 seats every live seat gets its own 3rd card, so a "
                                          r"community card is never dealt \(only 5 or more seats"):
        mini(["Ac 2c 3c", "Ad 2d 3d"], community="6c")


# ---------------------------------------------------------------------------- records, PHH, text


def _finished_mini() -> HandState:
    return play(mini(["Ac 4d 2d", "2c 6c 3c"], stacks=[40, 40]), BRING_IN, COMPLETE, CALL, BET, CALL)


def test_a_minirazz_record_round_trips_and_replays():
    hand = _finished_mini()
    record = to_record(hand, players=["ann", "bob"])
    assert record["variant"] == "minirazz" and record["cards"] == [["Ac", "4d", "2d"], ["2c", "6c", "3c"]]
    assert "rules" not in record  # cap 2 is MiniRazz's default
    assert record["stakes"] == {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4}
    again = hand_from_record(json.loads(json.dumps(record)))
    assert again.payoffs == hand.payoffs == [7, -7] and again.history == hand.history
    assert replay_record(record).ok
    capped = to_record(play(mini(["Ac 4d 2d", "2c 6c 3c"], raise_cap=3), BRING_IN, FOLD))
    assert capped["rules"] == {"raise_cap": 3} and hand_from_record(capped).config.rules.raise_cap == 3


def test_a_minirazz_record_with_a_card_outside_the_deck_or_too_many_cards_is_refused():
    record = to_record(_finished_mini())
    record["cards"][1][2] = "7c"
    result = replay_record(record)
    assert result.status == "invalid" and "cards[1][2]: 7c is not in the minirazz deck" in result.message
    record["cards"][1] = ["2c", "6c", "3c", "4c"]
    assert "cards[1]: a seat holds at most 3 cards, got 4" in replay_record(record).message


def test_razz_replay_check_passes_a_minirazz_file(tmp_path, capsys):
    from razz_env.cli import main

    path = tmp_path / "mini.jsonl"
    write_records(path, [to_record(_finished_mini()), to_record(check_down(mini(["Ac Ad 2d", "4c 6c 5c"])))])
    assert main(["replay", "--check", str(path)]) == 0
    assert "2 hands, 0 mismatches, 0 illegal" in capsys.readouterr().out


def test_a_record_of_an_unregistered_variant_is_refused():
    lookalike = Variant("minirazz", "not the real one", True, ("razz",), False, ranks="A2345", suits="cd",
                        streets=(Street(1, 1, SMALL), Street(0, 1, BIG)), hand_size=3)
    hand = check_down(HandState(HandConfig.create(lookalike), seed=1))
    with pytest.raises(ConfigError, match="variant: 'minirazz' is not the registered variant of that name"):
        to_record(hand)


def test_phh_export_of_minirazz_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match=r"PHH export: PokerKit has no 'minirazz' game .*supported variants: "
                                         r"razz, stud, stud8"):
        to_phh(_finished_mini())


def test_text_shows_the_minirazz_down_card_hidden_and_the_three_card_low():
    hand = mini(["Ac 4d 2d", "2c 6c 3c"])
    text = render_hand(hand, viewer=0)
    assert "MiniRazz" in text and "2nd street" in text
    assert "seat 0: [Ac] 4d" in text and "seat 1: [##] 6c" in text
    finished = render_hand(check_down(hand))
    assert "seat 0 shows Ac 4d 2d  (low: 4-2-A low)" in finished
    assert "seat 1 shows 2c 6c 3c  (low: 6-3-2 low)" in finished


def test_configs_rules_and_hands_of_any_variant_pickle():
    import pickle

    assert pickle.loads(pickle.dumps(Rules())).raise_cap is VARIANT_DEFAULT
    config = HandConfig.create("minirazz_large", num_seats=3)
    again = pickle.loads(pickle.dumps(config))
    assert again == config and again.layout == config.layout and again.big_bet == 4
    hand = play(HandState(config, seed=5), BRING_IN)
    copy = pickle.loads(pickle.dumps(hand))
    assert check_down(copy).payoffs == check_down(hand).payoffs


def test_rules_dict_omits_the_variants_default_cap():
    assert Rules(2).to_dict(default_raise_cap=2) == {} and Rules(4).to_dict(default_raise_cap=2) == {"raise_cap": 4}
    assert Rules(4).to_dict() == {} and Rules(None).to_dict(2) == {"raise_cap": None}
    assert Rules().to_dict() == {} and Rules.from_dict({}).raise_cap is VARIANT_DEFAULT
