"""``razz train`` smoke runs for every algorithm, resume, the opponent pool and the masking adapter."""

from __future__ import annotations

import csv
import json
import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from agents.registry import make_agent  # noqa: E402
from agents.sb3_agent import ALGORITHMS, SB3Agent, masked_actions  # noqa: E402
from razz_env.agent import observe  # noqa: E402
from razz_env.encoding import make_encoder  # noqa: E402
from razz_env.encoding.actions import to_engine  # noqa: E402
from razz_env.engine.config import HandConfig  # noqa: E402
from razz_env.engine.state import HandState  # noqa: E402
from razz_env.training.config import OpponentPoolConfig, TrainConfig  # noqa: E402
from razz_env.training.pool import OpponentPool  # noqa: E402
from razz_env.training.train import build_model, build_vec_env, train  # noqa: E402

torch.set_num_threads(1)

SMALL_KWARGS = {
    "maskable_ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1},
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1},
    "a2c": {"n_steps": 8},
    "dqn": {"learning_starts": 64, "buffer_size": 1000, "batch_size": 32, "train_freq": 4},
    "qrdqn": {"learning_starts": 64, "buffer_size": 1000, "batch_size": 32, "train_freq": 4},
}


def _config(tmp_path, algorithm: str, steps: int = 256, **overrides) -> TrainConfig:
    settings = {
        "name": f"smoke_{algorithm}", "algorithm": algorithm, "total_timesteps": steps, "n_envs": 2,
        "net_arch": [16], "algo_kwargs": SMALL_KWARGS[algorithm], "eval_every": 128, "eval_deals": 10,
        "checkpoint_every": 128, "output": str(tmp_path / algorithm),
        "opponents": {"snapshot_every": 128, "max_snapshots": 2, "self_play_start": 0.5, "self_play_end": 0.5},
    }
    settings.update(overrides)
    return TrainConfig.from_dict(settings)


@pytest.mark.parametrize("algorithm", ["maskable_ppo", "qrdqn", "a2c"])
def test_train_smoke_writes_run_folder(tmp_path, algorithm):
    summary = train(_config(tmp_path, algorithm), progress=False)
    run = tmp_path / algorithm
    assert summary["steps"] >= 256
    assert (run / "final.zip").exists() and (run / "summary.json").exists()
    assert 0 < summary["env_share"] < 1
    with open(run / "eval.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {row["opponent"] for row in rows} == {"random", "calling_station", "razz_heuristic"}
    assert {int(row["steps"]) for row in rows} >= {128, 256}
    assert list((run / "snapshots").glob("step_*.zip"))
    draws = summary["opponent_draws"]
    assert any("self" in counts for counts in draws), "self-play snapshots must be drawn as opponents"
    assert list((run / "tb").rglob("events.out.tfevents*"))


def test_resume_continues_from_the_newest_checkpoint(tmp_path):
    config = _config(tmp_path, "maskable_ppo", steps=256)
    train(config, progress=False)
    longer = _config(tmp_path, "maskable_ppo", steps=512)
    summary = train(longer, resume=True, progress=False)
    assert summary["steps"] >= 512
    with open(tmp_path / "maskable_ppo" / "eval.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    steps = [int(row["steps"]) for row in rows]
    minutes = [float(row["minutes"]) for row in rows]
    assert steps == sorted(steps) and max(steps) >= 384
    assert minutes == sorted(minutes), "a resumed run continues the wall-clock axis"


def test_config_errors_name_the_field():
    with pytest.raises(ValueError, match="algorithm"):
        TrainConfig.from_dict({"algorithm": "sarsa"})
    with pytest.raises(ValueError, match="unknown key"):
        TrainConfig.from_dict({"learning_rate": 1})
    with pytest.raises(ValueError, match="n_envs: expected a positive integer"):
        TrainConfig.from_dict({"n_envs": 0})
    with pytest.raises(ValueError, match="weights"):
        OpponentPoolConfig(baselines=("random",), weights=(1.0, 2.0))


def test_pool_follows_the_self_play_schedule(tmp_path):
    config = OpponentPoolConfig(baselines=("random", "calling_station"), weights=(1.0, 0.0), self_play_start=0.0,
                                self_play_end=1.0)
    pool = OpponentPool(config, "maskable_ppo", "flat", seed=3)
    assert {pool().name for _ in range(50)} == {"random"}
    model_config = _config(tmp_path, "maskable_ppo")
    venv = build_vec_env(model_config)
    path = tmp_path / "snap.zip"
    build_model(model_config, venv, None).save(path)
    venv.close()
    pool.add_snapshot(path)
    pool.set_progress(1.0)
    assert all(isinstance(pool(), SB3Agent) for _ in range(20))
    pool.set_progress(0.5)
    kinds = [type(pool()).__name__ for _ in range(400)]
    assert 120 < kinds.count("SB3Agent") < 280


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_trained_agents_never_send_an_illegal_action(tmp_path, algorithm):
    """Whatever the algorithm, the masked adapter only returns ids the mask allows."""
    config = _config(tmp_path, algorithm)
    venv = build_vec_env(config)
    model = build_model(config, venv, None)
    venv.close()
    with torch.no_grad():
        for parameter in model.policy.parameters():
            parameter.normal_(0, 3)
    agent = SB3Agent(model, deterministic=False, seed=1)
    hand_config = HandConfig.create("razz", num_seats=2, starting_stack=1000)
    encoder = make_encoder("flat", hand_config)
    chooser = random.Random(0)
    decisions = 0
    for _ in range(200):
        hand = HandState(hand_config, rng=chooser)
        while not hand.is_over:
            observation = observe(hand, hand.actor, encoder=encoder)
            action_id = agent.act(observation)
            assert observation.action_mask[action_id] == 1
            hand.act(to_engine(action_id, hand.legal_actions()))
            decisions += 1
    assert decisions > 300


def test_masking_overrides_the_unmasked_choice(tmp_path):
    config = _config(tmp_path, "qrdqn")
    venv = build_vec_env(config)
    model = build_model(config, venv, None)
    venv.close()
    observations = np.zeros((3, model.observation_space.shape[0]), dtype=np.float32)
    masks = np.array([[0, 1, 0, 0, 0], [0, 0, 0, 1, 0], [1, 0, 0, 0, 1]], dtype=bool)
    chosen = masked_actions(model, observations, masks)
    assert chosen.tolist()[:2] == [1, 3] and chosen[2] in (0, 4)


def test_zoo_agents_load_verified_and_play_legally():
    from agents import sb3_zoo

    names = list(sb3_zoo.manifest())
    if not names:
        pytest.skip("no shipped agents in agents/zoo")
    for name in names:
        agent = make_agent(name)
        entry = sb3_zoo.manifest()[name]
        hand_config = HandConfig.create(entry["variant"], num_seats=entry["num_players"],
                                        starting_stack=entry["starting_stacks"])
        encoder = make_encoder(entry["encoding"], hand_config)
        hand = HandState(hand_config, seed=1)
        while not hand.is_over:
            observation = observe(hand, hand.actor, encoder=encoder)
            hand.act(to_engine(agent.act(observation), hand.legal_actions()))


def test_zoo_refuses_a_file_whose_hash_differs(tmp_path, monkeypatch):
    from agents import sb3_zoo

    (tmp_path / "fake.zip").write_bytes(b"not the trusted file")
    manifest = {"fake": {"file": "fake.zip", "sha256": "0" * 64, "algorithm": "maskable_ppo", "encoding": "flat"}}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    monkeypatch.setattr(sb3_zoo, "ZOO_DIR", tmp_path)
    monkeypatch.setattr(sb3_zoo, "MANIFEST", tmp_path / "manifest.json")
    with pytest.raises(sb3_zoo.ZooIntegrityError, match="SHA-256"):
        sb3_zoo.verified_path("fake")
