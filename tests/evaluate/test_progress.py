"""Progress in a log is a few whole lines; on a terminal it is tqdm's bar."""

from __future__ import annotations

import io
import subprocess
import sys

from razz_env.evaluate.progress import STEPS, LineProgress, progress_bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_progress_is_one_line_a_tenth_and_no_carriage_return():
    log = io.StringIO()
    bar = progress_bar(1248, 0, "block", "tournament", file=log)
    assert isinstance(bar, LineProgress)
    for _ in range(1248):
        bar.update(1)
    bar.write("a message")
    bar.close()
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue() and len(lines) == STEPS + 1
    assert lines[0].startswith("tournament: 125/1248 blocks (10%) after ")
    assert lines[-2].startswith("tournament: 1248/1248 blocks (100%)") and lines[-1] == "a message"


def test_a_resumed_run_counts_from_where_it_was_and_training_sets_the_count():
    log = io.StringIO()
    bar = progress_bar(100, 95, "step", "ppo", file=log)
    bar.n = 99
    bar.refresh()
    assert log.getvalue() == ""
    bar.set_postfix({"vs random": 12.3456})
    bar.n = 100
    bar.refresh()
    bar.close()
    assert log.getvalue().splitlines() == [log.getvalue().splitlines()[0]]
    assert log.getvalue().startswith("ppo: 100/100 steps (100%) after ") and log.getvalue().endswith(
        "(vs random=12.3)\n")


def test_an_unfinished_run_writes_no_last_line():
    log = io.StringIO()
    bar = progress_bar(100, 0, "block", "tournament", file=log)
    bar.update(5)
    bar.close()
    assert log.getvalue() == ""


def test_on_a_terminal_it_is_tqdm():
    bar = progress_bar(10, 0, "block", "tournament", file=Terminal())
    assert type(bar).__name__ == "tqdm"
    bar.close()


def test_razz_tournament_into_a_log_writes_whole_lines(tmp_path):
    config = tmp_path / "small.yaml"
    config.write_text("agents: [random, calling_station, razz_heuristic]\ndeals: 40\nblock_deals: 5\nworkers: 2\n")
    log = tmp_path / "run.log"
    with log.open("w") as out:
        done = subprocess.run([sys.executable, "-m", "razz_env.cli", "tournament", "--config", str(config),
                               "--output", str(tmp_path / "t"), "--no-plots"],
                              stdout=out, stderr=subprocess.STDOUT, timeout=300, cwd=tmp_path)
    text = log.read_text()
    assert done.returncode == 0, text[-2000:]
    assert "\r" not in text
    progress = [line for line in text.splitlines() if line.startswith("tournament: ")]
    assert len(progress) == STEPS and progress[-1].startswith("tournament: 24/24 blocks (100%)"), progress
