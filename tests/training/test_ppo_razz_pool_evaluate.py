"""``experiments/ppo_razz_pool/evaluate.py``: one duplicate match per opponent, gathered into results.csv."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = str(REPO / "experiments" / "ppo_razz_pool" / "evaluate.py")


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=300, cwd=REPO)


def test_each_opponent_gets_a_row_of_the_agents_duplicate_result(tmp_path):
    out = tmp_path / "eval"
    result = _run("--agent", "random", "--opponents", "calling_station", "rock", "--deals", "3", "--out", str(out))
    assert result.returncode == 0, result.stderr
    with open(out / "results.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["opponent"] for row in rows] == ["calling_station", "rock"]
    assert {row["hands"] for row in rows} == {"6"}


def test_bad_input_exits_2_naming_it_without_a_traceback(tmp_path):
    cases = ((["--agent", "random", "--deals", "0"], "--deals"), (["--agent", "no_such_agent"], "no_such_agent"),
             (["--run", str(tmp_path)], str(tmp_path)))
    for args, named in cases:
        result = _run(*args, "--out", str(tmp_path / "o"))
        last = result.stderr.strip().splitlines()[-1]
        assert result.returncode == 2 and "Traceback" not in result.stderr and named in last, (args, result.stderr)
    assert not (tmp_path / "o").exists()
