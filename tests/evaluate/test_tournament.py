"""Tournament harness: determinism across workers, resume and extension, checks before the first block,
broken agents, hand records."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from razz_env.agents.registry import register
from razz_env.encoding.interface import Declaration
from razz_env.engine.errors import ConfigError
from razz_env.engine.record import replay_record
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.report import format_terminal, write_reports
from razz_env.evaluate.runner import RESULTS_FILE, build_tasks, load_results, run_tournament
from razz_env.evaluate.tasks import seat_permutations

FAST_AGENTS = ("random", "calling_station", "razz_heuristic")


def _config(tmp_path: Path, name: str, **overrides) -> TournamentConfig:
    settings = {"name": name, "agents": FAST_AGENTS, "deals": 40, "block_deals": 20, "workers": 1,
                "output": str(tmp_path / name), "seed": 11}
    settings.update(overrides)
    return TournamentConfig.from_dict(settings)


def _table(result) -> list[tuple]:
    return [(p.agent, p.opponent, p.hands, round(p.duplicate.mean_bb100, 9), round(p.duplicate.sd_bb100, 9))
            for p in result.pairings]


def _lines(config: TournamentConfig) -> list[str]:
    return (Path(config.output) / RESULTS_FILE).read_text().splitlines()


class Raiser:
    name = "raiser"
    declaration = Declaration()

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        raise RuntimeError("boom")


class Sleeper:
    name = "sleeper"
    declaration = Declaration()

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        time.sleep(3)
        return 1


class Cheater:
    name = "cheater"
    declaration = Declaration()

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        return int((observation.action_mask == 0).nonzero()[0][0])


class Slowpoke:
    """Calls, 5 ms per decision: fails a 1 ms time limit, passes a 1 s one."""

    name = "slowpoke"
    declaration = Declaration()

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        time.sleep(0.005)
        return int(observation.action_mask.nonzero()[0][-1])


class StudOnly:
    name = "stud_only"
    declaration = Declaration(variants=("stud", "stud8"))

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        return int(observation.action_mask.nonzero()[0][0])


class Fussy(Slowpoke):
    """Builds unseeded (as the up-front check does) but not with a block's seed."""

    def __init__(self, seed=None):
        if seed:
            raise RuntimeError("cannot be seeded")


for _name, _cls in (("test_raiser", Raiser), ("test_sleeper", Sleeper), ("test_cheater", Cheater),
                    ("test_slowpoke", Slowpoke), ("test_stud_only", StudOnly), ("test_fussy", Fussy)):
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
    assert len(load_results(config)) == 2
    with open(Path(config.output) / RESULTS_FILE, "a", encoding="utf-8") as handle:
        handle.write('{"task_id": "0-1/2", "torn')
    resumed = run_tournament(config, progress=False)
    assert _table(resumed) == _table(whole)
    lines = _lines(config)
    assert len(lines) == len(build_tasks(config))
    assert len({json.loads(line)["task_id"] for line in lines}) == len(lines)


def test_resume_after_a_kill_equals_uninterrupted_run(tmp_path):
    """The killed run's lock dies with it: the resume is not refused as a concurrent run."""
    settings = {"name": "killed", "agents": list(FAST_AGENTS), "deals": 200, "block_deals": 10, "workers": 1,
                "output": str(tmp_path / "killed"), "seed": 5}
    script = ("import json,sys\nfrom razz_env.evaluate.config import TournamentConfig\n"
              "from razz_env.evaluate.runner import run_tournament\n"
              f"run_tournament(TournamentConfig.from_dict(json.loads({json.dumps(json.dumps(settings))})), "
              "progress=False)\n")
    process = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    results = tmp_path / "killed" / RESULTS_FILE
    deadline = time.time() + 120
    while time.time() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 3):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    config = TournamentConfig.from_dict(settings)
    done_before = len(load_results(config))
    assert 3 <= done_before < len(build_tasks(config))
    resumed = run_tournament(config, progress=False)
    whole = run_tournament(TournamentConfig.from_dict({**settings, "output": str(tmp_path / "whole")}),
                           progress=False)
    assert _table(resumed) == _table(whole)


@pytest.mark.parametrize(("first", "then"), [(40, 80), (50, 80), (80, 40)])
def test_a_finished_tournament_extends_to_more_deals_reusing_its_blocks(tmp_path, first, then):
    """--deals 4000 then --deals 8000 plays only the new blocks and equals a fresh 8000-deal run."""
    run_tournament(_config(tmp_path, "grown", deals=first), progress=False)
    before = _lines(_config(tmp_path, "grown"))
    grown = run_tournament(_config(tmp_path, "grown", deals=then), progress=False)
    fresh = run_tournament(_config(tmp_path, "fresh", deals=then), progress=False)
    assert _table(grown) == _table(fresh)
    assert [row["rating"] for row in grown.standings] == [row["rating"] for row in fresh.standings]
    after = _lines(_config(tmp_path, "grown"))
    assert after[: len(before)] == before, "earlier lines are kept as they were"
    reused = {json.loads(line)["task_id"] for line in before if json.loads(line)["deals"] == 20}
    replayed = {json.loads(line)["task_id"] for line in after[len(before):]}
    assert not reused & replayed, "a full block already played is never played again"
    assert grown.blocks_done == grown.blocks_total == len(build_tasks(_config(tmp_path, "x", deals=then)))


def test_config_errors_name_the_field(tmp_path):
    with pytest.raises(ValueError, match="deals: must be at least 1, got 0"):
        _config(tmp_path, "bad", deals=0)
    with pytest.raises(ValueError, match="format"):
        _config(tmp_path, "bad", format="swiss")
    with pytest.raises(ValueError, match="unknown key"):
        TournamentConfig.from_dict({"hands": 10})


def test_resume_refuses_results_of_another_configuration(tmp_path):
    config = _config(tmp_path, "changed")
    run_tournament(config, progress=False)
    with pytest.raises(ConfigError, match="another configuration"):
        run_tournament(_config(tmp_path, "changed", seed=12), progress=False)


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


def test_an_agent_that_cannot_be_built_for_a_block_is_a_contained_failure(tmp_path):
    result = run_tournament(_config(tmp_path, "fussy", agents=("random", "calling_station", "test_fussy")),
                            progress=False)
    assert {f["task_id"] for f in result.failures} == {"0-2/0", "0-2/1", "1-2/0", "1-2/1"}
    assert {f["error"]["message"] for f in result.failures} == {"construction: RuntimeError: cannot be seeded"}
    assert [p.hands for p in result.pairings if p.opponent == 1] == [80]


def test_failed_blocks_are_played_again_on_resume(tmp_path):
    """A block that failed (here: past a 1 ms limit) is not final: a resume with a longer limit plays it."""
    agents = ("random", "test_slowpoke")
    tight = _config(tmp_path, "retry", agents=agents, deals=4, block_deals=2, decision_timeout=0.001)
    failed = run_tournament(tight, progress=False)
    assert len(failed.failures) == 2 and not failed.pairings
    relaxed = run_tournament(_config(tmp_path, "retry", agents=agents, deals=4, block_deals=2, decision_timeout=1),
                             progress=False)
    assert not relaxed.failures
    assert relaxed.pairings and relaxed.pairings[0].hands == 8
    assert len(_lines(tight)) == 4, "the failures stay on record; the successes supersede them"


def test_every_agent_is_checked_before_the_first_block(tmp_path):
    """A misspelt fourth agent is refused up front, naming it, with nothing written."""
    config = _config(tmp_path, "typo", agents=(*FAST_AGENTS, "razz_heuristc"))
    with pytest.raises(ConfigError, match=r"agents\[3\] \(razz_heuristc\): unknown agent 'razz_heuristc'"):
        run_tournament(config, progress=False)
    assert not Path(config.output).exists()
    options = _config(tmp_path, "options", agents=("random", {"type": "monte_carlo", "samplez": 8}))
    with pytest.raises(ConfigError, match=r"agents\[1\] .*samplez"):
        run_tournament(options, progress=False)
    assert not Path(options.output).exists()


def test_an_agent_that_cannot_sit_at_the_table_is_refused_before_the_first_block(tmp_path):
    config = _config(tmp_path, "seating", agents=("random", "test_stud_only"))
    with pytest.raises(ConfigError, match=r"agents\[1\] \(test_stud_only\): .*cannot be seated at razz"):
        run_tournament(config, progress=False)
    assert not Path(config.output).exists()
    assert run_tournament(_config(tmp_path, "stud", agents=("random", "test_stud_only"), variant="stud",
                                  deals=2, block_deals=2), progress=False).pairings


def test_reports_are_written(tmp_path):
    config = _config(tmp_path, "reports")
    result = run_tournament(config, progress=False)
    paths = {p.name for p in write_reports(result, config.output)}
    assert {"standings.csv", "pairings.csv", "summary.json", "crosstable.png", "ci.png"} <= paths
    summary = json.loads((Path(config.output) / "summary.json").read_text())
    assert len(summary["standings"]) == 3
    assert summary["config_id"] == config.config_id and summary["config"]["deals"] == 40


def test_hand_records_name_the_players_and_replay(tmp_path):
    config = _config(tmp_path, "records", agents=("random", {"type": "razz_heuristic", "label": "heuristic"}),
                     records=True)
    run_tournament(config, progress=False)
    folder = Path(config.output) / "hands"
    hands = sorted(folder.glob("*.jsonl"))
    assert [p.name for p in hands] == ["0-1_0.jsonl", "0-1_1.jsonl"]
    assert len(list(folder.glob("*.phhs"))) == 2 and not list(folder.glob("*.tmp"))
    records = [json.loads(line) for line in hands[0].read_text().splitlines()]
    assert len(records) == 2 * 20
    assert [r["players"] for r in records[:2]] == [["random", "heuristic"], ["heuristic", "random"]]
    assert all(replay_record(r).ok for r in records)
    assert 'players = ["random", "heuristic"]' in (folder / "0-1_0.phhs").read_text()


def test_fresh_leaves_no_stale_hand_records(tmp_path):
    run_tournament(_config(tmp_path, "fresh", deals=60, records=True), progress=False)
    config = _config(tmp_path, "fresh", deals=20, records=True)
    run_tournament(config, fresh=True, progress=False)
    files = sorted(p.name for p in (Path(config.output) / "hands").iterdir())
    assert files == sorted(f"{t.task_id.replace('/', '_')}.{ext}" for t in build_tasks(config)
                           for ext in ("jsonl", "phhs"))


def test_a_block_played_again_without_records_drops_its_old_ones(tmp_path):
    run_tournament(_config(tmp_path, "short", deals=30, records=True), progress=False)
    run_tournament(_config(tmp_path, "short", deals=40), progress=False)
    hands = Path(tmp_path / "short" / "hands")
    assert sorted(p.name for p in hands.glob("*.jsonl")) == ["0-1_0.jsonl", "0-2_0.jsonl", "1-2_0.jsonl"]


def test_resuming_with_records_after_a_run_without_says_which_blocks_have_none(tmp_path, caplog):
    run_tournament(_config(tmp_path, "mixed", deals=20), progress=False)
    with caplog.at_level(logging.WARNING, logger="razz_env.evaluate"):
        run_tournament(_config(tmp_path, "mixed", deals=40, records=True), progress=False)
    assert "3 of the 3 blocks played earlier have no hand records" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="razz_env.evaluate"):
        run_tournament(_config(tmp_path, "mixed", deals=60), progress=False)
    assert "the blocks played now will have none" in caplog.text


def test_a_minirazz_tournament_runs_through_the_cli_at_the_variants_stakes(tmp_path, capsys):
    from razz_env.cli import main

    path = tmp_path / "tournament_minirazz.yaml"
    output = tmp_path / "mini"
    path.write_text(f"variant: minirazz\nagents: [random, calling_station]\ndeals: 30\nblock_deals: 15\nworkers: 1\n"
                    f"records: true\noutput: {output}\n")
    assert main(["tournament", "--config", str(path), "--quiet", "--no-plots"]) == 0
    assert "calling_station" in capsys.readouterr().out
    summary = json.loads((output / "summary.json").read_text())
    config = summary["config"]
    assert (config["ante"], config["bring_in"], config["small_bet"], config["big_bet"], config["raise_cap"]) == (
        1, 1, 2, 4, 2)
    records = [json.loads(line) for file in sorted((output / "hands").glob("*.jsonl"))
               for line in file.read_text().splitlines()]
    assert len(records) == 2 * 30 and all(record["variant"] == "minirazz" for record in records)
    assert all(replay_record(record).ok and all(len(held) <= 3 for held in record["cards"]) for record in records)
    assert not list((output / "hands").glob("*.phhs"))  # PHH has no MiniRazz: JSON records only
    won = sum(record["payoffs"][record["players"].index("random")] for record in records) / 4  # in big bets of 4
    standings = {row["agent"]: row for row in summary["standings"]}
    assert standings["random"]["bb_per_100"] == pytest.approx(100 * won / 60, abs=1e-6)


def test_a_seven_card_agent_is_refused_at_a_minirazz_tournament_before_any_hand(tmp_path, capsys):
    from razz_env.cli import main

    config = _config(tmp_path, "mini_refused", variant="minirazz")
    assert config.small_bet == 2 and config.raise_cap == 2
    with pytest.raises(ConfigError, match=r"agents\[2\] \(razz_heuristic\): agent 'razz_heuristic' plays razz or "
                                          r"action_razz or stud or stud8 at any number of seats; it cannot be seated "
                                          r"at minirazz with 2 seats"):
        run_tournament(config, progress=False)
    assert not Path(config.output).exists()
    path = tmp_path / "refused.yaml"
    path.write_text(f"variant: minirazz\nagents: [random, monte_carlo]\noutput: {tmp_path / 'cli_refused'}\n")
    assert main(["tournament", "--config", str(path), "--quiet"]) == 2
    assert "razz tournament: agents[1] (monte_carlo): agent 'monte_carlo' plays" in capsys.readouterr().err
    assert not (tmp_path / "cli_refused").exists()
