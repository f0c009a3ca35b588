"""``experiments/widen_model.py``: the model a config's run starts from, widened, saved on its own."""

from __future__ import annotations

import hashlib
import json

import torch
import yaml

from razz_env.agents.sb3_agent import load_model
from razz_env.train.config import TrainConfig
from razz_env.train.trainer import build_model, build_vec_env, initialise_from

SCRIPT = "widen_model.py"


def _flat_model(tmp_path) -> dict[str, str]:
    config = TrainConfig.from_dict({"net_arch": [16], "n_envs": 2, "output": str(tmp_path / "unused")})
    venv = build_vec_env(config)
    build_model(config, venv, None).save(tmp_path / "flat.zip")
    venv.close()
    digest = hashlib.sha256((tmp_path / "flat.zip").read_bytes()).hexdigest()
    return {"path": str(tmp_path / "flat.zip"), "sha256": digest}


def _config(tmp_path, init_model) -> str:
    settings = {"encoding": "flat8", "num_players": [2, 6], "net_arch": [16], "n_envs": 2,
                "output": str(tmp_path / "run"), "init_model": init_model}
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(settings))
    return str(tmp_path / "config.yaml")


def test_writes_the_widened_start_of_the_run(tmp_path, experiment):
    config = _config(tmp_path, {**_flat_model(tmp_path), "widen_from": {"encoding": "flat", "num_players": 2}})
    result = experiment(SCRIPT).run("--config", config, "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    data = (tmp_path / "out" / "model.zip").read_bytes()
    assert json.loads((tmp_path / "out" / "hashes.json").read_text()) == {"model.zip": hashlib.sha256(data).hexdigest()}
    written = load_model(data, "maskable_ppo")
    train_config = TrainConfig.from_yaml(config)
    venv = build_vec_env(train_config)
    start = build_model(train_config, venv, None)
    venv.close()
    initialise_from(start, train_config)
    assert written.observation_space == start.observation_space and written.observation_space.shape == (2068,)
    assert all(torch.equal(a, b) for a, b in zip(written.policy.parameters(), start.policy.parameters()))
    assert not (tmp_path / "run").exists(), "no run folder is made"


def test_refuses_a_config_without_init_model_and_a_taken_folder(tmp_path, experiment):
    bare = tmp_path / "bare.yaml"
    bare.write_text(yaml.safe_dump({"net_arch": [16], "n_envs": 2}))
    experiment(SCRIPT).assert_refuses(["--config", str(bare)], "has no init_model", tmp_path / "o")
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "model.zip").write_bytes(b"mine")
    widen_from = {"encoding": "flat", "num_players": 2}
    config = _config(tmp_path, {**_flat_model(tmp_path), "widen_from": widen_from})
    result = experiment(SCRIPT).run("--config", config, "--out", str(tmp_path / "o"))
    assert result.returncode == 2 and "already holds a model.zip" in result.stderr and "Traceback" not in result.stderr
    assert (tmp_path / "o" / "model.zip").read_bytes() == b"mine"
