"""Rule presets (house, wsop_2023) and the smallest chip: each option tested at the decision it changes."""

from __future__ import annotations

import pytest

from razz_env.engine import ConfigError, HandConfig, HandState, Table, hand_from_record, to_record
from razz_env.engine.actions import Action
from razz_env.engine.cards import parse_cards
from razz_env.engine.presets import PRESETS

BIG_CHIPS = {"chip": 25_000, "ante": 25_000, "bring_in": 50_000, "small_bet": 100_000, "big_bet": 200_000,
             "stacks": 2_000_000}


def deal(variant: str, hands: list[str], **options: object) -> HandState:
    """A hand of ``variant`` dealing each seat the cards of ``hands`` (dealing order)."""
    config = HandConfig.create(variant, num_seats=len(hands), **options)
    return HandState(config, cards=[parse_cards(text) for text in hands])


def play(hand: HandState, actions: list[str]) -> HandState:
    for action in actions:
        hand.act(action)
    return hand


# ---------------------------------------------------------------- a tied door card: who brings in


@pytest.mark.parametrize(("variant", "hands", "house", "wsop"), [
    ("razz", ["2c 3c Kh", "4c 5c Ks", "6c 7c 9d"], 1, 0),  # razz: K♠ over K♥ by suit; seat 0 by position
    ("stud8", ["Kc Qc 2d", "Kd Qd 2c", "Jc Tc 9d"], 1, 0),  # stud8: 2♣ by suit; seat 0 by position
    ("stud", ["Kc Qc 2d", "Kd Qd 2c", "Jc Tc 9d"], 1, 1),  # stud high keeps suits under wsop_2023
    ("action_razz", ["2c 3c Kh", "4c 5c Ks", "6c 7c 9d"], 1, 0),
])
def test_a_tied_door_card_brings_in_by_suit_in_house_and_by_position_in_wsop(variant, hands, house, wsop):
    assert deal(variant, hands).bring_in_seat == house
    assert deal(variant, hands, rules="wsop_2023").bring_in_seat == wsop
    assert deal(variant, hands, board_tie_break="position").bring_in_seat == 0
    assert deal(variant, hands, rules="wsop_2023", board_tie_break="suit").bring_in_seat == 1


def test_position_skips_a_seat_all_in_for_the_ante_as_suits_do():
    hand = deal("razz", ["2c 3c Kh", "4c 5c Ks", "6c 7c 9d"], rules="wsop_2023", stacks=[1, 200, 200])
    assert hand.bring_in_seat == 1


def test_minirazz_breaks_a_tied_door_by_position_under_wsop():
    hands = ["Ac 6c", "2d 6d", "3c 4c"]  # doors 6♣ and 6♦
    assert deal("minirazz", hands).bring_in_seat == 1
    assert deal("minirazz", hands, rules="wsop_2023").bring_in_seat == 0


# ---------------------------------------------------------------- a tied board: who acts first on 4th street


@pytest.mark.parametrize(("variant", "hands", "house", "wsop"), [
    # razz: 3♠2♦ and 3♥2♣ tie on ranks; house: the lower suits act first (seat 1), wsop: seat 0
    ("razz", ["Kc Qc 3s 2d", "Kd Qd 3h 2c", "Jc Tc 9d 8d"], 1, 0),
    # stud8: K♥Q♣ and K♠Q♦ tie; house: the higher suits act first (seat 1), wsop: seat 0
    ("stud8", ["2c 3c Kh Qc", "2d 3d Ks Qd", "4c 5c 3h 4h"], 1, 0),
    # stud high keeps suits under wsop_2023
    ("stud", ["2c 3c Kh Qc", "2d 3d Ks Qd", "4c 5c 3h 4h"], 1, 1),
])
def test_a_tied_board_opens_4th_street_by_suit_in_house_and_by_position_in_wsop(variant, hands, house, wsop):
    for options, first in (({}, house), ({"rules": "wsop_2023"}, wsop)):
        hand = deal(variant, hands, **options)
        play(hand, ["bring_in", "call", "call"])
        assert hand.street == 4 and hand.actor == first, (options, hand.history)


# ---------------------------------------------------------------- an open pair on 4th street


@pytest.mark.parametrize("variant", ["stud", "stud8"])
def test_an_open_pair_on_4th_allows_the_big_bet_in_house_but_not_in_wsop(variant):
    hands = ["2c 3c Kh Kd", "4d 5d 3s 7h"]  # seat 0 pairs its door card on 4th street
    house = play(deal(variant, hands), ["bring_in", "call"])
    assert house.street == 4 and house.actor == 0 and Action.BET_BIG in house.legal_actions()
    wsop = play(deal(variant, hands, rules="wsop_2023"), ["bring_in", "call"])
    assert wsop.street == 4 and wsop.legal_actions() == (Action.FOLD, Action.CHECK, Action.BET)
    back = play(deal(variant, hands, rules="wsop_2023", open_pair_big_bet=True), ["bring_in", "call"])
    assert Action.BET_BIG in back.legal_actions()


# ---------------------------------------------------------------- the cap: a fifth bet or raise


def test_a_fifth_bet_is_refused_in_house_and_allowed_in_wsop_then_the_sixth_is_not():
    hands = ["2c 3c Kh", "4c 5c Qs", "6c 7c Jd"]
    house = play(deal("razz", hands), ["bring_in", "complete", "raise", "raise", "raise"])
    assert Action.RAISE not in house.legal_actions()  # a bet and three raises
    wsop = play(deal("razz", hands, rules="wsop_2023"), ["bring_in", "complete", "raise", "raise", "raise"])
    assert Action.RAISE in wsop.legal_actions()  # the fifth: a bet and four raises
    wsop.act("raise")
    assert Action.RAISE not in wsop.legal_actions() and wsop.bet_count == 5
    assert Table("razz", rules="wsop_2023").raise_cap == 5
    assert Table("razz", rules="wsop_2023", raise_cap=4).raise_cap == 4  # overridden option by option


def test_wsop_has_no_cap_once_the_tournament_is_heads_up():
    """Two seats dealt in: the tournament is heads-up, so no round has a cap; a round that starts heads-up at a
    bigger table stays capped (that is the house option ``heads_up_uncapped``)."""
    two = play(deal("razz", ["2c 3c Kh", "4c 5c Qs"], rules="wsop_2023"), ["bring_in"] + ["complete"]
               + ["raise"] * 6)
    assert Action.RAISE in two.legal_actions() and two.bet_count == 7
    capped = play(deal("razz", ["2c 3c Kh", "4c 5c Qs"], rules="wsop_2023", heads_up_tournament_uncapped=False),
                  ["bring_in", "complete", "raise", "raise", "raise", "raise"])
    assert Action.RAISE not in capped.legal_actions()
    three = deal("razz", ["2c 3c Kh 8h", "4c 5c Qs 9s", "6c 7c Jd"], rules="wsop_2023")
    play(three, ["bring_in", "call", "fold"])  # 4th street starts heads-up at a three-seat table
    assert three.cap == 5
    assert HandConfig.create("razz", num_seats=2, rules="wsop_2023").raise_cap_for(2) is None


# ---------------------------------------------------------------- the smallest chip


def _stud8_split(**options: object) -> HandState:
    """Stud8, three seats: one folds after the ante, a 275,000 pot (11 chips of 25,000) split high/low."""
    hands = ["Ac 3d 2c 4h 5s 7d 9c",  # the wheel: the low
             "Kc Kd Ks Kh Qh Jh 8s",  # quads: the high
             "Qc Qd Qs"]
    hand = deal("stud8", hands, **{**BIG_CHIPS, **options})
    return play(hand, ["bring_in", "complete", "fold", "call"] + ["check"] * 8)


def test_a_25000_chip_odd_chip_in_stud8_goes_to_the_high_side():
    hand = _stud8_split()
    assert hand.is_over and sum(hand.contributed) == 275_000
    assert hand.payoffs == [0, 25_000, -25_000]  # high 150,000 (six chips), low 125,000 (five)
    unit = _stud8_split(chip=1)  # the same stakes split to the single chip
    assert unit.payoffs == [12_500, 12_500, -25_000]
    assert _stud8_split(rules="wsop_2023").payoffs == [0, 25_000, -25_000]


def test_a_25000_chip_odd_chip_in_razz_goes_to_the_highest_card_by_suit():
    hands = ["As 2s Kc 3s 4s 5s Qc",  # the wheel with the 5♠
             "Ah 2h 7c 3h 4h 5h Jc",  # the wheel with the 5♥
             "Qd Jd 8d"]
    hand = play(deal("razz", hands, **BIG_CHIPS), ["bring_in", "complete", "fold", "call"] + ["check"] * 8)
    assert hand.payoffs == [25_000, 0, -25_000]  # 11 chips: six to the 5♠, five to the 5♥
    unit = play(deal("razz", hands, **{**BIG_CHIPS, "chip": 1}), ["bring_in", "complete", "fold", "call"]
                + ["check"] * 8)
    assert unit.payoffs == [12_500, 12_500, -25_000]


def test_records_carry_the_preset_and_the_chip_only_when_not_the_defaults():
    house = _stud8_split(chip=1)
    assert "rules" not in to_record(house) and "chip" not in to_record(house)["stakes"]
    record = to_record(_stud8_split(rules="wsop_2023", raise_cap=4))
    assert record["stakes"]["chip"] == 25_000
    assert record["rules"] == {"preset": "wsop_2023", "raise_cap": 4, "open_pair_big_bet": False,
                               "board_tie_break": "position", "heads_up_tournament_uncapped": True}
    again = hand_from_record(record)
    assert again.config == _stud8_split(rules="wsop_2023", raise_cap=4).config and again.payoffs == [0, 25_000,
                                                                                                     -25_000]
    short = dict(record, rules={"preset": "wsop_2023"})  # a preset alone: its values
    assert hand_from_record(short).config.rules.raise_cap == 5


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(("options", "message"), [
    ({"rules": "wsop_2024"}, "rules: unknown preset 'wsop_2024'; known: house, wsop_2023"),
    ({"board_tie_break": "seat"}, "board_tie_break: expected 'suit' or 'position', got 'seat'"),
    ({"heads_up_tournament_uncapped": 1}, "heads_up_tournament_uncapped: expected true/false, got 1"),
    ({"chip": 0}, "chip: must be at least 1, got 0"),
    ({"chip": 5}, r"ante: must be a multiple of the smallest chip \(chip=5\), got 1"),
    ({"chip": 5, "ante": 5, "bring_in": 5, "small_bet": 10, "big_bet": 20, "stacks": 102},
     r"stacks: must be a multiple of the smallest chip \(chip=5\), got 102"),
    ({"chip": 5, "ante": 5, "bring_in": 5, "small_bet": 10, "big_bet": 20, "stacks": [100, 101]},
     r"stacks\[1\]: must be a multiple"),
    ({"chip": 5, "ante": 5, "bring_in": 5, "small_bet": 10, "big_bet": 20, "street_bets": [10, 10, 20, 20, 42]},
     r"street_bets \(7th street\): must be a multiple"),
])
def test_bad_options_name_the_field_and_what_is_allowed(options, message):
    with pytest.raises(ConfigError, match=f"^{message}"):
        Table("razz", **options)


def test_records_refuse_an_unknown_preset_naming_the_known_ones():
    record = to_record(_stud8_split())
    with pytest.raises(ConfigError, match="^rules.preset: unknown preset 'wsop'; known: house, wsop_2023"):
        hand_from_record(dict(record, rules={"preset": "wsop"}))


def test_every_preset_sets_only_ordinary_options():
    """A preset is its options: the same table spelled out option by option plays the same rules."""
    for preset in PRESETS.values():
        for variant in ("razz", "stud", "stud8", "action_razz", "minirazz"):
            values = {k: v for k, v in preset.values_for(variant).items() if v is not None}
            assert _rules_of(Table(variant, **values)) == _rules_of(Table(variant, rules=preset.name))


def _rules_of(table: Table) -> dict:
    rules = table.hand_config().rules
    return {name: getattr(rules, name) for name in ("raise_cap", "heads_up_uncapped", "open_pair_big_bet",
                                                      "board_tie_break", "heads_up_tournament_uncapped")}
