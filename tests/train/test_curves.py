"""``razz_env.train.curves``: eval.csv read into one curve per opponent (and table size)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from razz_env.engine.errors import ConfigError
from razz_env.train import curves

HEADER = "steps,minutes,train_minutes,opponent,bb_per_100,ci95_low,ci95_high,hands"


def test_a_mixed_size_run_gets_one_curve_per_opponent_and_size(tmp_path):
    (tmp_path / "eval.csv").write_text(f"{HEADER},seats\n" + "".join(
        f"{steps},1,1,tag,{bb},0,1,100,{seats}\n" for steps in (10, 20) for seats, bb in ((2, 5.0), (6, -7.0))))
    series = curves.read_eval(tmp_path)
    assert sorted(series) == ["tag @ 2 seats", "tag @ 6 seats"]
    assert [row["bb_per_100"] for row in series["tag @ 6 seats"]] == [-7.0, -7.0]
    assert curves.plot_run(tmp_path, tmp_path / "curve.png", "mixed").stat().st_size > 0


def test_a_one_size_run_keeps_the_opponent_names(tmp_path):
    (tmp_path / "eval.csv").write_text(f"{HEADER}\n10,1,1,rock,3,1,5,100\n20,2,2,rock,4,2,6,100\n")
    assert list(curves.read_eval(tmp_path)) == ["rock"]
    (tmp_path / "eval.csv").write_text(f"{HEADER},seats\n10,1,1,rock,3,1,5,100,2\n")
    assert list(curves.read_eval(tmp_path)) == ["rock"]


def _run(folder: Path, rows: str, init_model: dict | None = None, hashes: dict | None = None,
         steps: int = 0, clock: dict | None = None) -> Path:
    folder.mkdir()
    (folder / "eval.csv").write_text(f"{HEADER},seats\n{rows}")
    (folder / "config.json").write_text(json.dumps({"num_seats": 2, "init_model": init_model}))
    (folder / "hashes.json").write_text(json.dumps(hashes or {}))
    (folder / "summary.json").write_text(json.dumps({"steps": steps}))
    (folder / "clock.json").write_text(json.dumps(clock or {}))
    return folder


def test_runs_that_continue_each_other_plot_on_one_axis(tmp_path):
    first = _run(tmp_path / "first", "10,1,1,rock,3,1,5,100,2\n30,3,2,rock,4,2,6,100,2\n",
                 hashes={"final.zip": "a" * 64, "checkpoints/step_20.zip": "b" * 64, "snapshots/step_10.zip": "c" * 64},
                 steps=30, clock={"20": {"minutes": 2, "train_minutes": 1.5}, "30": {"minutes": 3, "train_minutes": 2}})
    second = _run(tmp_path / "second", "10,1,0.5,rock,9,8,10,100,2\n", init_model={"path": "x", "sha256": "a" * 64})
    series, starts = curves.read_chain([first, second])
    assert [(row["steps"], row["minutes"], row["train_minutes"]) for row in series["rock"]] == [
        (10, 1, 1), (30, 3, 2), (40, 4, 2.5)]
    assert starts == [{"steps": 30, "minutes": 3, "train_minutes": 2}]
    branch = _run(tmp_path / "branch", "10,1,1,rock,9,8,10,100,2\n", init_model={"path": "x", "sha256": "b" * 64})
    series, starts = curves.read_chain([first, branch])
    assert starts == [{"steps": 20, "minutes": 2, "train_minutes": 1.5}]
    assert [row["steps"] for row in series["rock"]] == [10, 30], "first's row at 30 is past the branch point: dropped"
    assert curves.plot_run([first, second], tmp_path / "chain.png", "chain").stat().st_size > 0
    for start in (None, {"path": "x", "sha256": "c" * 64}):
        stray = _run(tmp_path / f"stray{bool(start)}", "10,1,1,rock,9,8,10,100,2\n", init_model=start)
        with pytest.raises(ConfigError, match=r"did not start from a model of .*first"):
            curves.read_chain([first, stray])


def test_the_command_line_refuses_runs_that_do_not_continue_each_other_in_one_line(tmp_path):
    first = _run(tmp_path / "first", "10,1,1,rock,3,1,5,100,2\n")
    second = _run(tmp_path / "second", "10,1,1,rock,3,1,5,100,2\n")
    result = subprocess.run([sys.executable, "-m", "razz_env.cli", "curves", str(first), str(second),
                             str(tmp_path / "out.png")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("razz curves: ") and "did not start from a model of" in result.stderr
    assert not (tmp_path / "out.png").exists()
