"""``experiments/imitation_warm_start.py``: a cloned model that a train config can start from."""

from __future__ import annotations

import hashlib
import json

import yaml

from razz_env.train.config import TrainConfig
from razz_env.train.trainer import train

SCRIPT = "imitation_warm_start.py"


def _config(tmp_path, **overrides) -> str:
    settings = {"name": "stud_small", "variant": "stud", "num_players": 2, "net_arch": [16], "n_envs": 2,
                "total_timesteps": 128, "algo_kwargs": {"n_steps": 64, "batch_size": 64},
                "opponents": {"baselines": ["rock", "tag"], "weights": [1, 2]}, "eval_every": 128, "eval_deals": 4,
                "output": str(tmp_path / "run"), **overrides}
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(settings))
    return str(path)


def test_the_cloned_model_is_recorded_and_starts_a_run_of_its_config(tmp_path, experiment):
    out = tmp_path / "imitation"
    config = _config(tmp_path)
    result = experiment(SCRIPT).run("--config", config, "--teacher", "razz_heuristic", "--hands", "40", "--epochs",
                                    "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    sha256 = hashlib.sha256((out / "model.zip").read_bytes()).hexdigest()
    assert json.loads((out / "hashes.json").read_text()) == {"model.zip": sha256}
    record = json.loads((out / "imitation.json").read_text())
    assert record["teacher"] == "razz_heuristic" and record["hands"] == 40 and record["sha256"] == sha256
    assert record["opponents"] == ["rock", "tag"] and record["weights"] == [1, 2], "the config's pool by default"
    assert record["decisions"] == sum(record["teacher_action_counts"]) > 40
    assert [row["epoch"] for row in record["epochs_run"]] == [1, 2]
    chosen = tmp_path / "chosen"
    result = experiment(SCRIPT).run("--config", config, "--teacher", "razz_heuristic", "--hands", "10", "--epochs",
                                    "1", "--opponents", "maniac", "--weights", "2", "--out", str(chosen))
    assert result.returncode == 0, result.stderr
    record = json.loads((chosen / "imitation.json").read_text())
    assert record["opponents"] == ["maniac"] and record["weights"] == [2.0]
    start = TrainConfig.from_yaml(config, init_model={"path": str(out / "model.zip"), "sha256": sha256})
    plan = train(start, progress=False, dry_run=True)
    assert plan["dry_run"] and plan["config"]["init_model"]["sha256"] == sha256


def test_bad_input_exits_2_naming_it_and_writes_nothing(tmp_path, experiment):
    config = _config(tmp_path)
    (tmp_path / "mixed").mkdir()
    mixed = _config(tmp_path / "mixed", num_players=[2, 6], encoding="flat8")
    cases = ((["--config", config, "--hands", "0"], "--hands: expected a positive integer, got 0"),
             (["--config", config, "--learning-rate", "0"], "--learning-rate"),
             (["--config", str(tmp_path / "none.yaml")], "none.yaml"),
             (["--config", mixed], "at one table size; this config trains maskable_ppo at [2, 6] seats"),
             (["--config", config, "--teacher", "no_such_agent", "--hands", "2"], "no_such_agent"),
             (["--config", config, "--opponents", "rock", "tag", "--weights", "1"], "--opponents and --weights"),
             (["--config", config, "--opponents", "rock", "--weights", "-1"], "--weights: expected non-negative"),
             (["--config", config, "--opponents", "no_such_agent", "--weights", "1", "--hands", "2"], "--opponents"))
    for args, named in cases:
        experiment(SCRIPT).assert_refuses(args, named, tmp_path / "o")
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "model.zip").write_bytes(b"mine")
    result = experiment(SCRIPT).run("--config", config, "--out", str(tmp_path / "o"))
    assert result.returncode == 2 and "already holds a model.zip" in result.stderr
    assert (tmp_path / "o" / "model.zip").read_bytes() == b"mine"
