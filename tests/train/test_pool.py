"""The opponent pool loads a self-play snapshot only from bytes matching the hash recorded when it was written."""

from __future__ import annotations

import hashlib
import io

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import torch

from razz_env.agents.sb3_agent import UntrustedModelError
from razz_env.train.config import OpponentPoolConfig, TrainConfig
from razz_env.train.pool import OpponentPool
from razz_env.train.trainer import build_model, build_vec_env

torch.set_num_threads(1)


def _model_bytes(fill: float | None = None) -> bytes:
    config = TrainConfig.from_dict({"n_envs": 1, "net_arch": [8], "algo_kwargs": {"n_steps": 16, "batch_size": 16}})
    venv = build_vec_env(config)
    model = build_model(config, venv, None)
    venv.close()
    if fill is not None:
        with torch.no_grad():
            for parameter in model.policy.parameters():
                parameter.fill_(fill)
    buffer = io.BytesIO()
    model.save(buffer)
    return buffer.getvalue()


def _pool() -> OpponentPool:
    return OpponentPool(OpponentPoolConfig(baselines=("random",), weights=(1.0,)), "maskable_ppo", "flat", seed=0)


def test_a_snapshot_whose_hash_differs_is_not_loaded(tmp_path):
    path = tmp_path / "step_8.zip"
    path.write_bytes(_model_bytes())
    pool = _pool()
    with pytest.raises(UntrustedModelError, match="differs from the recorded"):
        pool.add_snapshot(path, "0" * 64)
    assert pool.snapshots == []


def test_a_snapshot_swapped_after_the_check_still_loads_the_verified_bytes(tmp_path, monkeypatch):
    trusted, swapped = _model_bytes(0.25), _model_bytes(-1.0)
    path = tmp_path / "step_8.zip"
    path.write_bytes(trusted)
    real_sha256 = hashlib.sha256

    def sha256_then_swap(*args, **kwargs):
        digest = real_sha256(*args, **kwargs)
        path.write_bytes(swapped)
        return digest

    monkeypatch.setattr(hashlib, "sha256", sha256_then_swap)
    pool = _pool()
    pool.add_snapshot(path, real_sha256(trusted).hexdigest())
    monkeypatch.setattr(hashlib, "sha256", real_sha256)
    assert path.read_bytes() == swapped
    weights = [p for p in pool.snapshots[0].model.policy.parameters()]
    assert all(bool((p == 0.25).all()) for p in weights)


def test_the_pools_of_a_process_share_one_model_per_snapshot(tmp_path):
    """Every environment's pool holds the snapshot, but the process loads its model once (not once per pool:
    64 environments with 10 snapshots each filled 20 GB); each pool's agent draws from its own generator,
    and the model goes when no pool holds it any more."""
    import gc

    path = tmp_path / "step_8.zip"
    path.write_bytes(_model_bytes(0.5))
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    pools = [OpponentPool(OpponentPoolConfig(baselines=("random",), weights=(1.0,), max_snapshots=1), "maskable_ppo",
                          "flat", seed=seed) for seed in range(3)]
    for pool in pools:
        pool.add_snapshot(path, digest)
    agents = [pool.snapshots[0] for pool in pools]
    assert all(agent.model is agents[0].model for agent in agents)
    assert len({id(agent._generator) for agent in agents}) == 3 and not agents[0].deterministic
    from razz_env.train.pool import _SNAPSHOT_MODELS

    del agents
    for pool in pools:
        pool.snapshots.clear()
    gc.collect()
    assert not [key for key in _SNAPSHOT_MODELS.keys() if key[0] == str(path.resolve())]
