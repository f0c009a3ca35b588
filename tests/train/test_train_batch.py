"""``razz train`` on the batched engine (``vec_env: batch``): the pool, self-play snapshots and the refusals."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib", reason="MaskablePPO is in sb3-contrib (the train extra)")
pytest.importorskip("numba", reason="the batched engine needs numba (the batch extra)")

import torch

from razz_env.engine.errors import ConfigError
from razz_env.train.config import TrainConfig
from razz_env.train.trainer import build_vec_env, train

torch.set_num_threads(1)


def _config(tmp_path, **overrides) -> TrainConfig:
    settings = {
        "name": "batch_smoke", "algorithm": "maskable_ppo", "total_timesteps": 512, "n_envs": 32, "vec_env": "batch",
        "net_arch": [16], "algo_kwargs": {"n_steps": 8, "batch_size": 64, "n_epochs": 1}, "eval_every": 256,
        "eval_deals": 10, "checkpoint_every": 256, "output": str(tmp_path / "run"), "eval_opponents": ["random"],
        "opponents": {"baselines": ["random", "calling_station"], "weights": [1.0, 1.0], "snapshot_every": 256,
                      "max_snapshots": 2, "self_play_start": 0.5, "self_play_end": 0.5},
    }
    settings.update(overrides)
    return TrainConfig.from_dict(settings)


def test_maskable_ppo_trains_on_the_batch_vec_env_with_self_play(tmp_path):
    summary = train(_config(tmp_path), progress=False)
    assert summary["vec_env"] == "batch" and summary["steps"] >= 512
    assert (tmp_path / "run" / "final.zip").exists()
    (draws,) = summary["opponent_draws"]
    assert {"random", "calling_station", "self"} <= set(draws), draws


def test_view_readers_in_the_pool_train_on_the_batch_vec_env(tmp_path):
    config = _config(tmp_path, opponents={"baselines": ["razz_heuristic", "maniac", "random"],
                                          "weights": [1.0, 1.0, 1.0]})
    summary = train(config, progress=False)
    assert summary["vec_env"] == "batch" and summary["steps"] >= 512
    (draws,) = summary["opponent_draws"]
    assert {"razz_heuristic", "maniac", "random"} <= set(draws), draws


def test_mixed_table_sizes_train_on_one_batched_engine_per_size(tmp_path):
    venv = build_vec_env(_config(tmp_path, n_envs=8, num_seats=[2, 3], encoding="flat8"))
    obs = venv.reset()
    assert obs.shape[0] == 8
    parts = venv.venv.venv.parts
    assert [part.config.num_seats for part in parts] == [2, 3] and [part.num_envs for part in parts] == [4, 4]
    obs, rewards, dones, infos = venv.step(_legal(venv))
    assert obs.shape[0] == rewards.shape[0] == dones.shape[0] == len(infos) == 8
    venv.close()


def _legal(venv):
    import numpy as np

    return np.array([int(np.flatnonzero(m)[0]) for m in venv.env_method("action_masks")])


def test_a_baseline_reading_another_encoding_is_refused_before_the_folder_is_touched(tmp_path):
    config = _config(tmp_path, encoding="ranks", opponents={"baselines": ["random", "ppo_razz"], "weights": [1, 1]})
    refusal = r"opponents.baselines\[1\]: vec_env 'batch' cannot seat it .*'flat' encoding"
    with pytest.raises(ConfigError, match=refusal):
        train(config, progress=False)
    assert not (tmp_path / "run").exists()


def test_auto_trains_on_the_batched_engine_unless_a_baseline_reads_views_one_at_a_time(tmp_path, monkeypatch):
    from razz_env.agents import simple
    from razz_env.encoding.interface import Declaration
    from razz_env.train.trainer import vec_env_kind

    assert vec_env_kind(_config(tmp_path, vec_env="auto")) == "batch"
    assert vec_env_kind(_config(tmp_path, vec_env="dummy")) == "dummy"
    monkeypatch.setattr(simple.CallingStation, "declaration", Declaration(observes=("view",)))
    assert vec_env_kind(_config(tmp_path, vec_env="auto")) == "dummy"


def test_batch_vec_env_answers_masks_through_the_wrappers(tmp_path):
    venv = build_vec_env(_config(tmp_path, n_envs=4))
    venv.reset()
    masks = venv.env_method("action_masks")
    assert len(masks) == 4 and all(m.any() for m in masks)
    venv.close()


def test_razz_train_vec_env_batch_on_the_command_line(tmp_path, capsys):
    import json

    from razz_env.cli import main

    path = tmp_path / "tiny.yaml"
    path.write_text("name: tiny\nn_envs: 8\nnet_arch: [8]\n"
                    "opponents: {baselines: [random, calling_station], weights: [1, 1]}\n")
    argv = ["train", "--config", str(path), "--output", str(tmp_path / "run"), "--dry-run"]
    assert main([*argv, "--vec-env", "batch"]) == 0
    assert json.loads(capsys.readouterr().out)["config"]["vec_env"] == "batch"
    path.write_text("name: tiny\nn_envs: 8\nnet_arch: [8]\nencoding: ranks\n"
                    "opponents: {baselines: [random, ppo_razz], weights: [1, 1]}\n")
    assert main([*argv, "--vec-env", "batch"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "opponents.baselines[1]: vec_env 'batch' cannot seat it" in err, err
    assert not (tmp_path / "run").exists()
