"""Worker processes: a worker killed from outside is detected and its block retried (bounded), and workers
exit quietly when the main process is killed.

The killing agent lives in this module: a worker imports it by name (``test_tournament_workers``) before
playing, as it would any module that registers agents.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from razz_env.agents.registry import register
from razz_env.encoding.interface import Declaration
from razz_env.evaluate import match, workers
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.results import RESULTS_FILE
from razz_env.evaluate.runner import run_tournament
from razz_env.evaluate.workers import MAX_ATTEMPTS, BlockError


@register("test_kills_its_worker", replace=True)
class KillsItsWorker:
    """Calls; but the first decision made while ``marker`` is absent kills its own process (like the OOM killer).

    ``marker=None``: every first decision of a block kills.
    """

    name = "kills_its_worker"
    declaration = Declaration()

    def __init__(self, marker: str | None = None, seed: int | None = None) -> None:
        self.marker = marker

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        if self.marker is None:
            os.kill(os.getpid(), signal.SIGKILL)
        try:
            os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return int(observation.action_mask.nonzero()[0][-1])
        os.kill(os.getpid(), signal.SIGKILL)


def _config(tmp_path: Path, name: str, marker: str | None, **overrides) -> TournamentConfig:
    settings = {"name": name, "agents": ["random", "calling_station", {"type": "test_kills_its_worker",
                                                                       "marker": marker}],
                "deals": 20, "block_deals": 10, "workers": 2, "seed": 3, "output": str(tmp_path / name)}
    return TournamentConfig.from_dict({**settings, **overrides})


def _table(result) -> list[tuple]:
    return [(p.agent, p.opponent, p.hands, p.duplicate.mean_bb100, p.duplicate.sd_bb100) for p in result.pairings]


@pytest.mark.timeout(180)
def test_a_block_whose_worker_is_killed_is_played_again_with_the_same_results(tmp_path):
    marker = str(tmp_path / "killed-once")
    retried = run_tournament(_config(tmp_path, "retried", marker), progress=False)
    assert Path(marker).exists(), "a worker was killed"
    assert not retried.failures and retried.blocks_done == retried.blocks_total == 6
    calm = run_tournament(_config(tmp_path, "calm", marker, workers=1), progress=False)
    assert _table(retried) == _table(calm)


@pytest.mark.timeout(180)
def test_a_block_whose_worker_keeps_dying_stops_the_run_naming_it(tmp_path):
    config = _config(tmp_path, "doomed", None, agents=["random", {"type": "test_kills_its_worker"}], deals=10)
    with pytest.raises(BlockError, match=rf"block 0-1/0: its worker process died {MAX_ATTEMPTS} times "
                                         r"\(last: killed by SIGKILL\); stopped. Finished blocks are saved in "
                                         rf"{tmp_path / 'doomed'}: rerun to resume$"):
        run_tournament(config, progress=False)


@pytest.mark.timeout(180)
def test_a_match_whose_worker_keeps_dying_names_the_block_and_no_folder_to_resume():
    with pytest.raises(BlockError, match=rf"^block 0-1/0: its worker process died {MAX_ATTEMPTS} times "
                                         r"\(last: killed by SIGKILL\); stopped$"):
        match("random", {"type": "test_kills_its_worker"}, deals=10)


@pytest.mark.timeout(180)
def test_killing_the_main_process_leaves_no_worker_tracebacks(tmp_path):
    """SIGKILL the main process mid-run: its workers exit quietly and soon, without a traceback."""
    process = _start(tmp_path, tmp_path / "out")
    os.kill(process.pid, signal.SIGKILL)
    stderr = _stderr_once_all_exit(process)
    assert "Traceback" not in stderr, stderr[-2000:]

def test_a_harness_failure_stops_the_run_naming_the_block(tmp_path, monkeypatch):
    def broken(config, task):
        raise KeyError("lost")

    monkeypatch.setattr(workers, "run_task", broken)
    monkeypatch.setattr(workers, "picklable", lambda config: False)  # in this process, as an unpicklable instance
    with pytest.raises(BlockError, match="block 0-1/0: KeyError: 'lost'"):
        run_tournament(_config(tmp_path, "broken", None, agents=["random", "calling_station"], workers=1),
                       progress=False)



def _start(tmp_path: Path, output: Path) -> subprocess.Popen:
    """``razz tournament`` on 2 workers in its own process group, once it has finished two blocks."""
    config = tmp_path / "long.yaml"
    config.write_text("agents: [random, calling_station, razz_heuristic]\ndeals: 400\nblock_deals: 20\n"
                      "workers: 2\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "razz_env.cli", "tournament", "--config", str(config), "--output", str(output),
         "--quiet", "--no-plots"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    results = output / RESULTS_FILE
    deadline = time.time() + 120
    while time.time() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 2):
        time.sleep(0.05)
    return process


def _stderr_once_all_exit(process: subprocess.Popen) -> str:
    """The process group's stderr, read until every process holding it (workers included) has exited."""
    try:
        _, stderr = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("workers outlived the main process")
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return stderr.decode(errors="replace")


@pytest.mark.timeout(180)
def test_ctrl_c_stops_the_run_with_one_line_and_it_resumes(tmp_path):
    output = tmp_path / "out"
    process = _start(tmp_path, output)
    os.killpg(process.pid, signal.SIGINT)
    stderr = _stderr_once_all_exit(process)
    assert process.returncode == 130, stderr
    assert stderr.startswith("razz tournament: interrupted; finished blocks are saved") and "Traceback" not in stderr
    done = len((output / RESULTS_FILE).read_text().splitlines())
    assert 2 <= done < 60


_EXITING_AGENT = '''
import os
import sys

from razz_env.agents.simple import CallingStation


class Exits(CallingStation):
    """Calls, then ends the process on its third decision, as ``how`` says."""

    def __init__(self, how: str = "sys.exit", seed=None) -> None:
        self.how, self.decisions = how, 0

    def act(self, observation):
        self.decisions += 1
        if self.decisions == 3:
            if self.how == "os._exit":
                os._exit(0)
            if self.how == "raise":
                raise SystemExit(0)
            sys.exit(0)
        return super().act(observation)
'''


@pytest.mark.parametrize("workers_", [1, 2])
@pytest.mark.parametrize("how", ["sys.exit", "os._exit", "raise"])
def test_an_agent_that_exits_fails_its_blocks_named_never_ends_the_run(tmp_path, monkeypatch, how, workers_):
    (tmp_path / "exiting_bot.py").write_text(_EXITING_AGENT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = TournamentConfig(name="t", agents=("calling_station", {"type": "exiting_bot:Exits", "how": how,
                                                                    "label": "exits"}),
                              deals=4, block_deals=2, workers=workers_, output=str(tmp_path / "out"))
    result = run_tournament(config, progress=False)
    assert len(result.failures) == 2
    for failure in result.failures:
        assert failure["error"]["agent"] == 1 and failure["error"]["kind"] == "exit"
        assert "tried to end the process" in failure["error"]["message"]


def test_razz_tournament_with_an_exiting_agent_exits_non_zero_naming_it(tmp_path, monkeypatch, capsys):
    from razz_env.cli import main

    (tmp_path / "exiting_bot.py").write_text(_EXITING_AGENT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "t.yaml").write_text("agents: [calling_station, 'exiting_bot:Exits']\ndeals: 2\nblock_deals: 2\n"
                                     "workers: 1\n", encoding="utf-8")
    code = main(["tournament", "--config", str(tmp_path / "t.yaml"), "--output", str(tmp_path / "out"), "--quiet",
                 "--no-plots"])
    assert code == 1
    assert "agent exiting_bot:Exits exit: tried to end the process" in capsys.readouterr().out
