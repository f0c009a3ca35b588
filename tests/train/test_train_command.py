"""``razz train`` on the command line: one-line messages with exit 2 for bad input, Ctrl-C, --fresh, --dry-run."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from razz_env.cli import main

REPO = Path(__file__).resolve().parents[2]
TINY = """\
name: tiny
total_timesteps: {steps}
n_envs: 2
net_arch: [8]
algo_kwargs: {{n_steps: 32, batch_size: 64, n_epochs: 1}}
eval_every: {eval_every}
eval_deals: 4
checkpoint_every: 64
opponents: {{snapshot_every: 64, max_snapshots: 2}}
"""


def _tiny(tmp_path, steps: int = 128, eval_every: int = 64) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY.format(steps=steps, eval_every=eval_every))
    return path


def _refused(capsys, argv) -> str:
    """Run ``razz`` expecting exit 2 and one line on stderr (no traceback); returns that line."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("razz train: "), err
    return err.strip()


@pytest.mark.parametrize("text, message", [
    (None, "no such file"),
    ("", "empty; expected a mapping of training settings"),
    ("total_timesteps: [1,\n", "not valid YAML at line 2"),
    ("just text\n", "expected a mapping of training settings, got str 'just text'"),
    ("learning_rate: 0.1\n", "train config: unknown key(s) ['learning_rate']; known: ['algo_kwargs'"),
    ("n_envs: two\n", "n_envs: expected an integer of at least 1, got 'two'"),
    ("opponents: {max_snapshots: 0}\n", "opponents.max_snapshots: must be at least 1, got 0"),
    ("num_seats: [2, 6]\n", "num_seats: a list of table sizes needs a padded encoding"),
    ("num_seats: [2, 6]\nencoding: flat8\nn_envs: 3\n", "n_envs: expected a multiple of the 2 table sizes"),
    ("algo_kwargs: {n_steps: 0}\n", "algo_kwargs.n_steps: maskable_ppo needs at least 1, got 0"),
    ("variant: stud\nencoding: ranks\n", "encoding 'ranks' drops suits, which matter in stud"),
])
def test_bad_config_files_are_one_line_and_create_nothing(tmp_path, capsys, text, message):
    path = tmp_path / "c.yaml"
    if text is not None:
        path.write_text(text)
    line = _refused(capsys, ["train", "--config", str(path), "--output", str(tmp_path / "run"), "--quiet"])
    assert message in line
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("flags, message", [
    (["--steps", "0"], "--steps: must be at least 1, got 0"),
    (["--steps", "-5"], "--steps: must be at least 1, got -5"),
    (["--max-minutes", "0"], "--max-minutes: must be more than 0, got 0"),
    (["--max-minutes", "nan"], "--max-minutes: expected a number more than 0, got nan"),
    (["--n-envs", "0"], "--n-envs: must be at least 1, got 0"),
    (["--seed", "-1"], "--seed: must be at least 0, got -1"),
    (["--resume", "--fresh"], "--resume and --fresh exclude each other"),
])
def test_bad_flags_name_the_flag(tmp_path, capsys, flags, message):
    line = _refused(capsys, ["train", "--config", str(_tiny(tmp_path)), "--output", str(tmp_path / "run"),
                             "--quiet", *flags])
    assert message in line
    assert not (tmp_path / "run").exists()


def test_reusing_a_run_folder_needs_resume_or_fresh(tmp_path, capsys):
    run = tmp_path / "run"
    argv = ["train", "--config", str(_tiny(tmp_path)), "--output", str(run), "--quiet"]
    assert main(argv) == 0
    capsys.readouterr()
    eval_csv = (run / "eval.csv").read_bytes()
    assert "pass --resume to continue it, --fresh to delete it" in _refused(capsys, argv)
    assert (run / "eval.csv").read_bytes() == eval_csv
    assert main([*argv, "--fresh", "--steps", "64"]) == 0
    assert f"razz train: --fresh: deleting {run}/checkpoints/" in capsys.readouterr().err
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["step_64.zip"]


def test_dry_run_prints_the_plan_and_writes_nothing(tmp_path, capsys):
    assert main(["train", "--config", str(_tiny(tmp_path)), "--output", str(tmp_path / "run"), "--dry-run"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["dry_run"] and plan["config"]["name"] == "tiny"
    assert not (tmp_path / "run").exists()



def test_ctrl_c_saves_a_checkpoint_and_exits_with_a_message(tmp_path):
    run = tmp_path / "run"
    config = _tiny(tmp_path, steps=10**7, eval_every=10**7)
    process = subprocess.Popen([sys.executable, "-m", "razz_env.cli", "train", "--config", str(config), "--output",
                                str(run), "--quiet"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline = time.monotonic() + 120
        while not list((run / "checkpoints").glob("step_*.zip")) and time.monotonic() < deadline:
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("razz train: interrupted at step ") and last.endswith("; continue with --resume"), err
    steps = int(last.split("interrupted at step ")[1].split(":")[0])
    checkpoint = run / "checkpoints" / f"step_{steps}.zip"
    assert f"saved {checkpoint}" in last
    hashes = json.loads((run / "hashes.json").read_text())
    assert hashes[f"checkpoints/step_{steps}.zip"] == hashlib.sha256(checkpoint.read_bytes()).hexdigest()
    assert not list(run.rglob(".*.tmp")), "no temporary file left behind"


def test_razz_train_learns_minirazz_for_a_few_hundred_steps(tmp_path, capsys):
    """A MaskablePPO run on MiniRazz through the ordinary command: its stakes, its 188-float observation, its
    opponents; the checkpoint loads back as an agent of that table and plays it."""
    from razz_env.agents.registry import make_agent
    from razz_env.evaluate.blocks import play_deals
    from razz_env.train.config import TrainConfig

    path = tmp_path / "mini.yaml"
    path.write_text(TINY.format(steps=256, eval_every=128).replace("name: tiny\n", "name: mini\nvariant: minirazz\n")
                    + "eval_opponents: [random, calling_station]\n"
                    + "opponents: {baselines: [random, calling_station], weights: [1, 1], snapshot_every: 64}\n")
    path.write_text(path.read_text().replace("opponents: {snapshot_every: 64, max_snapshots: 2}\n", ""))
    run = tmp_path / "run"
    assert main(["train", "--config", str(path), "--output", str(run), "--quiet"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    summary = json.loads((run / "summary.json").read_text())
    assert summary["steps"] >= 256
    assert line.startswith(f"mini: {summary['steps']:,} steps in ") and line.endswith(f"details in {run}/summary.json")
    assert "final eval bb/100 [95% CI]: random " in line and ", calling_station " in line
    config = json.loads((run / "config.json").read_text())
    assert (config["variant"], config["ante"], config["bring_in"], config["small_bet"], config["big_bet"]) == (
        "minirazz", 1, 1, 2, 4)
    evaluated = (run / "eval.csv").read_text().splitlines()
    assert len(evaluated) > 1 and "calling_station" in evaluated[-1]
    checkpoint = sorted((run / "checkpoints").glob("step_*.zip"))[-1]
    sha256 = hashlib.sha256(checkpoint.read_bytes()).hexdigest()
    agent = make_agent({"type": "sb3_model", "path": str(checkpoint), "sha256": sha256, "variant": "minirazz",
                        "num_seats": 2})
    assert agent.declaration.variants == ("minirazz",)
    table = TrainConfig.from_yaml(path).table()
    hand_config = table.hand_config()
    tables = play_deals([agent, make_agent("random", seed=1)], hand_config, 10, "check")
    assert len(tables) == 20 and all(t.hand.is_over for t in tables)
    with pytest.raises(ValueError, match="cannot be seated at razz"):
        agent.reset(0, 2, "razz")


def test_a_flat8_model_trained_heads_up_plays_two_to_eight_handed(tmp_path, capsys):
    """One network for every table size: a MaskablePPO run with ``encoding: flat8`` at a heads-up table; its
    checkpoint (trained on the batched vector env) loads as an agent declaring every razz seat count and plays
    2, 3, 6 and 8 handed on the scalar and the batched engine, with the same payoffs on both."""
    from razz_env.agents.registry import make_agent
    from razz_env.engine.config import HandConfig
    from razz_env.evaluate.blocks import batch_problem, play_deals, play_deals_batched

    path = tmp_path / "flat8.yaml"
    tiny = TINY.format(steps=256, eval_every=256).replace("opponents: {snapshot_every: 64, max_snapshots: 2}\n", "")
    path.write_text(tiny + "encoding: flat8\nvec_env: batch\neval_opponents: [calling_station]\n"
                    + "opponents: {baselines: [random, calling_station], weights: [1, 1], snapshot_every: 64}\n")
    run = tmp_path / "run"
    assert main(["train", "--config", str(path), "--output", str(run), "--quiet"]) == 0
    capsys.readouterr()
    assert json.loads((run / "config.json").read_text())["encoding"] == "flat8"
    checkpoint = sorted((run / "checkpoints").glob("step_*.zip"))[-1]
    spec = {"type": "sb3_model", "path": str(checkpoint), "sha256": hashlib.sha256(checkpoint.read_bytes()).hexdigest(),
            "variant": "razz", "num_seats": 2, "encoding": "flat8"}
    agent = make_agent(spec)
    assert agent.model.observation_space.shape == (2068,)
    assert (agent.declaration.variants, agent.declaration.seat_counts) == (("razz",), (2, 3, 4, 5, 6, 7, 8))
    for seats in (2, 3, 6, 8):
        players = [agent] + [make_agent("calling_station") for _ in range(seats - 1)]
        hand_config = HandConfig.create("razz", num_seats=seats)
        assert batch_problem(players, hand_config) is None
        scalar = play_deals(players, hand_config, 2, f"flat8-{seats}")
        batched = play_deals_batched(players, hand_config, 2, f"flat8-{seats}")
        assert all(t.hand.is_over for t in scalar) and len(scalar) == len(batched) >= 2 * seats
        assert [t.payoffs for t in scalar] == [t.payoffs for t in batched]
    with pytest.raises(ValueError, match="cannot be seated at stud"):
        agent.reset(0, 2, "stud")


def test_mixed_table_sizes_train_evaluate_and_save_a_model_that_plays_two_to_eight_handed(tmp_path, capsys):
    """``num_seats: [2, 6]`` with flat8: the environments alternate heads-up and 6-max tables, each
    evaluation is a row per table size and opponent (``seats`` column), config.json and summary.json record
    the sizes, and the final model plays 2, 6 and 8 handed."""
    from razz_env.agents.registry import make_agent
    from razz_env.engine.config import HandConfig
    from razz_env.evaluate.blocks import play_deals
    from razz_env.train.config import TrainConfig
    from razz_env.train.trainer import build_vec_env, train

    path = tmp_path / "mixed.yaml"
    tiny = TINY.format(steps=256, eval_every=128).replace("n_envs: 2\n", "n_envs: 4\n")
    path.write_text(tiny + "num_seats: [2, 6]\nencoding: flat8\neval_opponents: [calling_station, tag]\n")
    run = tmp_path / "run"
    assert main(["train", "--config", str(path), "--output", str(run), "--quiet"]) == 0
    capsys.readouterr()
    assert json.loads((run / "config.json").read_text())["num_seats"] == [2, 6]
    summary = json.loads((run / "summary.json").read_text())
    assert summary["seat_counts"] == [2, 6] and summary["steps"] == 256
    assert [(row["opponent"], row["seats"]) for row in summary["final_eval"]] == [
        ("calling_station", 2), ("tag", 2), ("calling_station", 6), ("tag", 6)]
    lines = (run / "eval.csv").read_text().splitlines()
    assert lines[0].endswith(",hands,seats") and len(lines) == 1 + 2 * 4
    assert [line.split(",")[-1] for line in lines[1:5]] == ["2", "2", "6", "6"]
    config = TrainConfig.from_yaml(path, output=str(run), total_timesteps=512)
    assert train(config, resume=True, dry_run=True, progress=False)["start_steps"] == 256
    assert summary["vec_env"] == "batch"  # vec_env auto: every opponent acts in batch
    venv = build_vec_env(dataclasses.replace(config, vec_env="dummy"))
    try:
        assert [env.unwrapped.config.num_seats for env in venv.venv.envs] == [2, 6, 2, 6]
        assert all(env.observation_space == venv.observation_space for env in venv.venv.envs)
    finally:
        venv.close()
    final = run / "final.zip"
    spec = {"type": "sb3_model", "path": str(final), "sha256": hashlib.sha256(final.read_bytes()).hexdigest(),
            "variant": "razz", "num_seats": 6, "encoding": "flat8"}
    agent = make_agent(spec)
    for seats in (2, 6, 8):
        players = [agent] + [make_agent("tag") for _ in range(seats - 1)]
        tables = play_deals(players, HandConfig.create("razz", num_seats=seats), 1, f"mixed-{seats}")
        assert len(tables) == seats and all(t.hand.is_over for t in tables)


def test_the_summary_line_names_each_opponent_with_its_ci_and_the_table_when_several():
    from razz_env.train.trainer import summary_line

    row = {"opponent": "random", "bb_per_100": 12.345, "ci95_low": -1.0, "ci95_high": 25.7, "hands": 100, "seats": 2}
    summary = {"name": "x", "steps": 1_500_000, "train_seconds": 90.0, "steps_per_second": 16666.7,
               "final_eval": [row, {**row, "opponent": "calling_station"}]}
    assert summary_line(summary, "runs/x") == (
        "x: 1,500,000 steps in 1.5 min (16,667 steps/s); final eval bb/100 [95% CI]: random +12.3 [-1.0, +25.7], "
        "calling_station +12.3 [-1.0, +25.7]; details in runs/x/summary.json")
    summary["final_eval"] = [row, {**row, "seats": 6}]
    assert "random at 2 seats +12.3 [-1.0, +25.7], random at 6 seats +12.3" in summary_line(summary, "runs/x")
