"""``experiments/learning_curves.py``: eval.csv read into one curve per opponent (and table size)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HEADER = "steps,minutes,train_minutes,opponent,bb_per_100,ci95_low,ci95_high,hands"


@pytest.fixture
def curves(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO))
    return importlib.import_module("experiments.learning_curves")


def test_a_mixed_size_run_gets_one_curve_per_opponent_and_size(tmp_path, curves):
    (tmp_path / "eval.csv").write_text(f"{HEADER},seats\n" + "".join(
        f"{steps},1,1,tag,{bb},0,1,100,{seats}\n" for steps in (10, 20) for seats, bb in ((2, 5.0), (6, -7.0))))
    series = curves.read_eval(tmp_path)
    assert sorted(series) == ["tag @ 2 seats", "tag @ 6 seats"]
    assert [row["bb_per_100"] for row in series["tag @ 6 seats"]] == [-7.0, -7.0]
    assert curves.plot_run(tmp_path, tmp_path / "curve.png", "mixed").stat().st_size > 0


def test_a_one_size_run_keeps_the_opponent_names(tmp_path, curves):
    (tmp_path / "eval.csv").write_text(f"{HEADER}\n10,1,1,rock,3,1,5,100\n20,2,2,rock,4,2,6,100\n")
    assert list(curves.read_eval(tmp_path)) == ["rock"]
    (tmp_path / "eval.csv").write_text(f"{HEADER},seats\n10,1,1,rock,3,1,5,100,2\n")
    assert list(curves.read_eval(tmp_path)) == ["rock"]
