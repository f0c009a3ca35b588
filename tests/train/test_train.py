"""``razz train`` smoke runs for every algorithm, resume, the opponent pool and the masking adapter."""

from __future__ import annotations

import csv
import hashlib
import json
import random

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import torch

from razz_env.agents.sb3_agent import ALGORITHMS, SB3Agent, masked_actions
from razz_env.encoding import make_encoder
from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import observe
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.train.config import OpponentPoolConfig, TrainConfig
from razz_env.train.pool import OpponentPool
from razz_env.train.trainer import build_model, build_vec_env, evaluate, initialise_from, train

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
    pool.add_snapshot(path, hashlib.sha256(path.read_bytes()).hexdigest())
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
    hand_config = HandConfig.create("razz", num_seats=2, stacks=1000)
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


def _eval_steps(run) -> dict[str, list[int]]:
    with open(run / "eval.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    by_opponent: dict[str, list[int]] = {}
    for row in rows:
        by_opponent.setdefault(row["opponent"], []).append(int(row["steps"]))
    return by_opponent


def _tensorboard_events(run) -> list[tuple[str, int]]:
    """Every (tag, step) scalar in the run's event files, as written (duplicates included)."""
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader

    events = []
    for path in sorted((run / "tb").rglob("events.out.tfevents*")):
        for event in EventFileLoader(str(path)).Load():
            events.extend((value.tag, event.step) for value in event.summary.value)
    return events


def _snapshot(run) -> dict[str, bytes]:
    return {str(p.relative_to(run)): p.read_bytes() for p in sorted(run.rglob("*")) if p.is_file()}


def test_a_folder_holding_a_run_is_refused_without_resume_or_fresh(tmp_path):
    config = _config(tmp_path, "maskable_ppo", steps=256)
    train(config, progress=False)
    before = _snapshot(tmp_path / "maskable_ppo")
    with pytest.raises(ConfigError, match=r"holds an earlier run .*pass --resume to continue it, --fresh to delete"):
        train(_config(tmp_path, "maskable_ppo", steps=128), progress=False)
    assert _snapshot(tmp_path / "maskable_ppo") == before, "a refused run leaves the folder as it was"


def test_a_folder_another_run_is_training_in_is_refused_and_left_alone(tmp_path):
    """Two runs in one folder (two ``--output mix`` at once, two ``--resume``) mixed their eval.csv rows."""
    from razz_env.train.runfolder import RunFolder

    run = tmp_path / "maskable_ppo"
    train(_config(tmp_path, "maskable_ppo", steps=128), progress=False)
    before = _snapshot(run)
    with RunFolder(run).locked():
        for kwargs in ({"resume": True}, {"fresh": True}, {}):
            with pytest.raises(ConfigError, match=r"another run is training in this folder"):
                train(_config(tmp_path, "maskable_ppo", steps=256), progress=False, **kwargs)
    assert _snapshot(run) == before
    assert train(_config(tmp_path, "maskable_ppo", steps=256), resume=True, progress=False)["steps"] == 256


def test_fresh_deletes_the_earlier_run_and_says_what(tmp_path):
    run = tmp_path / "maskable_ppo"
    train(_config(tmp_path, "maskable_ppo", steps=256), progress=False)
    (run / "notes.txt").write_text("mine")
    messages = []
    summary = train(_config(tmp_path, "maskable_ppo", steps=128), fresh=True, progress=False,
                    notify=messages.append)
    assert summary["steps"] == 128
    deleting = [m for m in messages if m.startswith("--fresh: deleting")]
    assert len(deleting) == 1 and f"{run / 'checkpoints'}/ (2 files)" in deleting[0] and "eval.csv" in deleting[0]
    assert _eval_steps(run)["random"] == [128]
    assert [p.name for p in (run / "checkpoints").iterdir()] == ["step_128.zip"]
    assert (run / "notes.txt").read_text() == "mine", "files that are not the run's are kept"


def test_resume_without_a_checkpoint_is_an_error(tmp_path):
    config = _config(tmp_path, "maskable_ppo", steps=128)
    with pytest.raises(ConfigError, match="no run to resume"):
        train(config, resume=True, progress=False)
    assert not (tmp_path / "maskable_ppo").exists()
    train(config, progress=False)
    for checkpoint in (tmp_path / "maskable_ppo" / "checkpoints").iterdir():
        checkpoint.unlink()
    before = _snapshot(tmp_path / "maskable_ppo")
    with pytest.raises(ConfigError, match="no checkpoint to resume from"):
        train(_config(tmp_path, "maskable_ppo", steps=256), resume=True, progress=False)
    assert _snapshot(tmp_path / "maskable_ppo") == before


def test_resume_takes_the_newest_checkpoint_that_verifies_and_says_why_others_are_skipped(tmp_path):
    run = tmp_path / "maskable_ppo"
    train(_config(tmp_path, "maskable_ppo", steps=512), progress=False)
    newest = run / "checkpoints" / "step_512.zip"
    newest.write_bytes(newest.read_bytes()[:1000])
    (run / "checkpoints" / "step_640.zip").write_bytes((run / "final.zip").read_bytes())
    (run / "checkpoints" / "step_x.zip").write_bytes(b"?")
    (run / "snapshots" / "step_384.zip").write_bytes(b"tampered")
    messages = []
    summary = train(_config(tmp_path, "maskable_ppo", steps=768), resume=True, progress=False,
                    notify=messages.append)
    assert summary["resumed_from"] == 384
    assert "warning: skipping checkpoints/step_x.zip: not named step_<steps>.zip" in messages
    assert any(m.startswith("warning: skipping checkpoints/step_640.zip") and "no SHA-256 recorded" in m
               for m in messages)
    assert any(m.startswith("warning: skipping checkpoints/step_512.zip") and "differs from the recorded" in m
               for m in messages)
    assert any(m.startswith("warning: skipping snapshots/step_384.zip") for m in messages)
    assert f"resuming {run} from checkpoints/step_384.zip (384 steps)" in messages


def test_resume_logs_each_step_once_in_eval_csv_and_tensorboard(tmp_path):
    """A crash lost the 512-step checkpoint: steps 384 and 512 are re-trained, and logged once."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    run = tmp_path / "maskable_ppo"
    config = _config(tmp_path, "maskable_ppo", steps=512, checkpoint_every=256)
    train(config, progress=False)
    (run / "checkpoints" / "step_512.zip").unlink()
    summary = train(config, resume=True, progress=False, notify=lambda message: None)
    assert summary["resumed_from"] == 256 and summary["steps"] == 512
    assert all(steps == [128, 256, 384, 512] for steps in _eval_steps(run).values()), _eval_steps(run)
    events = _tensorboard_events(run)
    assert len(events) == len(set(events)), "a (tag, step) pair logged twice"
    assert sorted(s for tag, s in events if tag == "eval/bb100_vs_random") == [128, 256, 384, 512]
    accumulator = EventAccumulator(str(next((run / "tb").iterdir())))
    accumulator.Reload()
    assert [e.step for e in accumulator.Scalars("eval/bb100_vs_razz_heuristic")] == [128, 256, 384, 512]


def test_the_final_evaluation_ends_eval_csv_and_tensorboard(tmp_path):
    run = tmp_path / "maskable_ppo"
    summary = train(_config(tmp_path, "maskable_ppo", steps=320, eval_every=256), progress=False)
    assert summary["steps"] == 384
    with open(run / "eval.csv", newline="") as handle:
        last = [row for row in csv.DictReader(handle) if row["steps"] == "384"]
    assert [(row["opponent"], float(row["bb_per_100"])) for row in last] == [
        (row["opponent"], row["bb_per_100"]) for row in summary["final_eval"]]
    assert sorted(s for tag, s in _tensorboard_events(run) if tag == "eval/bb100_vs_random") == [256, 384]


def test_resume_refuses_a_changed_hyper_parameter_and_applies_a_longer_run(tmp_path):
    run = tmp_path / "maskable_ppo"
    train(_config(tmp_path, "maskable_ppo", steps=256), progress=False)
    before = _snapshot(run)
    changed = _config(tmp_path, "maskable_ppo", steps=512,
                      algo_kwargs={**SMALL_KWARGS["maskable_ppo"], "learning_rate": 0.1})
    with pytest.raises(ConfigError, match=r"algo_kwargs.learning_rate was None, now 0.1.*only total_timesteps"):
        train(changed, resume=True, progress=False)
    assert _snapshot(run) == before
    messages = []
    train(_config(tmp_path, "maskable_ppo", steps=384), resume=True, progress=False, notify=messages.append)
    assert "applying total_timesteps: 256 -> 384" in messages
    assert json.loads((run / "config.json").read_text())["total_timesteps"] == 384


def test_dry_run_checks_everything_and_touches_nothing(tmp_path):
    config = _config(tmp_path, "maskable_ppo", steps=128, algo_kwargs={"n_steps": 64},
                     policy_kwargs={"optimizer_kwargs": {"eps": -1.0}})
    with pytest.raises(ConfigError, match="algo_kwargs/policy_kwargs/net_arch: maskable_ppo refuses them"):
        train(config, progress=False, dry_run=True)
    plan = train(_config(tmp_path, "maskable_ppo", steps=128), progress=False, dry_run=True)
    assert plan["dry_run"] and plan["start_steps"] == 0
    assert not (tmp_path / "maskable_ppo").exists()


def _init_model(path) -> dict[str, str]:
    return {"path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def _saved_model(tmp_path, name: str, algorithm: str = "maskable_ppo", **overrides) -> dict[str, str]:
    """A freshly built (untrained) model saved to ``<name>.zip``, as an ``init_model`` entry."""
    config = _config(tmp_path, algorithm, **overrides)
    venv = build_vec_env(config)
    build_model(config, venv, None).save(tmp_path / f"{name}.zip")
    venv.close()
    return _init_model(tmp_path / f"{name}.zip")


def test_init_model_starts_a_new_run_from_the_files_weights_and_optimizer_state(tmp_path):
    source = tmp_path / "maskable_ppo"
    train(_config(tmp_path, "maskable_ppo", steps=128, seed=5), progress=False)
    init = _init_model(source / "final.zip")
    config = _config(tmp_path, "maskable_ppo", steps=128, output=str(tmp_path / "next"), init_model=init)
    venv = build_vec_env(config)
    model = build_model(config, venv, None)
    venv.close()
    trained = SB3Agent.load(source / "final.zip", "maskable_ppo", init["sha256"]).model
    assert not all(torch.equal(a, b) for a, b in zip(model.policy.parameters(), trained.policy.parameters()))
    initialise_from(model, config)
    assert all(torch.equal(a, b) for a, b in zip(model.policy.parameters(), trained.policy.parameters()))
    adam = model.policy.optimizer.state_dict()["state"]
    assert adam and all(float(state["step"]) > 0 for state in adam.values()), "the optimizer state comes along"
    messages = []
    summary = train(config, progress=False, notify=messages.append)
    assert summary["steps"] == 128 and summary["resumed_from"] is None, "the steps of the new run count from 0"
    assert f"starting from the weights and optimizer state of {source / 'final.zip'}" in messages
    assert json.loads((tmp_path / "next" / "config.json").read_text())["init_model"] == init


INIT_MODEL_REFUSALS = [
    ("missing", r"init_model.path: .*nowhere.zip does not exist \(train the run that writes it first"),
    ("changed", r"init_model: .*source.zip: SHA-256 [0-9a-f]{64} differs from the recorded 0{64}"),
    ("qrdqn", r"init_model: .*qrdqn.zip does not load as a maskable_ppo model"),
    ("a2c", r"init_model: .*a2c.zip holds a ActorCriticPolicy with a RMSprop optimizer, not the ActorCriticPolicy "
            r"with a Adam optimizer of this ppo config"),
    ("ppo", r"init_model: .*source.zip does not load as a ppo model \(TypeError: MaskableActorCriticPolicy"),
    ("wider", r"init_model: .*source.zip has another network than net_arch \[32\] and policy_kwargs \{\} build"),
    ("ranks", r"init_model: .*source.zip reads observations Box\(676,\) \(bounds \w{8}\) with actions "
              r"\w*Discrete\(5\), but this table \(razz, 2 seats, stacks 1000, encoding ranks\) has "
              r"Box\(442,\) \(bounds \w{8}\) with"),
    ("stacks", r"init_model: .*source.zip reads observations Box\(676,\) \(bounds (\w{8})\) .* this table \(razz, 2 "
               r"seats, stacks 500, encoding flat\) has Box\(676,\) \(bounds (?!\1)\w{8}\)"),
]


@pytest.mark.parametrize("case, message", INIT_MODEL_REFUSALS, ids=[case for case, _ in INIT_MODEL_REFUSALS])
def test_init_model_refuses_a_file_that_does_not_fit_and_touches_nothing(tmp_path, case, message):
    init = _saved_model(tmp_path, "source")
    overrides = {"init_model": init}
    if case == "missing":
        overrides["init_model"] = {**init, "path": str(tmp_path / "nowhere.zip")}
    elif case == "changed":
        overrides["init_model"] = {**init, "sha256": "0" * 64}
    elif case in ("qrdqn", "a2c"):
        overrides["init_model"] = _saved_model(tmp_path, case, case)
    elif case == "wider":
        overrides["net_arch"] = [32]
    elif case == "stacks":
        overrides["stacks"] = 500
    else:
        overrides["encoding"] = "ranks"
    algorithm = "ppo" if case in ("ppo", "a2c") else "maskable_ppo"
    config = _config(tmp_path, algorithm, output=str(tmp_path / "run"), **overrides)
    for dry_run in (True, False):
        with pytest.raises(ConfigError, match=message) as err:
            train(config, progress=False, dry_run=dry_run)
        assert "\n" not in str(err.value)
    assert not (tmp_path / "run").exists()


def test_init_model_widen_from_starts_a_padded_mixed_size_run_from_a_heads_up_flat_model(tmp_path):
    """A heads-up ``flat`` model starts a ``flat8`` run at 2 and 6 seats with its input layer widened: the run's
    first network is :func:`widen_model` of the file, weights and Adam moments."""
    from razz_env.encoding import make_encoder
    from razz_env.engine.config import HandConfig
    from razz_env.train.widen import widen_model, widening_columns

    train(_config(tmp_path, "maskable_ppo", steps=128, seed=5), progress=False)
    init = {**_init_model(tmp_path / "maskable_ppo" / "final.zip"),
            "widen_from": {"encoding": "flat", "num_seats": 2}}
    config = _config(tmp_path, "maskable_ppo", steps=128, encoding="flat8", num_seats=[2, 6],
                     output=str(tmp_path / "wide"), init_model=init)
    venv = build_vec_env(config)
    model = build_model(config, venv, None)
    venv.close()
    initialise_from(model, config)
    table = HandConfig.create("razz", num_seats=2, stacks=1000)
    source = SB3Agent.load(tmp_path / "maskable_ppo" / "final.zip", "maskable_ppo", init["sha256"]).model
    expected = widen_model(source, widening_columns(make_encoder("flat", table), make_encoder("flat8", table)),
                           model.observation_space)
    assert all(torch.equal(a, b) for a, b in zip(model.policy.parameters(), expected.policy.parameters()))
    adam = model.policy.optimizer.state_dict()["state"]
    assert adam and all(float(state["step"]) > 0 for state in adam.values())
    summary = train(config, progress=False)
    assert summary["seat_counts"] == [2, 6] and summary["steps"] >= 128


def test_init_model_widen_from_refuses_a_file_of_another_table_and_touches_nothing(tmp_path):
    init = {**_saved_model(tmp_path, "heads_up"), "widen_from": {"encoding": "flat", "num_seats": 3}}
    config = _config(tmp_path, "maskable_ppo", encoding="flat8", num_seats=[2, 6], output=str(tmp_path / "run"),
                     init_model=init)
    for dry_run in (True, False):
        with pytest.raises(ConfigError, match=r"init_model: .*heads_up.zip reads observations Box\(676,\) \(bounds "
                           r"\w{8}\), not those of widen_from \(flat at 3 seats, razz, stacks 1000\): "
                           r"Box\(\d+,\)"):
            train(config, progress=False, dry_run=dry_run)
    assert not (tmp_path / "run").exists()


def test_init_model_of_one_padded_layout_starts_a_mixed_size_run_and_another_layout_is_refused(tmp_path):
    """A heads-up flat8 model starts a ``num_seats: [2, 6]`` run (one layout for every size); a model of
    other stacks is refused naming both table sizes, before the folder is touched."""
    init = _saved_model(tmp_path, "heads_up", encoding="flat8")
    mixed = {"encoding": "flat8", "num_seats": [2, 6], "output": str(tmp_path / "run")}
    plan = train(_config(tmp_path, "maskable_ppo", init_model=init, **mixed), progress=False, dry_run=True)
    assert plan["config"]["num_seats"] == [2, 6] and plan["start_steps"] == 0
    other = _saved_model(tmp_path, "deep", encoding="flat8", stacks=5000)
    with pytest.raises(ConfigError, match=r"but this table \(razz, 2/6 seats, stacks 1000, encoding flat8\)"):
        train(_config(tmp_path, "maskable_ppo", init_model=other, **mixed), progress=False, dry_run=True)
    assert not (tmp_path / "run").exists()



def test_the_evaluation_during_training_puts_no_time_limit_on_decisions(tmp_path, monkeypatch):
    """A periodic evaluation ended a run with "no decision within 2 s per decision" on a loaded machine: the
    tournament's limit on untrusted agents does not belong to the trainer's own evaluation."""
    from razz_env.evaluate import blocks

    limits = []

    def recording(call, seconds, *where):
        limits.append(seconds)
        return call()

    monkeypatch.setattr(blocks, "with_time_limit", recording)
    config = _config(tmp_path, "maskable_ppo", eval_opponents=["random", "razz_heuristic"], eval_deals=4)
    rows = evaluate(build_model(config, build_vec_env(config), None), config, "limits")
    assert [row["hands"] for row in rows] == [8, 8] and limits and set(limits) == {None}
