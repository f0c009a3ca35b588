"""``razz_env.train.budgeted``: a run on a CPU budget evaluates, checkpoints, stops and goes on when run again."""

from __future__ import annotations

import csv
import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("numba", reason="the batched trainer needs numba")

from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.train.budgeted import BudgetedRun  # noqa: E402

SETTINGS = {"variant": "minirazz_tiny", "stacks": 200, "num_tables": 64, "num_steps": 16, "hidden": [16, 16],
            "total_steps": 10**9, "quiet": True, "seed": 4}


class Counting:
    """An evaluator that counts its calls and saves the count."""

    def __init__(self) -> None:
        self.calls, self.finished = 0, 0

    def evaluate(self, progress):
        self.calls += 1
        return {"calls": self.calls, "update": progress.update}

    def save(self, folder):
        (folder / "count.json").write_text(json.dumps(self.calls))

    def load(self, folder):
        self.calls = json.loads((folder / "count.json").read_text())

    def finish(self, progress, folder):
        self.finished += 1


def rows(folder):
    with open(folder / "curve.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def test_steps_end_a_run_which_a_larger_budget_continues_from_its_checkpoint(tmp_path):
    first = Counting()
    run = BudgetedRun(tmp_path, SETTINGS, minutes=10, every=1000, evaluator=first, max_steps=3 * 1024)
    run.run()
    assert first.finished == 1 and run.done() and (tmp_path / "final.pt").exists()
    assert [(r["steps"], r["calls"]) for r in rows(tmp_path)] == [("1024", "1"), ("3072", "2")]  # first, and last
    again = Counting()
    BudgetedRun(tmp_path, SETTINGS, minutes=10, every=1000, evaluator=again, max_steps=5 * 1024).run()
    assert again.calls == 3 and [r["update"] for r in rows(tmp_path)] == ["1", "3", "5"]
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["steps"] == 5 * 1024 and state["update"] == 5 and state["clock"][0] > 0


def test_other_settings_in_the_folder_and_a_zero_budget_are_refused(tmp_path):
    BudgetedRun(tmp_path, SETTINGS, minutes=10, every=1000, evaluator=Counting(), max_steps=1024).run()
    before = (tmp_path / "curve.csv").read_text()
    for max_steps in (1024, 2048):  # a budget the folder's run has spent (it is not that run's), and a larger one
        other = BudgetedRun(tmp_path, {**SETTINGS, "seed": 5}, minutes=10, every=1000, evaluator=Counting(),
                            max_steps=max_steps)
        with pytest.raises(ConfigError, match="holds a run with other settings"):
            other.done()
        with pytest.raises(ConfigError, match="holds a run with other settings"):
            other.run()
    with pytest.raises(ConfigError, match="expected positive numbers"):
        BudgetedRun(tmp_path / "other", SETTINGS, minutes=10, every=0, evaluator=Counting()).run()
    assert (tmp_path / "curve.csv").read_text() == before and not (tmp_path / "other").exists()


def same_weights(one, other):
    import torch

    first, second = (torch.load(path, weights_only=False)["state_dict"] for path in (one, other))
    return first.keys() == second.keys() and all(torch.equal(first[key], second[key]) for key in first)


def test_a_stage_goes_on_from_the_last_and_a_chain_of_stages_repeats(tmp_path):
    from razz_env.train.budgeted import Checkpoints

    def chain(root):
        BudgetedRun(root / "one", SETTINGS, minutes=10, every=1000, evaluator=Checkpoints(), max_steps=2 * 1024).run()
        BudgetedRun(root / "two", SETTINGS, minutes=10, every=1000, evaluator=Checkpoints(), max_steps=4 * 1024,
                    start_from=root / "one").run()
        return root / "two"

    first, second = chain(tmp_path / "a"), chain(tmp_path / "b")
    state = json.loads((first / "state.json").read_text())
    assert state["update"] == 4 and state["steps"] == 4 * 1024
    assert json.loads((tmp_path / "a" / "one" / "state.json").read_text())["update"] == 2  # the earlier stage kept
    assert same_weights(first / "final.pt", second / "final.pt")
    assert not same_weights(first / "final.pt", tmp_path / "a" / "one" / "final.pt")
    # the same as going on in the first stage's own folder
    BudgetedRun(tmp_path / "a" / "one", SETTINGS, minutes=10, every=1000, evaluator=Checkpoints(),
                max_steps=4 * 1024).run()
    assert same_weights(first / "final.pt", tmp_path / "a" / "one" / "final.pt")


def test_a_stage_refuses_an_earlier_one_that_is_missing_or_has_other_settings(tmp_path):
    from razz_env.train.budgeted import Checkpoints

    with pytest.raises(ConfigError, match="no checkpoint there"):
        BudgetedRun(tmp_path / "two", SETTINGS, minutes=10, every=1000, evaluator=Checkpoints(), max_steps=2048,
                    start_from=tmp_path / "one").run()
    BudgetedRun(tmp_path / "one", SETTINGS, minutes=10, every=1000, evaluator=Checkpoints(), max_steps=1024).run()
    with pytest.raises(ConfigError, match="written by a run with other seed; a run going on from it may change only"):
        BudgetedRun(tmp_path / "two", {**SETTINGS, "seed": 5}, minutes=10, every=1000, evaluator=Checkpoints(),
                    max_steps=2048, start_from=tmp_path / "one").run()
    assert not (tmp_path / "two").exists()


def test_a_stage_may_go_on_with_other_opponents_and_records_its_own_settings(tmp_path):
    from razz_env.train.budgeted import Checkpoints

    BudgetedRun(tmp_path / "one", SETTINGS, minutes=10, every=1000, evaluator=Checkpoints(), max_steps=1024).run()
    changed = {**SETTINGS, "self_play_fraction": 0.5, "opponents": ["calling_station"], "ent_coef": 0.0}
    two = BudgetedRun(tmp_path / "two", changed, minutes=10, every=1000, evaluator=Checkpoints(), max_steps=3 * 1024,
                      start_from=tmp_path / "one")
    two.run()
    state = json.loads((tmp_path / "two" / "state.json").read_text())
    assert state["settings"] == changed and state["update"] == 3 and two.done()
    assert json.loads((tmp_path / "one" / "state.json").read_text())["settings"] == SETTINGS
    # going on in its own folder: its checkpoint is now its own run's
    BudgetedRun(tmp_path / "two", changed, minutes=10, every=1000, evaluator=Checkpoints(), max_steps=4 * 1024).run()
    assert json.loads((tmp_path / "two" / "state.json").read_text())["update"] == 4


class Pressing(Counting):
    """Presses Ctrl-C (SIGINT) ``times`` times in its ``press``-th evaluation, or (``saving``) while it saves its
    state then, inside the run's checkpoint."""

    def __init__(self, press: int, times: int = 1, saving: bool = False) -> None:
        super().__init__()
        self.press, self.times, self.saving, self.done = press, times, saving, False

    def evaluate(self, progress):
        figures = super().evaluate(progress)
        if not self.saving:
            self.pressed()
        return figures

    def save(self, folder):
        super().save(folder)
        if self.saving:
            self.pressed()

    def pressed(self):
        import signal

        if self.calls == self.press and not self.done:
            self.done = True
            for _ in range(self.times):
                signal.raise_signal(signal.SIGINT)


def test_ctrl_c_checkpoints_at_the_next_update_and_the_same_run_goes_on(tmp_path):
    from razz_env.train.budgeted import RunInterrupted

    run = BudgetedRun(tmp_path, SETTINGS, minutes=10, every=0.001, evaluator=Pressing(press=2), max_steps=6 * 1024)
    with pytest.raises(RunInterrupted, match=r"saved at step 3,072 \(.* CPU min\); run the same command to go on"):
        run.run()
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["update"] == 3 and not run.done() and not (tmp_path / "final.pt").exists()
    assert [r["update"] for r in rows(tmp_path)] == ["1", "2"]  # the interrupted update saved, not measured
    again = Counting()
    again.calls = 2
    BudgetedRun(tmp_path, SETTINGS, minutes=10, every=1000, evaluator=again, max_steps=6 * 1024).run()
    assert json.loads((tmp_path / "state.json").read_text())["update"] == 6 and (tmp_path / "final.pt").exists()


def test_a_second_ctrl_c_stops_at_once_keeping_the_last_checkpoint(tmp_path):
    run = BudgetedRun(tmp_path, SETTINGS, minutes=10, every=0.001, evaluator=Pressing(press=2, times=2),
                      max_steps=6 * 1024)
    with pytest.raises(KeyboardInterrupt) as stopped:
        run.run()
    assert type(stopped.value) is KeyboardInterrupt  # not a saved run's RunInterrupted
    assert json.loads((tmp_path / "state.json").read_text())["update"] == 1
    BudgetedRun(tmp_path, SETTINGS, minutes=10, every=1000, evaluator=Counting(), max_steps=3 * 1024).run()
    assert json.loads((tmp_path / "state.json").read_text())["update"] == 3


def test_ctrl_c_during_a_checkpoint_lets_it_finish_whole(tmp_path):
    from razz_env.train.budgeted import RunInterrupted

    run = BudgetedRun(tmp_path, SETTINGS, minutes=10, every=0.001, evaluator=Pressing(press=2, times=2, saving=True),
                      max_steps=6 * 1024)
    with pytest.raises(RunInterrupted, match="saved at step 3,072"):
        run.run()
    assert json.loads((tmp_path / "count.json").read_text()) == 2  # update 2's save finished, then update 3's
    assert json.loads((tmp_path / "state.json").read_text())["update"] == 3
