"""Hand configuration: stakes, bet schedule, rule options and stacks, validated with named errors."""

from __future__ import annotations

import re

import pytest

from razz_env.engine import VARIANTS, ConfigError, HandConfig, Rules, Stakes
from razz_env.engine.variants import get_variant


def test_create_defaults_are_two_seats_of_200_at_1_2_5_10_cap_4():
    config = HandConfig.create()
    assert config.variant.name == "razz"
    assert config.stacks == (200, 200)
    assert (config.stakes.ante, config.stakes.bring_in, config.stakes.small_bet, config.stakes.big_bet) == (1, 2, 5, 10)
    assert config.rules.raise_cap == 4
    assert config.rules.heads_up_uncapped is False
    assert config.rules.open_pair_big_bet is None


def test_small_bet_on_3rd_and_4th_big_bet_on_5th_to_7th():
    stakes = Stakes(1, 2, 5, 10)
    assert [stakes.bet_size(s) for s in (3, 4, 5, 6, 7)] == [5, 5, 10, 10, 10]
    assert stakes.big_bet_size == 10


def test_street_bets_option_replaces_small_and_big_bet_per_street():
    stakes = Stakes(1, 2, 5, 10, (5, 5, 10, 10, 20))
    assert [stakes.bet_size(s) for s in (3, 4, 5, 6, 7)] == [5, 5, 10, 10, 20]
    config = HandConfig.create("stud", street_bets=[4, 4, 8, 8, 16], bring_in=1)
    assert config.stakes.bet_size(7) == 16
    assert config.stakes.big_bet_size == 8


def test_open_pair_big_bet_default_is_on_for_stud_and_stud8_off_for_razz_games():
    assert HandConfig.create("stud").open_pair_big_bet is True
    assert HandConfig.create("stud8").open_pair_big_bet is True
    assert HandConfig.create("razz").open_pair_big_bet is False
    assert HandConfig.create("action_razz").open_pair_big_bet is False
    assert HandConfig.create("stud", open_pair_big_bet=False).open_pair_big_bet is False


def test_open_pair_big_bet_option_cannot_turn_it_on_in_razz_games():
    # rules.md: "Stud and stud8 only ... Off in razz."
    assert HandConfig.create("razz", open_pair_big_bet=True).open_pair_big_bet is False
    assert HandConfig.create("action_razz", open_pair_big_bet=True).open_pair_big_bet is False


def test_heads_up_uncapped_lifts_the_cap_only_for_rounds_starting_with_two_players():
    config = HandConfig.create(num_seats=3, heads_up_uncapped=True)
    assert config.raise_cap_for(2) is None
    assert config.raise_cap_for(3) == 4
    assert HandConfig.create(num_seats=3).raise_cap_for(2) == 4


def test_raise_cap_option_and_no_cap():
    assert HandConfig.create(raise_cap=2).raise_cap_for(3) == 2
    assert HandConfig.create(raise_cap=0).raise_cap_for(3) is None


def test_variants_are_razz_action_razz_stud_stud8_and_the_minirazz_presets():
    assert set(VARIANTS) == {"razz", "action_razz", "stud", "stud8", "minirazz", "minirazz_tiny", "minirazz_small",
                             "minirazz_large"}
    assert VARIANTS["razz"].low_board and VARIANTS["action_razz"].low_board
    assert not VARIANTS["stud"].low_board and not VARIANTS["stud8"].low_board
    assert VARIANTS["stud8"].showdown == ("high", "eight")
    assert VARIANTS["action_razz"].showdown == ("action_razz",)


@pytest.mark.parametrize("name", ["holdem", "Razz ", "", None, 3])
def test_unknown_variant_is_a_config_error_naming_the_field(name):
    with pytest.raises(ConfigError, match="variant: unknown variant"):
        get_variant(name)
    with pytest.raises(ConfigError, match="variant"):
        HandConfig.create(name)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"ante": -1}, "ante: must be at least 0"),
        ({"bring_in": 0}, "bring_in: must be at least 1"),
        ({"bring_in": -2}, "bring_in"),
        ({"small_bet": 0}, "small_bet"),
        ({"big_bet": 0}, "big_bet"),
        ({"big_bet": -10}, "big_bet"),
        ({"ante": 1.5}, "ante: expected an integer number of chips"),
        ({"ante": True}, "ante"),
        ({"small_bet": "5"}, "small_bet"),
    ],
)
def test_negative_or_non_integer_stakes_are_refused_naming_the_field(kwargs, field):
    with pytest.raises(ConfigError, match=f"^{field}"):
        HandConfig.create(**kwargs)


@pytest.mark.parametrize(("bring_in", "small_bet"), [(5, 5), (6, 5)])
def test_bring_in_must_be_below_the_small_bet(bring_in, small_bet):
    with pytest.raises(ConfigError, match=r"^bring_in: must be below the 3rd-street bet"):
        HandConfig.create(bring_in=bring_in, small_bet=small_bet)
    HandConfig.create(bring_in=small_bet - 1, small_bet=small_bet)


def test_bring_in_is_checked_against_the_3rd_street_entry_of_street_bets():
    with pytest.raises(ConfigError, match=r"^bring_in: must be below the 3rd-street bet 4"):
        HandConfig.create(bring_in=4, street_bets=[4, 8, 8, 8, 8])


@pytest.mark.parametrize("bets", [[5, 5, 10, 10], [5, 5, 10, 10, 20, 20], [5, 5, 0, 10, 10], [5, 5, 10, 10, -1]])
def test_street_bets_needs_five_positive_sizes(bets):
    with pytest.raises(ConfigError, match=r"^street_bets"):
        HandConfig.create(street_bets=bets)


@pytest.mark.parametrize(
    ("stacks", "match"),
    [
        ([100], "stacks: razz seats 2 to 8, got 1"),
        ([100] * 9, "stacks: razz seats 2 to 8, got 9"),
        ([100, 0], r"stacks\[1\]"),
        ([100, -5], r"stacks\[1\]"),
        ([100, 2.5], r"stacks\[1\]"),
        ([True, 100], r"stacks\[0\]"),
        ("200", "stacks"),
    ],
)
def test_stacks_need_two_to_eight_positive_integers(stacks, match):
    with pytest.raises(ConfigError, match=match):
        HandConfig.create(stacks=stacks)


@pytest.mark.parametrize("seats", [2, 8])
def test_two_and_eight_seats_are_allowed(seats):
    assert HandConfig.create(num_seats=seats).num_seats == seats


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"raise_cap": -1}, "raise_cap: expected 0 (no cap) or a positive number"),
        ({"raise_cap": "4"}, "raise_cap: expected 0 (no cap) or a positive number"),
        ({"heads_up_uncapped": 1}, "heads_up_uncapped"),
        ({"open_pair_big_bet": "yes"}, "open_pair_big_bet"),
    ],
)
def test_bad_rule_options_are_refused_naming_the_option(kwargs, field):
    with pytest.raises(ConfigError, match=f"^{re.escape(field)}"):
        HandConfig.create(**kwargs)


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


def test_stakes_dict_round_trip_and_missing_or_unknown_keys():
    stakes = Stakes(2, 3, 10, 20, (10, 10, 20, 20, 40))
    assert Stakes.from_dict(stakes.to_dict()) == stakes
    assert Stakes.from_dict(Stakes(1, 2, 5, 10).to_dict()) == Stakes(1, 2, 5, 10)
    assert "street_bets" not in Stakes(1, 2, 5, 10).to_dict()
    with pytest.raises(ConfigError, match="stakes: missing big_bet"):
        Stakes.from_dict({"ante": 1, "bring_in": 2, "small_bet": 5})
    with pytest.raises(ConfigError, match="stakes: unknown key"):
        Stakes.from_dict({"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10, "blind": 1})
    with pytest.raises(ConfigError, match="stakes: expected an object"):
        Stakes.from_dict([1, 2, 5, 10])


def test_rules_dict_lists_only_non_default_options_and_round_trips():
    assert Rules().to_dict() == {}
    assert Rules.from_dict(None) == Rules()
    rules = Rules(raise_cap=None, heads_up_uncapped=True, open_pair_big_bet=False)
    assert rules.to_dict() == {"raise_cap": None, "heads_up_uncapped": True, "open_pair_big_bet": False}
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({"raise_cap": 3}).raise_cap == 3
    with pytest.raises(ConfigError, match="rules: unknown key"):
        Rules.from_dict({"cap": 3})
    with pytest.raises(ConfigError, match="rules: expected an object"):
        Rules.from_dict(3)


# ---------------------------------------------------------------------------- sizes, numpy and bools


def test_a_huge_seat_count_is_refused_before_anything_is_allocated():
    import tracemalloc

    tracemalloc.start()
    with pytest.raises(ConfigError, match="num_seats: must be at most 8, got 1000000000"):
        HandConfig.create(num_seats=10**9)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1_000_000
    with pytest.raises(ConfigError, match="num_seats: must be at least 2, got 1"):
        HandConfig.create(num_seats=1)


def test_numpy_integers_are_accepted_wherever_ints_are_and_stored_as_ints():
    np = pytest.importorskip("numpy")
    config = HandConfig.create("stud", stacks=np.array([100, 250]), ante=np.int8(1), bring_in=np.int64(2),
                               small_bet=np.uint16(5), big_bet=np.int32(10), street_bets=np.array([5, 5, 10, 10, 20]),
                               raise_cap=np.int64(3), heads_up_uncapped=np.bool_(True))
    assert config == HandConfig.create("stud", stacks=[100, 250], ante=1, bring_in=2, small_bet=5, big_bet=10,
                                       street_bets=[5, 5, 10, 10, 20], raise_cap=3, heads_up_uncapped=True)
    values = [*config.stacks, config.stakes.ante, config.stakes.bring_in, *config.stakes.street_bets,
              config.rules.raise_cap]
    assert all(type(v) is int for v in values) and config.rules.heads_up_uncapped is True
    assert HandConfig.create(num_seats=np.int64(3), stacks=np.int64(50)).stacks == (50, 50, 50)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"stacks": [True, 100]}, r"stacks\[0\]: expected an integer number of chips, got True"),
        ({"ante": False}, "ante: expected an integer number of chips, got False"),
        ({"num_seats": True}, "num_seats: expected a number of seats, got True"),
        ({"stacks": True}, "stacks: expected one chip count for every seat or a list of one per seat, got True"),
        ({"raise_cap": True}, r"raise_cap: expected 0 \(no cap\) or a positive number of bets and raises, got True"),
        ({"heads_up_uncapped": 1}, "heads_up_uncapped: expected true/false, got 1"),
        ({"stacks": [100.0, 100]}, r"stacks\[0\]: expected an integer number of chips, got 100\.0"),
        ({"stacks": {100, 200}}, "stacks: expected one chip count for every seat or a list of one per seat"),
        ({"street_bets": 5}, "street_bets: expected a list of 5 bet sizes"),
        ({"street_bets": "55555"}, "street_bets: expected a list of 5 bet sizes"),
        ({"variant": ["razz"]}, r"variant: unknown variant \['razz'\]"),
    ],
)
def test_bools_and_other_wrong_types_are_refused_naming_the_field(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        HandConfig.create(**kwargs)


def test_hand_config_fields_must_have_their_types():
    with pytest.raises(ConfigError, match="stakes: expected a Stakes, got"):
        HandConfig(get_variant("razz"), {"ante": 1}, (100, 100))
    with pytest.raises(ConfigError, match="rules: expected a Rules, got None"):
        HandConfig(get_variant("razz"), Stakes(1, 2, 5, 10), (100, 100), None)
    with pytest.raises(ConfigError, match="variant: unknown variant 3"):
        HandConfig(3, Stakes(1, 2, 5, 10), (100, 100))


def test_a_declared_variant_of_one_street_names_its_street_in_messages():
    """``street_span`` of a variant with one street (a declaration may have one): ``3rd street``, not a crash."""
    from razz_env.engine.config import check_street_bets, street_span
    from razz_env.engine.variants import SMALL, Street, minirazz

    one = minirazz("one_street", "One street", "A23456", (Street(2, 1, SMALL),))
    assert street_span(one) == "3rd street"
    assert street_span(get_variant("razz")) == "3rd to 7th street"
    with pytest.raises(ConfigError, match=r"stakes.street_bets: expected 1 sizes \(3rd street\), got 2"):
        check_street_bets(one, [2, 4])
