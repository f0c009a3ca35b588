"""Tournament harness: determinism across workers, resume after interruption or kill, broken agents."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents.registry import register
from razz_env.evaluation.config import TournamentConfig
from razz_env.evaluation.match import seat_permutations
from razz_env.evaluation.report import format_terminal, write_reports
from razz_env.evaluation.tournament import RESULTS_FILE, build_tasks, load_results, run_tournament

FAST_AGENTS = ("random", "calling_station", "razz_heuristic")


def _config(tmp_path: Path, name: str, **overrides) -> TournamentConfig:
    settings = {"name": name, "agents": FAST_AGENTS, "deals": 40, "block_deals": 20, "workers": 1,
                "output": str(tmp_path / name), "seed": 11}
    settings.update(overrides)
    return TournamentConfig.from_dict(settings)


def _table(result) -> list[tuple]:
    return [(p.agent, p.opponent, p.hands, round(p.duplicate.mean_bb100, 9), round(p.duplicate.sd_bb100, 9))
            for p in result.pairings]


class Raiser:
    name = "raiser"

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        raise RuntimeError("boom")


class Sleeper:
    name = "sleeper"

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        time.sleep(3)
        return 1


class Cheater:
    name = "cheater"

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        return int((observation.action_mask == 0).nonzero()[0][0])


for _name, _cls in (("test_raiser", Raiser), ("test_sleeper", Sleeper), ("test_cheater", Cheater)):
    register(_name, replace=True)(_cls)


def test_duplicate_permutations_cover_every_seat():
    assert seat_permutations(3, True, 0) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert [seat_permutations(2, False, d) for d in range(3)] == [[(0, 1)], [(1, 0)], [(0, 1)]]


def test_blocks_cover_all_deals_and_share_seeds_across_pairings(tmp_path):
    config = _config(tmp_path, "tasks", deals=50, block_deals=20)
    tasks = build_tasks(config)
    assert len(tasks) == 3 * 3
    per_pair = {}
    for task in tasks:
        per_pair.setdefault(task.lineup, []).append(task)
    for blocks in per_pair.values():
        assert sum(t.deals for t in blocks) == 50
    assert {t.seed for t in per_pair[(0, 1)]} == {t.seed for t in per_pair[(1, 2)]}


def test_same_results_whatever_the_number_of_workers(tmp_path):
    one = run_tournament(_config(tmp_path, "one", workers=1), progress=False)
    two = run_tournament(_config(tmp_path, "two", workers=2), progress=False)
    assert _table(one) == _table(two)
    assert [row["rating"] for row in one.standings] == [row["rating"] for row in two.standings]


def test_resume_after_interruption_equals_uninterrupted_run(tmp_path):
    whole = run_tournament(_config(tmp_path, "whole"), progress=False)

    class Interrupt(Exception):
        pass

    seen = []

    def stop_after_two(result):
        seen.append(result["task_id"])
        if len(seen) == 2:
            raise Interrupt

    config = _config(tmp_path, "resumed")
    with pytest.raises(Interrupt):
        run_tournament(config, progress=False, on_result=stop_after_two)
    assert len(load_results(Path(config.output))) == 2
    with open(Path(config.output) / RESULTS_FILE, "a", encoding="utf-8") as handle:
        handle.write('{"task_id": "0-1/2", "torn')
    resumed = run_tournament(config, progress=False)
    assert _table(resumed) == _table(whole)
    lines = (Path(config.output) / RESULTS_FILE).read_text().splitlines()
    assert len(lines) == len(build_tasks(config))
    assert len({json.loads(line)["task_id"] for line in lines}) == len(lines)


def test_resume_after_a_kill_equals_uninterrupted_run(tmp_path):
    settings = {"name": "killed", "agents": list(FAST_AGENTS), "deals": 200, "block_deals": 10, "workers": 1,
                "output": str(tmp_path / "killed"), "seed": 5}
    script = ("import json,sys\nfrom razz_env.evaluation.config import TournamentConfig\n"
              "from razz_env.evaluation.tournament import run_tournament\n"
              f"run_tournament(TournamentConfig.from_dict(json.loads({json.dumps(json.dumps(settings))})), "
              "progress=False)\n")
    process = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    results = tmp_path / "killed" / RESULTS_FILE
    deadline = time.time() + 120
    while time.time() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 3):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    done_before = len(load_results(tmp_path / "killed"))
    config = TournamentConfig.from_dict(settings)
    assert 3 <= done_before < len(build_tasks(config))
    resumed = run_tournament(config, progress=False)
    whole = run_tournament(TournamentConfig.from_dict({**settings, "output": str(tmp_path / "whole")}),
                           progress=False)
    assert _table(resumed) == _table(whole)


def test_config_errors_name_the_field(tmp_path):
    with pytest.raises(ValueError, match="deals: expected a positive integer"):
        _config(tmp_path, "bad", deals=0)
    with pytest.raises(ValueError, match="format"):
        _config(tmp_path, "bad", format="swiss")
    with pytest.raises(ValueError, match="unknown key"):
        TournamentConfig.from_dict({"hands": 10})


def test_resume_refuses_results_of_another_configuration(tmp_path):
    config = _config(tmp_path, "changed")
    run_tournament(config, progress=False)
    with pytest.raises(ValueError, match="different configuration"):
        run_tournament(_config(tmp_path, "changed", deals=60), progress=False)


@pytest.mark.parametrize(("broken", "kind"), [("test_raiser", "exception"), ("test_sleeper", "timeout"),
                                              ("test_cheater", "illegal")])
def test_broken_agent_is_reported_and_contained(tmp_path, broken, kind):
    config = _config(tmp_path, broken, agents=("random", "calling_station", broken), decision_timeout=0.02)
    result = run_tournament(config, progress=False)
    assert result.failures, "the broken agent's blocks must be reported"
    assert {f["error"]["kind"] for f in result.failures} == {kind}
    assert all(f["error"]["agent"] == 2 for f in result.failures)
    healthy = [p for p in result.pairings if p.opponent is not None and 2 not in (p.agent, p.opponent)]
    assert healthy and all(p.hands == 2 * 40 for p in healthy)
    assert "FAILED" in format_terminal(result)


def test_reports_are_written(tmp_path):
    config = _config(tmp_path, "reports", records=True)
    result = run_tournament(config, progress=False)
    paths = {p.name for p in write_reports(result, config.output)}
    assert {"standings.csv", "pairings.csv", "summary.json", "crosstable.png", "ci.png"} <= paths
    summary = json.loads((Path(config.output) / "summary.json").read_text())
    assert len(summary["standings"]) == 3
    hands = list((Path(config.output) / "hands").glob("*.jsonl"))
    assert len(hands) == len(build_tasks(config))
    assert len(list((Path(config.output) / "hands").glob("*.phhs"))) == len(hands)
    from razz_env.engine.record import replay_record

    record = json.loads(hands[0].read_text().splitlines()[0])
    record.pop("agents")
    assert replay_record(record).ok
