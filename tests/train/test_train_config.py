"""Training config validation: every bad field is one ConfigError naming it; good files load."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from razz_env.engine.errors import ConfigError
from razz_env.engine.settings import read_settings_file
from razz_env.engine.table import Table
from razz_env.recipes import load_recipe, recipe_names
from razz_env.train.config import OpponentPoolConfig, TrainConfig

REPO = Path(__file__).resolve().parents[2]
CONFIGS = sorted(REPO.glob("configs/train_*.yaml"))


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_shipped_configs_load(path, monkeypatch):
    """Every training template in ``configs/`` loads and writes to ``runs/<name>``."""
    monkeypatch.chdir(REPO)
    config = TrainConfig.from_yaml(path)
    assert config.output == f"runs/{config.name}"


@pytest.mark.parametrize("name", recipe_names())
def test_every_recipes_stage_configs_load(name):
    """Every stage config of every shipped recipe passes the same checks a ``razz train`` file does (the models an
    earlier stage makes are checked when the stage runs)."""
    recipe = load_recipe(name)
    for stage in recipe.stages:
        config = stage.checked_config()
        if stage.kind == "mccfr":  # the sampled solver's settings (its folder is the stage's, given when it runs)
            assert config == stage.config and set(config) - {"model"} == {"table", "abstraction", "seed"}
        else:
            assert config.output == f"runs/zoo/{name}/{stage.name}" and config.max_minutes is None


def test_no_shipped_config_or_recipe_mentions_an_issue():
    """Configs and recipes say what they train, not which ticket asked for it."""
    files = [*sorted(REPO.glob("configs/*.yaml")), *sorted(REPO.glob("razz_env/agents/zoo/*.recipe.yaml"))]
    assert files and not [path.name for path in files if "issue" in path.read_text().lower()]


def test_config_errors_name_the_field():
    with pytest.raises(ValueError, match="algorithm"):
        TrainConfig.from_dict({"algorithm": "sarsa"})
    with pytest.raises(ValueError, match="unknown key"):
        TrainConfig.from_dict({"learning_rate": 1})
    with pytest.raises(ValueError, match="n_envs: must be at least 1"):
        TrainConfig.from_dict({"n_envs": 0})
    with pytest.raises(ValueError, match="weights"):
        OpponentPoolConfig(baselines=("random",), weights=(1.0, 2.0))


@pytest.mark.parametrize("data, message", [
    ({"opponents": {"snapshot_every": 0}}, "opponents.snapshot_every: must be at least 1, got 0"),
    ({"opponents": {"max_snapshots": -1}}, "opponents.max_snapshots: must be at least 1, got -1"),
    ({"opponents": {"snapshot_every": 1.5}}, "opponents.snapshot_every: expected an integer of at least 1, got 1.5"),
    ({"max_minutes": 0}, "max_minutes: must be more than 0, got 0"),
    ({"max_minutes": float("nan")}, "max_minutes: expected a number more than 0, got nan"),
    ({"max_minutes": "soon"}, "max_minutes: expected a number more than 0, got 'soon'"),
    ({"total_timesteps": 0}, "total_timesteps: must be at least 1, got 0"),
    ({"total_timesteps": True}, "total_timesteps: expected an integer of at least 1, got True"),
    ({"opponents": {"baselines": ["random", "nobody"], "weights": [1, 1]}},
     "opponents.baselines[1]: unknown agent 'nobody'; known agents:"),
    ({"eval_opponents": ["random", {"type": "monte_carlo", "sample": 3}]}, "eval_opponents[1]: agent 'monte_carlo'"),
    ({"eval_opponents": [7]}, "eval_opponents[0]: expected an agent name or a mapping with 'type', got 7"),
    ({"eval_opponents": []}, "eval_opponents: expected at least one agent"),
    ({"num_seats": 3, "eval_opponents": ["ppo_razz"]},
     "eval_opponents[0]: agent 'ppo_razz' plays razz at 2 seats; it cannot be seated at razz with 3 seats"),
    ({"variant": "stud", "opponents": {"baselines": ["qrdqn_razz"], "weights": [1]}},
     "opponents.baselines[0]: agent 'qrdqn_razz' plays razz"),
    ({"opponents": {"weights": [1, 1, -2]}}, "opponents.weights[2]: expected a finite weight >= 0, got -2"),
    ({"opponents": {"weights": [0, 0, 0]}}, "opponents.weights: at least one weight must be positive"),
    ({"opponents": {"weights": [1, "x", 1]}}, "opponents.weights: expected a list of numbers"),
    ({"opponents": {"weights": [1, 1, float("inf")]}}, "opponents.weights"),
    ({"opponents": {"self_play_end": "half"}}, "opponents.self_play_end: expected a number from 0 to 1, got 'half'"),
    ({"opponents": {"baselines": []}}, "opponents.baselines: expected at least one agent"),
    ({"opponents": {"snapshots": 3}}, "opponents: unknown key(s) ['snapshots']; known: ['baselines'"),
    ({"opponents": ["random"]}, "opponents: expected a mapping"),
    ({"net_arch": [64, 0]}, "net_arch[1]: must be at least 1, got 0"),
    ({"net_arch": {"pi": [64]}}, "net_arch: expected a list of integers"),
    ({"net_arch": 64}, "net_arch: expected a list of integers, got 64"),
    ({"algo_kwargs": {"lr": 0.1}}, "algo_kwargs: unknown key 'lr' for MaskablePPO.__init__; known: ['batch_size'"),
    ({"algo_kwargs": {"seed": 3}}, "algo_kwargs.seed: not settable here (use the seed field)"),
    ({"algo_kwargs": {"device": "cuda"}}, "algo_kwargs.device: not settable here"),
    ({"algo_kwargs": {"n_steps": "64"}}, "algo_kwargs.n_steps: expected an integer, got '64'"),
    ({"algo_kwargs": {"gamma": [1]}}, "algo_kwargs.gamma: expected a number, got [1]"),
    ({"algo_kwargs": ["n_steps", 64]}, "algo_kwargs: expected a mapping"),
    ({"algorithm": "qrdqn", "algo_kwargs": {"n_epochs": 4}}, "algo_kwargs: unknown key 'n_epochs' for QRDQN"),
    ({"policy_kwargs": {"net_arch": [8]}}, "policy_kwargs.net_arch: not settable here (use the net_arch field)"),
    ({"policy_kwargs": {"activation_fn": "relu"}}, "policy_kwargs.activation_fn: expected a Python class"),
    ({"policy_kwargs": {"n_quantiles": 5}}, "policy_kwargs: unknown key 'n_quantiles'"),
    ({"num_seats": 9}, "num_seats: "),
    ({"num_seats": [2, 6]}, "num_seats: a list of table sizes needs a padded encoding (one observation layout "
                              "for every size), got encoding 'flat'; set encoding to one of flat8, ranks8"),
    ({"num_seats": [2, 6], "encoding": "ranks"}, "num_seats: a list of table sizes needs a padded encoding"),
    ({"num_seats": [6], "encoding": "flat8"}, "num_seats: expected a seat count, or a list of two or more "
                                                "different seat counts (mixed table sizes), got [6]"),
    ({"num_seats": [], "encoding": "flat8"}, "num_seats: expected a seat count, or a list of two or more"),
    ({"num_seats": [2, 6, 2], "encoding": "flat8"}, "different seat counts (mixed table sizes), got [2, 6, 2]"),
    ({"num_seats": [2, 9], "encoding": "flat8"}, "num_seats: must be at most 8, got 9"),
    ({"num_seats": [2, 1], "encoding": "flat8"}, "num_seats: must be at least 2, got 1"),
    ({"num_seats": [2, "six"], "encoding": "flat8"},
     "num_seats: expected an integer or a list of integers, got [2, 'six']"),
    ({"num_seats": [2, True], "encoding": "flat8"}, "num_seats: expected an integer or a list of integers"),
    ({"num_seats": [2, 3, 6], "encoding": "flat8", "n_envs": 8},
     "n_envs: expected a multiple of the 3 table sizes in num_seats (environment i plays num_seats[i % 3] "
     "seats), got 8"),
    ({"num_seats": [2, 6], "encoding": "flat8", "eval_opponents": ["random", "ppo_razz"]},
     "eval_opponents[1]: agent 'ppo_razz' plays razz at 2 seats; it cannot be seated at razz with 6 seats"),
    ({"num_seats": [6, 2], "encoding": "flat8", "opponents": {"baselines": ["ppo_razz"], "weights": [1]}},
     "opponents.baselines[0]: agent 'ppo_razz' plays razz at 2 seats; it cannot be seated at razz with 6 seats"),
    ({"stacks": "deep"}, "stacks: expected an integer or a list of integers, got 'deep'"),
    ({"stacks": [100, 100, 100]}, "stacks: 3 stacks given for num_seats=2"),
    ({"raise_cap": -1}, "raise_cap: expected 0 (no cap) or a positive number of bets and raises, got -1"),
    ({"street_bets": [5, 5]}, "street_bets: expected 5 sizes (3rd to 7th street), got 2"),
    ({"ante": -1}, "ante"),
    ({"variant": "holdem"}, "variant: unknown variant 'holdem'"),
    ({"encoding": "pixels"}, "encoding: unknown encoding 'pixels'; known: flat"),
    ({"vec_env": "threads"}, "vec_env: expected one of auto, dummy, subproc, batch, got 'threads'"),
    ({"seed": -1}, "seed: must be at least 0, got -1"),
    ({"name": "a/b"}, "name: expected a non-empty name without slashes"),
    ({"name": ""}, "name: expected a non-empty name"),
    ({"output": "  "}, "output: expected a folder path"),
    ({"output": 3}, "output: expected a string, got 3"),
    ({1: 2}, "train config: setting names are strings, got the key 1"),
    ({"init_model": "runs/a/final.zip"}, "init_model: expected a mapping or null, got 'runs/a/final.zip'"),
    ({"init_model": {"path": "a.zip"}},
     "init_model: expected a mapping with path, sha256 (the model file and its SHA-256) and optionally widen_from, got "
     "the keys 'path'"),
    ({"init_model": {"path": "a.zip", "sha256": "0" * 64, "algorithm": "ppo"}},
     "got the keys 'algorithm', 'path', 'sha256'"),
    ({"init_model": {"path": 3, "sha256": "0" * 64}}, "init_model.path: expected a string, got 3"),
    ({"init_model": {"path": " ", "sha256": "0" * 64}}, "init_model.path: expected the model file's path"),
    ({"init_model": {"path": "a\nb.zip", "sha256": "0" * 64}}, "(printable characters), got 'a\\nb.zip'"),
    ({"init_model": {"path": "a.zip", "sha256": "abc"}},
     "init_model.sha256: expected the file's SHA-256 as 64 hex digits, got 'abc'"),
    ({"init_model": {"path": "a.zip", "sha256": None}}, "init_model.sha256: expected a string, got None"),
    ({"encoding": "flat8", "init_model": {"path": "a.zip", "sha256": "0" * 64, "widen_from": "flat"}},
     "init_model.widen_from: expected a mapping with exactly encoding, num_seats"),
    ({"encoding": "flat8", "init_model": {"path": "a.zip", "sha256": "0" * 64, "widen_from": {"encoding": "flat"}}},
     "init_model.widen_from: expected a mapping with exactly encoding, num_seats"),
    ({"encoding": "flat8",
      "init_model": {"path": "a.zip", "sha256": "0" * 64, "widen_from": {"encoding": "ranks", "num_seats": 2}}},
     "init_model.widen_from.encoding: a file is widened from the fixed-size twin of the config's encoding 'flat8', so "
     "only 'flat' is allowed, got 'ranks'"),
    ({"init_model": {"path": "a.zip", "sha256": "0" * 64, "widen_from": {"encoding": "flat", "num_seats": 2}}},
     "so nothing: widening needs a padded encoding (flat8 or ranks8) is allowed, got 'flat'"),
    ({"encoding": "flat8",
      "init_model": {"path": "a.zip", "sha256": "0" * 64, "widen_from": {"encoding": "flat", "num_seats": 9}}},
     "init_model.widen_from.num_seats: expected a table size from 2 to 8, got 9"),
    ({"encoding": "flat8",
      "init_model": {"path": "a.zip", "sha256": "0" * 64, "widen_from": {"encoding": "flat", "num_seats": True}}},
     "init_model.widen_from.num_seats: expected an integer, got True"),
    ({"variant": "stud", "encoding": "ranks"}, "encoding 'ranks' drops suits, which matter in stud"),
    ({"variant": "stud", "encoding": "ranks8"}, "encoding 'ranks8' drops suits, which matter in stud"),
    ({"algo_kwargs": {"n_steps": 0}}, "algo_kwargs.n_steps: maskable_ppo needs at least 1, got 0"),
    ({"algo_kwargs": {"n_steps": 1}, "n_envs": 1}, "needs n_steps * n_envs of at least 2"),
    ({"algo_kwargs": {"batch_size": 1}}, "algo_kwargs.batch_size: maskable_ppo needs at least 2, got 1"),
    ({"algorithm": "ppo", "algo_kwargs": {"n_epochs": 0}}, "algo_kwargs.n_epochs: ppo needs at least 1, got 0"),
    ({"algorithm": "a2c", "algo_kwargs": {"gamma": 1.5}}, "algo_kwargs.gamma: a2c needs from 0 to 1, got 1.5"),
    ({"algorithm": "dqn", "algo_kwargs": {"buffer_size": 0}}, "algo_kwargs.buffer_size: dqn needs at least 1, got 0"),
    ({"algorithm": "qrdqn", "algo_kwargs": {"exploration_fraction": float("nan")}},
     "algo_kwargs.exploration_fraction: qrdqn needs from 0 to 1, got nan"),
    ({"algo_kwargs": {"learning_rate": 0}}, "algo_kwargs.learning_rate: expected a positive number, got 0"),
])
def test_bad_values_name_the_field(data, message):
    with pytest.raises(ConfigError) as err:
        TrainConfig.from_dict(data)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_init_model_is_recorded_with_its_sha256_in_lower_case():
    config = TrainConfig.from_dict({"init_model": {"path": "runs/a/final.zip", "sha256": "AB" * 32}})
    assert config.init_model == {"path": "runs/a/final.zip", "sha256": "ab" * 32}
    assert config.to_dict()["init_model"] == config.init_model
    assert TrainConfig.from_dict({}).init_model is None
    widen_from = {"encoding": "flat", "num_seats": 2}
    wide = TrainConfig.from_dict({"encoding": "flat8",
                                  "init_model": {"path": "a.zip", "sha256": "0" * 64, "widen_from": widen_from}})
    assert wide.to_dict()["init_model"]["widen_from"] == widen_from


def test_a_list_of_table_sizes_is_kept_in_order_and_recorded_as_a_list():
    config = TrainConfig.from_dict({"num_seats": [6, 2, 3], "encoding": "ranks8", "n_envs": 6})
    assert (config.num_seats, config.seat_counts, config.mixed_sizes) == ((6, 2, 3), (6, 2, 3), True)
    assert config.to_dict()["num_seats"] == [6, 2, 3]
    assert TrainConfig.from_dict(config.to_dict()) == config
    assert config.env_kwargs(3)["table"] == config.table(3) == Table(num_seats=3, stacks=1000)
    with pytest.raises(ValueError, match=r"env_kwargs: name one of the table sizes \[6, 2, 3\]"):
        config.env_kwargs()
    single = TrainConfig.from_dict({"num_seats": 6, "raise_cap": 0})
    assert (single.seat_counts, single.mixed_sizes) == ((6,), False)
    assert single.env_kwargs() == {"table": Table(num_seats=6, stacks=1000, raise_cap=0), "encoding": "flat"}


def test_qrdqn_takes_its_own_policy_keywords():
    config = TrainConfig.from_dict({"algorithm": "qrdqn", "policy_kwargs": {"n_quantiles": 5},
                                    "algo_kwargs": {"train_freq": [4, "step"], "learning_rate": 1}})
    assert config.policy_kwargs == {"n_quantiles": 5}


@pytest.mark.parametrize("text, message", [
    ("", "empty; expected a mapping of training settings"),
    ("# only a comment\n", "empty; expected a mapping"),
    ("- a\n- b\n", r"expected a mapping of training settings, got list \['a', 'b'\]"),
    ("name: [unclosed\n", "not valid YAML at line 2"),
    ("a: 1\n  b: 2\n", "not valid YAML at line 2, column 4"),
    ("when: 2001-13-45\n", "not valid YAML"),
])
def test_unreadable_files_are_one_line(tmp_path, text, message):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message) as err:
        read_settings_file(path, "training", "configs/train_ppo_razz.yaml")
    assert "\n" not in str(err.value) and str(err.value).startswith(str(path))


def test_missing_folder_and_binary_files(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        TrainConfig.from_yaml(tmp_path / "absent.yaml")
    with pytest.raises(ConfigError, match="is a folder"):
        TrainConfig.from_yaml(tmp_path)
    (tmp_path / "bin.yaml").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ConfigError, match="not UTF-8 text"):
        TrainConfig.from_yaml(tmp_path / "bin.yaml")


def test_name_and_output_default_from_the_file_name(tmp_path):
    (tmp_path / "my_run.yaml").write_text("total_timesteps: 100\n")
    config = TrainConfig.from_yaml(tmp_path / "my_run.yaml", n_envs=None, seed=4)
    assert (config.name, config.output, config.total_timesteps, config.seed) == ("my_run", "runs/my_run", 100, 4)


def test_the_stakes_default_to_the_variants_and_seven_card_agents_are_refused_at_minirazz():
    mini = TrainConfig.from_dict({"variant": "minirazz", "opponents": {"baselines": ["random"], "weights": [1]},
                                  "eval_opponents": ["calling_station"]})
    assert (mini.ante, mini.bring_in, mini.small_bet, mini.big_bet) == (1, 1, 2, 4)
    assert mini.to_dict()["big_bet"] == 4
    razz = TrainConfig()
    assert (razz.ante, razz.bring_in, razz.small_bet, razz.big_bet) == (1, 2, 5, 10)
    with pytest.raises(ConfigError, match=r"eval_opponents\[2\]: agent 'razz_heuristic' plays razz or action_razz "
                                          r"or stud or stud8 at any number of seats; it cannot be seated at minirazz"):
        TrainConfig.from_dict({"variant": "minirazz"})


def _yaml_default(value: object) -> str:
    """A default as the key reference writes it: YAML flow style."""
    import yaml

    return yaml.safe_dump(value, default_flow_style=True, width=1000).strip().removesuffix("\n...").strip()


def test_the_key_reference_in_docs_training_lists_every_key_with_its_default():
    import dataclasses
    import re

    text = (REPO / "docs" / "training.md").read_text()
    section = text.split("## Every training key", 1)[1].split("\n## ", 1)[0]
    documented = dict(re.findall(r"^\| `([\w.]+)` \| `?([^|`]+?)`? \|", section, flags=re.M))
    expected = {}
    for cls, prefix in ((TrainConfig, ""), (OpponentPoolConfig, "opponents.")):
        for field in dataclasses.fields(cls):
            if field.name == "opponents":
                continue
            default = field.default if field.default is not dataclasses.MISSING else field.default_factory()
            expected[prefix + field.name] = _yaml_default(list(default) if isinstance(default, tuple) else default)
    expected.update(name="the file's name", output="runs/<name>")
    assert documented == expected


def test_the_minimal_config_sets_a_few_keys_and_runs_with_defaults():
    import yaml

    path = REPO / "configs" / "train_minimal.yaml"
    assert len(yaml.safe_load(path.read_text())) <= 4
    config = TrainConfig.from_yaml(path)
    assert config.algorithm == "maskable_ppo" and config.opponents == OpponentPoolConfig()
