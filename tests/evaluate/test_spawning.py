"""A user's plain script drives worker processes: no ``__main__`` guard needed, what it defines reaches the workers,
the time limit still holds, and a worker that cannot start says why in one line."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

from razz_env.agents.registry import register
from razz_env.evaluate import match
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.runner import run_tournament
from razz_env.evaluate.workers import WorkerStartError

ROOT = Path(__file__).resolve().parents[2]

FIRST_SCRIPT = """
from razz_env.evaluate import match
r = match("razz_heuristic", "calling_station", deals=40, seed=8675309, workers=2, block_deals=10)
print(r)
"""

OWN_AGENTS = """
import time

from razz_env.agents.registry import register
from razz_env.encoding.interface import Declaration
from razz_env.evaluate import BlockError, match


class Caller:
    name = "caller_of_mine"
    declaration = Declaration()

    def __init__(self, pause=0.0):
        self.pause = pause

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        time.sleep(self.pause)
        return int(observation.action_mask.nonzero()[0][-1])


@register("caller_registered_in_the_script")
def caller(seed=None):
    return Caller()


print("instance", match(Caller(), "calling_station", deals=20, workers=2, block_deals=10).hands)
print("registered", match("caller_registered_in_the_script", "random", deals=20, workers=2, block_deals=10).hands)
try:
    match(Caller(pause=30), "random", deals=10, decision_timeout=0.5)
except BlockError as err:
    print("timed out:", err)
"""


def _run(script: str, tmp_path: Path, *, stdin: bool = False) -> subprocess.CompletedProcess:
    path = tmp_path / "first.py"
    path.write_text(textwrap.dedent(script), encoding="utf-8")
    command = [sys.executable, "-"] if stdin else [sys.executable, str(path)]
    return subprocess.run(command, cwd=tmp_path, input=path.read_text() if stdin else None, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


@pytest.mark.timeout(300)
@pytest.mark.parametrize("stdin", [False, True], ids=["python first.py", "python - < first.py"])
def test_a_script_without_a_main_guard_plays_a_match_in_worker_processes(tmp_path, stdin):
    done = _run(FIRST_SCRIPT, tmp_path, stdin=stdin)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "razz_heuristic vs calling_station (razz):" in done.stdout and "over 80 hands" in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.timeout(300)
def test_agents_defined_in_the_script_reach_the_workers_and_the_time_limit_holds(tmp_path):
    done = _run(OWN_AGENTS, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[:2] == ["instance 40", "registered 40"]
    assert lines[2].startswith("timed out: block 0: agent caller_of_mine failed: timeout:"), lines


class Ghost:
    """An agent whose module exists in this process only: no worker can import it."""

    name = "ghost"

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        return int(observation.action_mask.nonzero()[0][-1])


@pytest.fixture
def ghost_agent(monkeypatch):
    from razz_env.encoding.interface import Declaration

    module = types.ModuleType("ghost_agents_nowhere_on_disk")
    kind = type("Ghost", (Ghost,), {"__module__": module.__name__, "declaration": Declaration()})
    module.Ghost = kind
    monkeypatch.setitem(sys.modules, module.__name__, module)
    register("test_ghost", replace=True)(kind)
    return "test_ghost"


@pytest.mark.timeout(120)
def test_a_worker_that_cannot_start_says_why_in_one_line_without_retrying(ghost_agent, tmp_path):
    with pytest.raises(WorkerStartError) as raised:
        match(ghost_agent, "random", deals=10)
    message = str(raised.value)
    assert message.startswith("worker processes cannot start: importing ghost_agents_nowhere_on_disk, which "
                              "registers an agent: ModuleNotFoundError"), message
    assert "\n" not in message and "resume" not in message and "died" not in message
    config = TournamentConfig.from_dict({"agents": [ghost_agent, "random"], "deals": 10,
                                         "output": str(tmp_path / "ghost")})
    with pytest.raises(WorkerStartError, match="^worker processes cannot start: importing ghost") as raised:
        run_tournament(config, progress=False)
    assert "resume" not in str(raised.value)


TRAIN_SCRIPT = """
from razz_env.train import train
from razz_env.train.config import TrainConfig

config = TrainConfig.from_dict({"variant": "razz", "num_seats": 2, "total_timesteps": 256, "n_envs": 2,
                                "vec_env": "subproc", "output": "runs/t", "eval_every": 100000, "eval_deals": 10})
print("steps", train(config, progress=False)["steps"])
"""


@pytest.mark.timeout(300)
def test_a_script_without_a_main_guard_trains_on_subprocess_environments(tmp_path):
    done = _run(TRAIN_SCRIPT, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    words = done.stdout.split()
    assert words[0] == "steps" and int(words[1]) >= 256, done.stdout
