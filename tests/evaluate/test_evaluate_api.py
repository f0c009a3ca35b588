"""The front door: ``match`` equals the same pairing of ``razz tournament``; tables, instances and files as agents."""

import threading

import pytest

from razz_env.agents.simple import CallingStation
from razz_env.cli import main
from razz_env.engine.errors import ConfigError
from razz_env.evaluate import MatchResult, TournamentConfig, match, tournament


def test_match_equals_the_pairing_of_razz_tournament(tmp_path, capsys):
    result = match("razz_heuristic", "calling_station", deals=30, seed=5, block_deals=10)
    assert isinstance(result, MatchResult)
    assert main(["tournament", "--config", str(_config(tmp_path, ["razz_heuristic", "calling_station", "random"])),
                 "--deals", "30", "--seed", "5", "--workers", "1", "--quiet", "--no-plots"]) == 0
    capsys.readouterr()
    config = TournamentConfig.from_yaml(tmp_path / "t.yaml", deals=30, seed=5, workers=1)
    pairing = next(p for p in tournament(config).pairings if (p.agent, p.opponent) == (0, 1))
    assert result.bb_per_100 == pytest.approx(pairing.duplicate.mean_bb100, abs=1e-9)
    assert (result.ci95_low, result.ci95_high) == pytest.approx((pairing.duplicate.low, pairing.duplicate.high))
    assert result.hands == pairing.hands == 60 and [row.deals for row in result.blocks] == [10, 10, 10]
    assert sum(row.bb_per_100 * row.deals for row in result.blocks) / 30 == pytest.approx(result.bb_per_100)
    assert result.agents == ("razz_heuristic", "calling_station") and result.chips == round(result.big_bets * 10)


def _config(folder, agents):
    path = folder / "t.yaml"
    path.write_text(f"agents: {agents}\nblock_deals: 10\noutput: {folder / 'out'}\n")
    return path


def test_the_seed_changes_the_deals_and_workers_do_not_change_the_result():
    one = match("random", "calling_station", deals=12, seed=1, block_deals=4)
    assert match("random", "calling_station", deals=12, seed=1, block_deals=4, workers=2) == one
    assert match("random", "calling_station", deals=12, seed=2, block_deals=4).bb_per_100 != one.bb_per_100


def test_the_table_sets_variant_and_stakes_and_refuses_unknown_keys():
    result = match("calling_station", "random", deals=4, table={"variant": "stud", "ante": 0, "small_bet": 4,
                                                                  "big_bet": 8, "bring_in": 2})
    assert result.variant == "stud" and result.config.big_bet == 8
    with pytest.raises(ConfigError, match="table: unknown key.*'seats'"):
        match("random", "random", deals=2, table={"seats": 3})


def test_a_tables_left_out_keys_are_tables_defaults_and_no_table_is_a_tournaments():
    from razz_env.engine.table import Table

    keys = match("calling_station", "random", deals=2, table={"variant": "razz"}).config
    assert keys.table == Table("razz", num_seats=2)  # stacks 200, as the docstring says
    assert match("calling_station", "random", deals=2).config.table == Table("razz", num_seats=2, stacks=1000)


def test_a_table_spec_plays_as_its_mapping_does_and_must_be_heads_up():
    from razz_env.engine.table import Table

    table = Table("stud", num_seats=2, stacks=400, ante=0, bring_in=2, small_bet=4, big_bet=8)
    by_table = match("calling_station", "random", deals=4, table=table)
    by_keys = match("calling_station", "random", deals=4,
                    table={"variant": "stud", "stacks": 400, "ante": 0, "bring_in": 2, "small_bet": 4, "big_bet": 8})
    assert by_table == by_keys and by_table.config.stacks == 400
    with pytest.raises(ConfigError, match="a match is heads-up"):
        match("random", "calling_station", deals=2, table=Table("razz", num_seats=3))


def test_an_instance_plays_as_a_name_does_and_must_pickle_for_workers():
    by_name = match("razz_heuristic", "calling_station", deals=8)
    assert match("razz_heuristic", CallingStation(), deals=8).bb_per_100 == by_name.bb_per_100

    class Unpicklable(CallingStation):
        lock = None

        def __init__(self):
            super().__init__(name="unpicklable")
            self.lock = threading.Lock()

    assert match("razz_heuristic", Unpicklable(), deals=8).bb_per_100 == by_name.bb_per_100
    with pytest.raises(ConfigError, match=r"agents\[1\] \(unpicklable\): an agent instance plays in worker"):
        match("razz_heuristic", Unpicklable(), deals=8, workers=2)


def test_a_policy_file_plays_by_its_path_and_the_config_pins_its_hash(tmp_path):
    from razz_env.solve.game import build_game
    from razz_env.solve.policy import TabularPolicy

    path = TabularPolicy.uniform(build_game("minirazz_tiny")).save(tmp_path / "uniform.npz")
    result = match(str(path), "random", deals=4, table={"variant": "minirazz_tiny"})
    assert result.agents[0] == str(path) and result.hands == 8
    config = result.config
    assert config.agents[0]["sha256"] and config.identity()["agents"][0]["type"] == str(path)
    with pytest.raises(ConfigError, match="cannot read the model file"):
        match(str(tmp_path / "missing.npz"), "random", deals=2, table={"variant": "minirazz_tiny"})


def test_tournament_takes_a_mapping_a_yaml_file_or_a_config(tmp_path):
    settings = {"agents": ["random", "calling_station"], "deals": 4, "workers": 1, "output": str(tmp_path / "m")}
    from_mapping = tournament(settings)
    from_file = tournament(_config(tmp_path, ["random", "calling_station"]), deals=4, workers=1,
                           output=str(tmp_path / "m2"))
    assert from_mapping.standings[0]["bb_per_100"] == pytest.approx(from_file.standings[0]["bb_per_100"])
    assert "calling_station" in str(from_mapping)
    with pytest.raises(ConfigError, match="tournament: expected a TournamentConfig"):
        tournament(3)


def test_a_tournament_with_progress_says_why_its_first_blocks_are_slow(tmp_path, capsys):
    """A first run sat at 0% while workers loaded models, with no word; a resumed one has nothing left to say."""
    config = TournamentConfig.from_yaml(_config(tmp_path, ["razz_heuristic", "calling_station"]), deals=10, workers=1)
    tournament(config, progress=True)
    assert "playing 1 block(s) in worker processes: each builds its agents" in capsys.readouterr().err
    tournament(config, progress=True)
    assert "in worker processes" not in capsys.readouterr().err
