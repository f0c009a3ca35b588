"""The table spec: one spelling parsed from keywords, mappings and OpenSpiel parameters alike, one validator."""

from __future__ import annotations

import pickle
import re

import pytest

from razz_env.engine import ConfigError, HandConfig, Rules, Stakes, Table
from razz_env.engine.table import TABLE_KEYS

STUD = {"variant": "stud", "num_seats": 3, "stacks": [50, 60, 70], "ante": 2, "bring_in": 3, "small_bet": 6,
        "big_bet": 12, "street_bets": [6, 6, 12, 12, 24], "raise_cap": 0, "heads_up_uncapped": True,
        "open_pair_big_bet": False}
STUD_PARAMS = {"num_seats": 3, "stacks": "50 60 70", "ante": 2, "bring_in": 3, "small_bet": 6, "big_bet": 12,
               "street_bets": "6 6 12 12 24", "raise_cap": 0, "heads_up_uncapped": True, "open_pair_big_bet": False}


def test_keywords_mapping_and_openspiel_parameters_give_equal_tables():
    table = Table(**STUD)
    assert Table.from_mapping(STUD) == table
    assert Table.from_params("stud", STUD_PARAMS) == table
    assert Table.from_mapping(table.to_dict()) == table
    assert Table.from_params("stud", table.to_params()) == table
    assert Table.from_mapping({"variant": "razz"}) == Table() == Table.from_params("razz", {})


def test_a_table_holds_the_values_it_plays():
    table = Table("minirazz", stacks=50)
    assert (table.num_seats, table.stacks, table.stakes) == (2, (50, 50), Stakes(1, 1, 2, 4))
    assert (table.raise_cap, table.heads_up_uncapped, table.open_pair_big_bet) == (2, False, False)
    assert table.variant.name == "minirazz" and table.street_bets is None
    assert Table(stacks=[10, 20, 30]).num_seats == 3 and Table(num_seats=3).stacks == (200, 200, 200)
    assert Table("stud").open_pair_big_bet is True and Table("razz", open_pair_big_bet=True).open_pair_big_bet is False
    assert repr(Table()) == ("Table(variant='razz', num_seats=2, stacks=200, ante=1, bring_in=2, small_bet=5, "
                             "big_bet=10, street_bets=None, raise_cap=4, heads_up_uncapped=False, "
                             "open_pair_big_bet=False, bring_in_tie_break='suit', later_street_tie_break='suit', "
                             "heads_up_tournament_uncapped=False, chip=1, rules='house')")
    assert pickle.loads(pickle.dumps(Table(**STUD))) == Table(**STUD)


def test_the_hand_config_is_the_tables():
    config = Table(**STUD).hand_config()
    assert config == HandConfig.create(**STUD)
    assert config.stacks == (50, 60, 70) and config.stakes == Stakes(2, 3, 6, 12, (6, 6, 12, 12, 24))
    assert config.rules == Rules(None, True, False) and config.raise_cap_for(3) is None
    assert Table(raise_cap=3).hand_config().raise_cap_for(3) == 3
    assert Table().hand_config().rules == Rules(4)


def test_raise_cap_zero_is_no_cap_and_none_the_variants_everywhere():
    assert Table(raise_cap=0).raise_cap == 0 and Table(raise_cap=None).raise_cap == 4
    assert Table("minirazz").raise_cap == Table.from_mapping({"variant": "minirazz", "raise_cap": None}).raise_cap == 2
    assert Table.from_params("razz", {"raise_cap": 0}) == Table(raise_cap=0) == Table.from_mapping({"raise_cap": 0})


def test_rules_none_is_the_default_preset_like_every_other_option():
    assert Table(rules=None) == Table() and Table(rules=None).rules == "house"
    assert Table.from_mapping({"rules": None, "raise_cap": None}) == Table()


@pytest.mark.parametrize(("options", "message"), [
    ({"variant": "holdem"}, "variant: unknown variant 'holdem'; known: razz"),
    ({"num_seats": 9}, "num_seats: must be at most 8, got 9"),
    ({"num_seats": 1}, "num_seats: must be at least 2, got 1"),
    ({"num_seats": "3"}, "num_seats: expected a number of seats, got '3'"),
    ({"variant": "minirazz", "num_seats": 6}, "num_seats: minirazz seats 2 to 5 (its 12-card deck deals 3 cards"),
    ({"stacks": [100] * 6, "variant": "minirazz"}, "stacks: minirazz seats 2 to 5"),
    ({"stacks": [100]}, "stacks: razz seats 2 to 8, got 1"),
    ({"stacks": [100, 100], "num_seats": 3}, "stacks: 2 stacks given for num_seats=3"),
    ({"stacks": 0}, "stacks: must be at least 1, got 0"),
    ({"stacks": [100, -5]}, "stacks[1]: must be at least 1, got -5"),
    ({"stacks": "200"}, "stacks: expected one chip count for every seat or a list of one per seat, got '200'"),
    ({"stacks": True}, "stacks: expected one chip count for every seat or a list of one per seat, got True"),
    ({"ante": -1}, "ante: must be at least 0, got -1"),
    ({"ante": 1.5}, "ante: expected an integer number of chips, got 1.5"),
    ({"bring_in": 0}, "bring_in: must be at least 1, got 0"),
    ({"bring_in": 5}, "bring_in: must be below the 3rd-street bet 5, got 5"),
    ({"variant": "minirazz", "bring_in": 2}, "bring_in: must be below the 2nd-street bet 2, got 2"),
    ({"small_bet": 0}, "small_bet: must be at least 1, got 0"),
    ({"big_bet": "10"}, "big_bet: expected an integer number of chips, got '10'"),
    ({"street_bets": [5, 5, 10]}, "street_bets: expected 5 sizes (3rd to 7th street), got 3"),
    ({"street_bets": [5, 5, 0, 10, 10]}, "street_bets (5th street): must be at least 1, got 0"),
    ({"street_bets": 5}, "street_bets: expected a list of 5 bet sizes (3rd to 7th street), got 5"),
    ({"raise_cap": -1}, "raise_cap: expected 0 (no cap) or a positive number of bets and raises, got -1"),
    ({"raise_cap": True}, "raise_cap: expected 0 (no cap) or a positive number of bets and raises, got True"),
    ({"heads_up_uncapped": 1}, "heads_up_uncapped: expected true/false, got 1"),
    ({"open_pair_big_bet": "no"}, "open_pair_big_bet: expected true/false, got 'no'"),
])
def test_each_bad_value_is_refused_naming_it(options, message):
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}"):
        Table(**options)
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}"):
        Table.from_mapping(options)


def test_unknown_keys_and_parameters_are_refused_naming_the_known_ones():
    with pytest.raises(ConfigError, match="^table: unknown key\\(s\\) 'num_players'; known: variant, num_seats"):
        Table.from_mapping({"num_players": 2})
    with pytest.raises(ConfigError, match="^zoo agent: unknown key\\(s\\) 'starting_stacks'"):
        Table.from_mapping({"starting_stacks": 2}, "zoo agent")
    with pytest.raises(ConfigError, match="^table: expected a mapping of table options, got 3"):
        Table.from_mapping(3)
    with pytest.raises(ConfigError, match="^unknown parameter\\(s\\) 'players'; known: num_seats, stacks"):
        Table.from_params("razz", {"players": 2})
    with pytest.raises(ConfigError, match="^stacks: expected integers separated by spaces, got '100 x'"):
        Table.from_params("razz", {"stacks": "100 x"})
    with pytest.raises(TypeError):
        Table(starting_stack=100)
    assert TABLE_KEYS == ("variant", "num_seats", "stacks", "ante", "bring_in", "small_bet", "big_bet",
                          "street_bets", "raise_cap", "heads_up_uncapped", "open_pair_big_bet", "bring_in_tie_break",
                          "later_street_tie_break", "heads_up_tournament_uncapped", "chip", "rules")


def test_a_table_where_no_seat_can_act_is_playable_by_the_engine_but_refused_where_decisions_are_asked():
    short = Table(stacks=[1, 1])
    assert short.hand_config().stacks == (1, 1)
    with pytest.raises(ConfigError, match=r"^stacks: at most one seat has chips behind the ante \(1\)"):
        short.require_decisions()
    assert Table().require_decisions() == Table()


def _round_in_env_and_openspiel(raise_cap: int) -> list[list[int]]:
    """Heads-up razz, both seats raising whenever they may for a dozen decisions: the legal ids at each decision
    of 3rd street, asked of the PettingZoo environment and of the OpenSpiel game (which must agree)."""
    from razz_env.envs.aec import raw_env

    pyspiel = pytest.importorskip("pyspiel")
    from razz_env.openspiel import GAME_NAMES

    table = Table(stacks=1000, raise_cap=raise_cap)
    env = raw_env(table=table)
    env.reset(seed=5)
    game = pyspiel.load_game(GAME_NAMES["razz"], table.to_params())
    state = game.new_initial_state()
    hand, deck = env.hand, table.variant.deck
    while state.is_chance_node():
        seat, position = state.dealing
        state.apply_action(deck.index(hand.cards[seat][position]))
    masks = []
    while hand.street == 3 and not hand.is_over:
        legal = env.observe(env.agent_selection)["action_mask"].nonzero()[0].tolist()
        assert state.legal_actions() == legal
        masks.append(legal)
        action = 2 if 2 in legal and len(masks) < 12 else 1 if 1 in legal else legal[0]
        env.step(action)
        state.apply_action(action)
    assert state.is_chance_node() or state.is_terminal()
    return masks


def test_raise_cap_means_the_same_in_the_environment_and_the_openspiel_game():
    uncapped, capped = _round_in_env_and_openspiel(0), _round_in_env_and_openspiel(2)
    assert len(uncapped) == 12 and all(2 in ids for ids in uncapped)
    assert len(capped) < len(uncapped) and 2 not in capped[-1]


def test_table_options_are_the_tables_keys_but_its_seats_and_check_through_the_table() -> None:
    """Tournament and training configs declare their table through ``TableOptions``: one list of fields, the
    table's own checks."""
    from dataclasses import fields

    from razz_env.engine.table import TableOptions

    assert tuple(f.name for f in fields(TableOptions)) == tuple(key for key in TABLE_KEYS if key != "num_seats")
    assert TableOptions(variant="stud", ante=3).table_at(4) == Table("stud", num_seats=4, stacks=1000, ante=3)
    with pytest.raises(ConfigError, match="ante"):
        TableOptions(ante=-1).table_at(2)
