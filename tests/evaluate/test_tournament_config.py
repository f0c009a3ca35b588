"""Tournament configuration: every field's type and value checked, YAML files read strictly, the identity
that decides which results a folder may hold."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pytest

from razz_env.engine.errors import ConfigError
from razz_env.engine.table import Table
from razz_env.evaluate.config import DEFAULT_AGENTS, DEFAULT_LINEUPS, MAX_BLOCKS, TournamentConfig
from razz_env.evaluate.runner import check_agents, run_tournament

CONFIGS = sorted((Path(__file__).parents[2] / "configs").glob("tournament_*.yaml"))

BASE = {"agents": ["random", "calling_station"], "deals": 20, "block_deals": 10, "workers": 1}


@pytest.mark.parametrize(("field", "value", "message"), [
    ("records", "no", "records: expected true/false, got 'no'"),
    ("duplicate", 1, "duplicate: expected true/false, got 1"),
    ("seed", "abc", "seed: expected an integer, got 'abc'"),
    ("seed", 1.5, "seed: expected an integer, got 1.5"),
    ("seed", True, "seed: expected an integer, got True"),
    ("deals", 2.0, "deals: expected an integer of at least 1, got 2.0"),
    ("workers", "2", "workers: expected an integer of at least 1, got '2'"),
    ("decision_timeout", math.nan, "decision_timeout: expected a number more than 0, at most 3600, got nan"),
    ("decision_timeout", math.inf, "decision_timeout: expected a number more than 0"),
    ("decision_timeout", 3601, "decision_timeout: must be at most 3600, got 3601"),
    ("decision_timeout", "2", "decision_timeout: expected a number more than 0"),
    ("edge_bb_per_100", math.nan, "edge_bb_per_100: expected a number more than 0, got nan"),
    ("ante", "1", "ante: expected an integer"),
    ("raise_cap", 2.5, r"raise_cap: expected 0 \(no cap\) or a positive number of bets and raises, got 2.5"),
    ("stacks", [100, 100, 100], "stacks: 3 stacks given for num_seats=2"),
    ("stacks", 0, "stacks: must be at least 1, got 0"),
    ("num_seats", 3, "tournament config: unknown key"),
    ("variant", ["razz"], "variant: expected a non-empty string"),
    ("format", ["table"], r"format: expected one of round_robin, table, got \['table'\]"),
    ("output", "", "output: expected a non-empty string"),
    ("output", 5, "output: expected a non-empty string"),
    ("name", "../../escape", "name: expected a plain name"),
    ("name", "a/b", "name: expected a plain name"),
    ("name", "..", "name: expected a plain name"),
    ("name", 7, "name: expected a non-empty string"),
    ("agents", "random", "agents: expected a list of agent names"),
    ("agents", {"type": "random"}, "agents: expected a list of agent names"),
    ("agents", ["random", ["calling_station"]], r"agents\[1\]: expected an agent name, a mapping with .type."),
    ("agents", ["random", {"samples": 3}], r"agents\[1\]: a mapping needs a 'type'"),
    ("agents", ["random", {"type": 5}], r"agents\[1\].type: expected a non-empty string"),
    ("agents", ["random", {"type": "random", "label": None}], r"agents\[1\].label: expected a non-empty string"),
    ("agents", ["random", {"type": "random", "x": math.nan}], r"agents\[1\].x: expected a finite number"),
    ("agents", ["random", {"type": "random", "label": "random"}], r"agents\[1\]: shown as 'random' like agents\[0\]"),
    ("agents", ["random", {"type": "random", "label": "a\nb"}], r"agents\[1\]: its name must be visible text"),
])
def test_a_field_of_the_wrong_type_or_value_is_refused_naming_it(field, value, message):
    with pytest.raises(ConfigError, match=message):
        TournamentConfig.from_dict({**BASE, field: value})


def test_more_blocks_than_the_limit_are_refused_before_any_is_built():
    with pytest.raises(ConfigError, match=f"deals: .* blocks; at most {MAX_BLOCKS}"):
        TournamentConfig.from_dict({**BASE, "deals": 10**15, "block_deals": 1})


def test_unknown_keys_are_refused_naming_the_known_ones():
    with pytest.raises(ConfigError, match=r"unknown key\(s\) 'hands', 3; known: name, format, agents, deals"):
        TournamentConfig.from_dict({**BASE, "hands": 10, 3: 4})


def test_the_default_tournament_is_valid():
    config = TournamentConfig()
    assert config.labels[:2] == ["random", "calling_station"] and config.output == "results/default"


def test_the_default_tournament_seats_the_trained_agents_and_every_exploiter():
    """Every trained heads-up agent; ppo_razz_multiway plays as ppo_razz_pool heads-up, so only one of them sits."""
    wanted = {"ppo_razz", "qrdqn_razz", "ppo_razz_pool", "ppo_razz_psro", "mccfr_razz", "monte_carlo", "maniac",
              "check_raiser", "board_bully", "rock", "tag"}
    assert wanted <= set(TournamentConfig().labels) and "ppo_razz_multiway" not in TournamentConfig().labels


@pytest.mark.parametrize("variant", sorted(DEFAULT_LINEUPS))
def test_each_seven_card_game_has_a_default_lineup_that_plays_it(variant):
    """A config without agents seats its variant's lineup: every agent in it is declared for the variant (what the
    harness checks before a block), stud/8 seats its hand-crafted player, and stud/8 and Action Razz their trained
    agents."""
    config = TournamentConfig.from_dict({"variant": variant})
    assert config.agents == DEFAULT_LINEUPS[variant] and len(config.agents) >= 9
    check_agents(config)
    assert ("stud8_heuristic" in config.agents) == (variant == "stud8")
    assert ("mccfr_action_razz" in config.agents) == (variant == "action_razz")  # its trained agent
    assert ("mccfr_stud8" in config.agents) == (variant == "stud8")
    assert TournamentConfig.from_dict({}).agents == DEFAULT_AGENTS


def test_a_variant_without_a_lineup_needs_its_agents_and_an_empty_list_stays_refused():
    with pytest.raises(ConfigError, match="agents: minirazz has no default lineup .*; list the agents"):
        TournamentConfig.from_dict({"variant": "minirazz"})
    with pytest.raises(ConfigError, match="agents: a tournament needs at least two agents, got 0"):
        TournamentConfig.from_dict({"variant": "stud8", "agents": []})


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty; expected a mapping of tournament settings"),
    ("# only a comment\n", "empty; expected a mapping of tournament settings"),
    ("null\n", "empty"),
    ("- random\n- calling_station\n", "expected a mapping of tournament settings, got list"),
    ("agents: [random, calling_station\n", "not valid YAML at line 2"),
    ("deals: 10\ndeals: 20\n", "not valid YAML at line 2, column 1: key 'deals' is given twice"),
    ("a: !!python/object:os.system x\n", "not valid YAML"),
    ("\tdeals: 3\n", "not valid YAML"),
])
def test_a_bad_config_file_is_one_clear_error(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message) as caught:
        TournamentConfig.from_yaml(path)
    assert "\n" not in str(caught.value)


def test_missing_unreadable_and_binary_config_files_are_clear_errors(tmp_path):
    with pytest.raises(ConfigError, match="missing.yaml: no such file"):
        TournamentConfig.from_yaml(tmp_path / "missing.yaml")
    with pytest.raises(ConfigError, match="is a folder, expected a YAML file"):
        TournamentConfig.from_yaml(tmp_path)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"deals: \xff\xfe\n")
    with pytest.raises(ConfigError, match="not UTF-8 text"):
        TournamentConfig.from_yaml(binary)


def test_name_and_output_default_from_the_file_name_and_stay_in_results(tmp_path):
    path = tmp_path / "my_run.yaml"
    path.write_text("agents: [random, calling_station]\n")
    config = TournamentConfig.from_yaml(path)
    assert (config.name, config.output) == ("my_run", "results/my_run")
    path.write_text("name: ../../escape\nagents: [random, calling_station]\n")
    with pytest.raises(ConfigError, match="name: expected a plain name"):
        TournamentConfig.from_yaml(path)


def test_the_identity_holds_what_decides_results_and_not_the_deal_count():
    config = TournamentConfig.from_dict(BASE)
    same = [{"deals": 4000}, {"workers": 2}, {"records": True}, {"decision_timeout": 9.0}, {"name": "other"},
            {"output": "elsewhere"}, {"edge_bb_per_100": 2.0}]
    for change in same:
        assert TournamentConfig.from_dict({**BASE, **change}).config_id == config.config_id, change
    different = [{"seed": 1}, {"agents": ["random", "razz_heuristic"]}, {"variant": "stud"}, {"format": "table"},
                 {"duplicate": False}, {"block_deals": 5}, {"ante": 0}, {"raise_cap": 0}, {"stacks": 500},
                 {"heads_up_uncapped": True}, {"street_bets": [5, 5, 10, 10, 20]},
                 {"agents": ["random", {"type": "calling_station", "label": "cs"}]}]
    for change in different:
        assert TournamentConfig.from_dict({**BASE, **change}).config_id != config.config_id, change


@pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_the_shipped_configs_pass_every_check(path):
    config = TournamentConfig.from_yaml(path)
    assert config.output == f"results/{path.stem}" and check_agents(config)


def test_stakes_and_cap_default_to_the_variants_and_the_identity_is_fixed():
    mini = TournamentConfig.from_dict({**BASE, "variant": "minirazz"})
    assert (mini.ante, mini.bring_in, mini.small_bet, mini.big_bet, mini.raise_cap) == (1, 1, 2, 4, 2)
    assert mini.hand_config().big_bet == 4 and mini.table == Table("minirazz", stacks=1000)
    assert TournamentConfig.from_dict({**BASE, "variant": "minirazz", "raise_cap": 0}).raise_cap == 0
    assert TournamentConfig.from_dict({**BASE, "variant": "minirazz", "big_bet": 6}).big_bet == 6
    default = TournamentConfig()
    assert (default.ante, default.bring_in, default.small_bet, default.big_bet, default.raise_cap) == (1, 2, 5, 10, 4)
    six = TournamentConfig(agents=("random", "calling_station", "razz_heuristic", "monte_carlo", "ppo_razz",
                                   "qrdqn_razz"))
    # fixed apart from what plays (the agents' code and models): a change means old folders no longer resume
    settings = {name: value for name, value in six.identity().items() if name != "fingerprints"}
    assert hashlib.sha256(json.dumps(settings, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16] == (
        "6c6d9d93c0f9ac68")
    with pytest.raises(ConfigError, match="variant: unknown variant 'minirazzz'; known: razz, action_razz"):
        TournamentConfig.from_dict({**BASE, "variant": "minirazzz"})
    with pytest.raises(ConfigError, match="agents: a table seats at most 2 agents in minirazz_tiny .*, got 3"):
        TournamentConfig.from_dict({**BASE, "variant": "minirazz_tiny", "format": "table",
                                    "agents": ["random", "calling_station", {"type": "random", "label": "r2"}]})


def _run_folder(tmp_path):
    """A ``razz train`` run folder holding the zoo's ppo_razz model as its final.zip, with its recorded hash."""
    import hashlib
    import json
    import shutil

    from razz_env.agents.sb3_zoo import ZOO_DIR

    run = tmp_path / "runs" / "mine"
    run.mkdir(parents=True)
    shutil.copy(ZOO_DIR / "ppo_razz.zip", run / "final.zip")
    (run / "config.json").write_text(json.dumps({"variant": "razz", "num_seats": 2, "algorithm": "maskable_ppo",
                                                 "encoding": "flat"}))
    digest = hashlib.sha256((run / "final.zip").read_bytes()).hexdigest()
    (run / "hashes.json").write_text(json.dumps({"final.zip": digest}))
    return run, digest


def test_a_trained_model_is_labelled_by_a_short_name_and_pinned_to_its_run_folders_hash(tmp_path):
    from razz_env.agents.registry import make_agent
    from razz_env.evaluate.config import agent_label

    run, digest = _run_folder(tmp_path)
    long_spec = {"type": "sb3_model", "path": str(run / "final.zip"), "sha256": digest, "variant": "razz",
                 "num_seats": 2, "algorithm": "maskable_ppo", "encoding": "flat"}
    config = TournamentConfig.from_dict({"agents": [long_spec, {**long_spec, "name": "my_bot"}, "razz_heuristic"]})
    assert config.labels == ["mine/final", "my_bot", "razz_heuristic"]
    assert agent_label({"type": "sb3_model", "path": "elsewhere/model.zip"}) == "model"
    config = TournamentConfig.from_dict({"agents": [str(run / "final.zip"), "razz_heuristic"]})
    assert config.agents[0]["sha256"] == digest
    with (run / "final.zip").open("ab") as changed:
        changed.write(b"\0")
    assert TournamentConfig.from_dict({"agents": [str(run / "final.zip"), "calling_station"]}).agents[0][
        "sha256"] == digest
    from razz_env.agents.sb3_agent import UntrustedModelError

    with pytest.raises(UntrustedModelError):
        make_agent(str(run / "final.zip"))


@pytest.mark.parametrize("agent", ["ppo_razz", "qrdqn_razz"])
@pytest.mark.parametrize("table, width", [({"rules": "wsop_2023"}, "1,226"), ({"raise_cap": 5}, "731"),
                                          ({"heads_up_uncapped": True}, "1,226")])
def test_a_trained_agent_is_refused_at_a_table_of_another_width_before_any_block(tmp_path, agent, table, width):
    """Issue 37 item 5: the seating check refuses it (it used to fail every block while playing)."""
    config = TournamentConfig.from_dict({**BASE, "agents": ["random", agent], "output": str(tmp_path / "t"), **table})
    with pytest.raises(ConfigError, match=rf"^agents\[1\] \({agent}\): agent '{agent}' reads 676-value 'flat' vectors; "
                                          rf"this table's \(razz, 2 seats, .*\) have {width}: it cannot be seated"):
        run_tournament(config, progress=False)
    assert not (tmp_path / "t").exists()
    check_agents(TournamentConfig.from_dict({**BASE, "agents": ["random", agent]}))
