"""Rule presets (house, wsop_2022, wsop_2023, wsop_2024) and the smallest chip: each option tested at the decision it
changes (the rulings of ``tests/rulings.py`` under every preset)."""

from __future__ import annotations

import pytest
from rulings import (
    BIG_CHIPS,
    CASE_IDS,
    CASES,
    HIGH_BOARDS,
    PRESET_NAMES,
    QUESTIONS,
    RAZZ_BOARDS,
    RAZZ_DOORS,
    STUD_DOORS,
)

from razz_env.engine import ConfigError, HandConfig, HandState, Table, hand_from_record, to_record
from razz_env.engine.actions import Action
from razz_env.engine.cards import parse_cards
from razz_env.engine.config import Rules
from razz_env.engine.presets import PRESET_OPTIONS, PRESETS


def deal(variant: str, hands: list[str], **options: object) -> HandState:
    """A hand of ``variant`` dealing each seat the cards of ``hands`` (dealing order)."""
    config = HandConfig.create(variant, num_seats=len(hands), **options)
    return HandState(config, cards=[parse_cards(text) for text in hands])


def play(hand: HandState, actions: list[str]) -> HandState:
    for action in actions:
        hand.act(action)
    return hand


# ---------------------------------------------------------------- every ruling under every preset


@pytest.mark.parametrize(("ruling", "preset"), CASES, ids=CASE_IDS)
def test_each_ruling_at_the_decision_it_decides(ruling, preset):
    """``tests/rulings.py``: tied door cards, the ace in the stud games' bring-in, tied boards on 4th street, the
    cap with three seats down to two, the open pair, the odd chip and an all-in for the ante."""
    hand = ruling.play(preset)
    assert ruling.answer(hand) == ruling.answers[preset], (ruling.name, preset, hand.history)


def test_every_preset_has_a_ruling_for_each_point():
    assert tuple(PRESETS) == PRESET_NAMES
    for preset in PRESETS:
        assert {ruling.question for ruling, name in CASES if name == preset} == set(QUESTIONS), preset


@pytest.mark.parametrize(("variant", "doors", "boards"), [("razz", RAZZ_DOORS, RAZZ_BOARDS),
                                                        ("stud8", STUD_DOORS, HIGH_BOARDS),
                                                        ("stud", STUD_DOORS, HIGH_BOARDS)])
def test_each_tie_break_is_its_own_option(variant, doors, boards):
    """Tied door cards follow ``bring_in_tie_break`` only, tied later boards ``later_street_tie_break`` only; each
    overrides a preset like any option."""
    for options, brings_in in (({"bring_in_tie_break": "position"}, 0), ({"later_street_tie_break": "position"}, 1),
                               ({"rules": "wsop_2023", "bring_in_tie_break": "position"}, 0)):
        assert deal(variant, list(doors), **options).bring_in_seat == brings_in, options
    for options, first in (({"later_street_tie_break": "position"}, 0), ({"bring_in_tie_break": "position"}, 1),
                           ({"rules": "wsop_2022", "later_street_tie_break": "suit"}, 1)):
        hand = play(deal(variant, list(boards), **options), ["bring_in", "call", "call"])
        assert hand.street == 4 and hand.actor == first, options


@pytest.mark.parametrize("preset", ["wsop_2022", "wsop_2023", "wsop_2024"])
def test_a_wsop_presets_options_are_overridden_one_by_one(preset):
    assert Table("razz", rules=preset).raise_cap == 5 and Table("razz", rules=preset, raise_cap=4).raise_cap == 4
    paired = play(deal("stud", ["2c 3c Kh Kd", "4d 5d 3s 7h"], rules=preset, open_pair_big_bet=True),
                  ["bring_in", "call"])
    assert Action.BET_BIG in paired.legal_actions()
    capped = play(deal("razz", ["2c 3c Kh", "4c 5c Qs"], rules=preset, heads_up_tournament_uncapped=False),
                  ["bring_in", "complete", "raise", "raise", "raise", "raise"])
    assert Action.RAISE not in capped.legal_actions()
    assert HandConfig.create("razz", num_seats=2, rules=preset).raise_cap_for(2) is None


def test_position_skips_a_seat_all_in_for_the_ante_as_suits_do():
    hand = deal("razz", ["2c 3c Kh", "4c 5c Ks", "6c 7c 9d"], bring_in_tie_break="position", stacks=[1, 200, 200])
    assert hand.bring_in_seat == 1


def test_minirazz_breaks_a_tied_door_by_position_only_when_told():
    hands = ["Ac 6c", "2d 6d", "3c 4c"]  # doors 6♣ and 6♦
    assert deal("minirazz", hands, rules="wsop_2023").bring_in_seat == 1
    assert deal("minirazz", hands, bring_in_tie_break="position").bring_in_seat == 0


def test_wsop_2024_plays_as_wsop_2023_and_2022_differs_only_in_stud_high_boards():
    """The documents differ in one point the engine plays: Section IX item 1 of 2022 breaks a tied stud board by
    position, 2023 and 2024 by the high card by suit."""
    for variant in ("razz", "stud", "stud8", "action_razz", "minirazz"):
        values = {name: PRESETS[name].values_for(variant) for name in ("wsop_2022", "wsop_2023", "wsop_2024")}
        assert values["wsop_2024"] == values["wsop_2023"]
        differ = {key for key in values["wsop_2023"] if values["wsop_2022"][key] != values["wsop_2023"][key]}
        assert differ == ({"later_street_tie_break"} if variant == "stud" else set()), variant


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
                               "later_street_tie_break": "position", "heads_up_tournament_uncapped": True}
    again = hand_from_record(record)
    assert again.config == _stud8_split(rules="wsop_2023", raise_cap=4).config and again.payoffs == [0, 25_000,
                                                                                                     -25_000]
    short = dict(record, rules={"preset": "wsop_2023"})  # a preset alone: its values
    assert hand_from_record(short).config.rules.raise_cap == 5


@pytest.mark.parametrize("preset", [None, "house", "wsop_2023"])
def test_an_older_records_one_tie_break_still_orders_both(preset):
    """Records written before the split name ``board_tie_break``, which ordered tied door cards and tied later
    boards alike: read as both options, so such a record replays as it was played."""
    for value, brings_in in (("position", 0), ("suit", 1)):
        rules = {"board_tie_break": value} if preset is None else {"preset": preset, "board_tie_break": value}
        assert Rules.from_dict(rules) == Rules.from_dict({**rules, "bring_in_tie_break": value,
                                                          "later_street_tie_break": value})
        played = play(deal("razz", list(RAZZ_DOORS), bring_in_tie_break=value), ["bring_in", "fold", "fold"])
        replayed = hand_from_record(dict(to_record(played), rules=rules))
        assert replayed.bring_in_seat == brings_in and replayed.payoffs == played.payoffs
    named = Rules.from_dict({"board_tie_break": "position", "later_street_tie_break": "suit"})
    assert (named.bring_in_tie_break, named.later_street_tie_break) == ("position", "suit")  # a named option wins
    with pytest.raises(ConfigError, match="^rules.board_tie_break: expected 'suit' or 'position', got 'seat'"):
        Rules.from_dict({"board_tie_break": "seat"})


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(("options", "message"), [
    ({"rules": "wsop_2025"}, "rules: unknown preset 'wsop_2025'; known: house, wsop_2022, wsop_2023, wsop_2024"),
    ({"bring_in_tie_break": "seat"}, "bring_in_tie_break: expected 'suit' or 'position', got 'seat'"),
    ({"later_street_tie_break": None, "bring_in_tie_break": 1}, "bring_in_tie_break: expected 'suit' or 'position'"),
    ({"later_street_tie_break": "Suit"}, "later_street_tie_break: expected 'suit' or 'position', got 'Suit'"),
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
    with pytest.raises(ConfigError, match="^rules.preset: unknown preset 'wsop'; known: house, wsop_2022, wsop_2023, "
                                          "wsop_2024"):
        hand_from_record(dict(record, rules={"preset": "wsop"}))


def test_every_preset_sets_only_ordinary_options():
    """A preset is its options: the same table spelled out option by option plays the same rules."""
    for preset in PRESETS.values():
        for variant in ("razz", "stud", "stud8", "action_razz", "minirazz"):
            values = {k: v for k, v in preset.values_for(variant).items() if v is not None}
            assert _rules_of(Table(variant, **values)) == _rules_of(Table(variant, rules=preset.name))


def test_the_old_single_tie_break_option_is_refused_naming_the_two():
    """A table option that changed meaning is not read silently: ``board_tie_break`` is an unknown key whose
    message lists ``bring_in_tie_break`` and ``later_street_tie_break``."""
    with pytest.raises(ConfigError, match="unknown key.*'board_tie_break'.*bring_in_tie_break, later_street_tie_break"):
        Table.from_mapping({"variant": "razz", "board_tie_break": "position"})
    with pytest.raises(TypeError, match="board_tie_break"):
        Table("razz", board_tie_break="position")


def _rules_of(table: Table) -> dict:
    rules = table.hand_config().rules
    return {name: getattr(rules, name) for name in PRESET_OPTIONS}
