"""OpenSpiel game parameters: defaults, every option reaching the engine config, clean errors, and the bounds."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="the OpenSpiel games need the openspiel extra")

from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.table import TABLE_KEYS, Table
from razz_env.openspiel.params import (
    game_table,
    max_game_length,
    parameters_for,
    recall_history_slots,
    round_decisions_bound,
    utility_range,
)


def config_of(variant: str, params: dict) -> HandConfig:
    return game_table(variant, params)[0].hand_config()


def test_defaults_are_the_environments_table():
    table, allow_open_fold = game_table("razz", {})
    assert table == Table() and table.hand_config() == HandConfig.create("razz")
    assert allow_open_fold is False


@pytest.mark.parametrize("variant", ["minirazz", "minirazz_tiny", "minirazz_small", "minirazz_large"])
def test_minirazz_defaults_are_its_own_stakes_and_cap(variant):
    spec = parameters_for(variant)
    assert {name: spec[name] for name in ("ante", "bring_in", "small_bet", "big_bet", "raise_cap")} == {
        "ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4, "raise_cap": 2}
    assert config_of(variant, {}) == HandConfig.create(variant)
    streets = "2 4 6" if variant == "minirazz_large" else "2 6"
    config = config_of(variant, {"street_bets": streets, "raise_cap": 0})
    assert config.rules.raise_cap is None and [config.bet_size(s) for s in config.variant.street_numbers] == [
        int(bet) for bet in streets.split()]
    assert max_game_length(config) == len(config.variant.streets) * recall_history_slots(config)
    with pytest.raises(ConfigError, match="street_bets: expected"):
        game_table(variant, {"street_bets": "5 5 10 10 20"})


def test_every_option_reaches_the_config():
    table, allow_open_fold = game_table("stud", {
        "num_seats": 3, "stacks": "50 60 70", "ante": 2, "bring_in": 3, "small_bet": 6, "big_bet": 12,
        "street_bets": "6 6 12 12 24", "raise_cap": 0, "heads_up_uncapped": True, "allow_open_fold": True,
        "open_pair_big_bet": False})
    expected = HandConfig.create("stud", stacks=[50, 60, 70], ante=2, bring_in=3, small_bet=6, big_bet=12,
                                 street_bets=[6, 6, 12, 12, 24], raise_cap=0, heads_up_uncapped=True,
                                 open_pair_big_bet=False)
    assert table.hand_config() == expected
    assert allow_open_fold is True
    assert config_of("razz", {"num_seats": 4, "stacks": "80"}).stacks == (80,) * 4


def test_open_pair_rule_is_a_parameter_of_the_stud_games_only():
    assert "open_pair_big_bet" in parameters_for("stud8")
    assert "open_pair_big_bet" not in parameters_for("razz")
    assert config_of("stud", {}).open_pair_big_bet is True
    assert config_of("stud", {"open_pair_big_bet": False}).open_pair_big_bet is False


@pytest.mark.parametrize(("params", "message"), [
    ({"num_seats": 9}, "num_seats: must be at most 8, got 9"),
    ({"num_seats": 1}, "num_seats: must be at least 2, got 1"),
    ({"num_seats": "3"}, "num_seats: expected int, got '3'"),
    ({"stacks": 100}, "stacks: expected str, got 100"),
    ({"heads_up_uncapped": 1}, "heads_up_uncapped: expected bool, got 1"),
    ({"colour": "red"}, "unknown parameter(s) 'colour'; known: num_seats"),
    ({"players": 3}, "unknown parameter(s) 'players'; known: num_seats"),
    ({"open_pair_big_bet": False}, "unknown parameter(s) 'open_pair_big_bet'"),
    ({"stacks": "100 x"}, "stacks: expected integers separated by spaces, got '100 x'"),
    ({"stacks": ""}, "stacks: expected integers separated by spaces, got ''"),
    ({"stacks": "100 100 100", "num_seats": 2}, "stacks: 3 stacks given for num_seats=2"),
    ({"stacks": "100 -5"}, "stacks[1]: must be at least 1, got -5"),
    ({"street_bets": "5 5 10"}, "street_bets: expected 5 sizes (3rd to 7th street), got 3"),
    ({"street_bets": "five"}, "street_bets: expected integers separated by spaces, got 'five'"),
    ({"raise_cap": -1}, "raise_cap: expected 0 (no cap) or a positive number of bets and raises, got -1"),
    ({"bring_in": 5}, "bring_in: must be below the 3rd-street bet 5, got 5"),
    ({"stacks": "1"}, "stacks: at most one seat has chips behind the ante (1)"),
])
def test_bad_parameters_are_named(params, message):
    with pytest.raises(ConfigError) as caught:
        game_table("razz", params)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_round_bound_counts_each_seat_once_plus_once_per_raising_event():
    heads_up = HandConfig.create("razz", num_seats=2)
    # bring-in, complete, raise, raise, raise (cap 4), call: 6 decisions; the bound allows a short all-in too
    assert round_decisions_bound(heads_up, 2) == 2 + 1 * (4 + 1)
    assert round_decisions_bound(HandConfig.create("razz", num_seats=8), 8) == 8 + 7 * (4 + 7)
    uncapped = HandConfig.create("razz", num_seats=2, stacks=30, heads_up_uncapped=True)
    # a full raise lifts the level by at least half the smallest bet (3 chips) and the level stays within 30
    assert round_decisions_bound(uncapped, 2) == 2 + 1 * (1 + 10 + 1)
    assert recall_history_slots(uncapped) == 14
    assert max_game_length(heads_up) == 5 * 7


def test_recall_slots_take_the_worst_round_over_every_number_of_live_players():
    config = HandConfig.create("razz", num_seats=4, stacks=40, heads_up_uncapped=True)
    assert recall_history_slots(config) == max(round_decisions_bound(config, live) for live in (2, 3, 4))
    assert round_decisions_bound(config, 2) > HandConfig.create("razz", num_seats=2).rules.raise_cap + 2


def test_utility_range_is_a_stack_lost_or_every_other_stake_won():
    assert utility_range(HandConfig.create("razz", stacks=[100, 300, 50])) == (-300.0, 150.0)
    assert utility_range(HandConfig.create("razz", num_seats=2)) == (-200.0, 200.0)


@pytest.mark.parametrize("variant", ["razz", "stud", "minirazz"])
def test_parameters_are_the_table_keys_in_types_openspiel_accepts(variant):
    spec = parameters_for(variant)
    assert all(type(value) in (int, bool, str) for value in spec.values())
    assert set(spec) - {"allow_open_fold"} <= set(TABLE_KEYS) - {"variant"}
