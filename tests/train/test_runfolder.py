"""The run folder: atomic writes, recorded hashes, odd names, refusing to mix runs, cutting back to a step."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("tensorboard")

from razz_env.agents.sb3_agent import UntrustedModelError
from razz_env.engine.errors import ConfigError
from razz_env.train.runfolder import EVAL_FIELDS, RunFolder, drop_events_after, write_atomic


class FakeModel:
    """Stands in for an SB3 model: ``save`` writes some bytes to a file-like object."""

    def __init__(self, payload: bytes) -> None:
        self.payload = payload

    def save(self, handle) -> None:
        handle.write(self.payload)


def _row(steps: int, opponent: str = "random") -> dict:
    return {"steps": steps, "minutes": steps / 100, "train_minutes": steps / 200, "opponent": opponent,
            "bb_per_100": 1.0, "ci95_low": 0.0, "ci95_high": 2.0, "hands": 10}


def test_a_failed_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    target = tmp_path / "checkpoints" / "step_1.zip"
    write_atomic(target, b"old model")

    def killed(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new model, never complete")
    assert target.read_bytes() == b"old model"
    assert sorted(p.name for p in target.parent.iterdir()) == [".step_1.zip.tmp", "step_1.zip"]


def test_saved_models_are_recorded_and_verified(tmp_path):
    folder = RunFolder(tmp_path)
    digest = folder.save_model(FakeModel(b"weights"), "checkpoints/step_8.zip")
    assert json.loads((tmp_path / "hashes.json").read_text()) == {"checkpoints/step_8.zip": digest}
    assert folder.verified_bytes("checkpoints/step_8.zip") == b"weights"
    (tmp_path / "checkpoints" / "step_8.zip").write_bytes(b"weigh")
    with pytest.raises(UntrustedModelError, match="differs from the recorded"):
        folder.verified_bytes("checkpoints/step_8.zip")
    (tmp_path / "checkpoints" / "step_9.zip").write_bytes(b"copied in")
    with pytest.raises(UntrustedModelError, match="no SHA-256 recorded"):
        folder.verified_bytes("checkpoints/step_9.zip")


def test_numbered_files_and_odd_names(tmp_path):
    folder = RunFolder(tmp_path)
    for name in ("step_10.zip", "step_9.zip", "step_x.zip", "step_1_2.zip", "notes.txt", ".step_11.zip.tmp"):
        (tmp_path / "checkpoints").mkdir(exist_ok=True)
        (tmp_path / "checkpoints" / name).write_bytes(b"")
    good, odd = folder.numbered("checkpoints")
    assert good == [(9, "checkpoints/step_9.zip"), (10, "checkpoints/step_10.zip")]
    assert odd == ["checkpoints/notes.txt", "checkpoints/step_1_2.zip", "checkpoints/step_x.zip"]


def test_a_new_run_refuses_a_folder_holding_one(tmp_path):
    folder = RunFolder(tmp_path / "run")
    assert folder.check_new_run(fresh=False) == []
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "notes.txt").write_text("mine")
    assert folder.check_new_run(fresh=False) == [], "an empty (or foreign-only) folder is usable"
    (tmp_path / "run" / "eval.csv").write_text("x")
    with pytest.raises(ConfigError, match=r"holds an earlier run \(eval.csv\); pass --resume .* --fresh"):
        folder.check_new_run(fresh=False)
    with pytest.raises(ConfigError, match="no config.json written by razz train; not deleting"):
        folder.check_new_run(fresh=True)
    (tmp_path / "run" / "config.json").write_text("{}")
    assert [p.name for p in folder.check_new_run(fresh=True)] == ["config.json", "eval.csv"]
    (tmp_path / "file").write_text("")
    with pytest.raises(ConfigError, match="is not a folder"):
        RunFolder(tmp_path / "file").check_new_run(fresh=True)


def test_cut_after_drops_rows_events_and_snapshots_past_the_step(tmp_path):
    from torch.utils.tensorboard import SummaryWriter

    folder = RunFolder(tmp_path)
    folder.write_eval_rows([_row(s, o) for s in (100, 200, 300) for o in ("random", "calling_station")])
    for steps in (100, 200, 300):
        folder.save_model(FakeModel(str(steps).encode()), f"snapshots/step_{steps}.zip")
    writer = SummaryWriter(str(tmp_path / "tb" / "run_1"))
    for steps in range(0, 400, 50):
        writer.add_scalar("eval/x", steps, steps)
    writer.close()
    dropped = folder.cut_after(200)
    assert [int(row["steps"]) for row in folder.eval_rows()] == [100, 100, 200, 200]
    assert dropped == ["2 eval.csv rows", "3 TensorBoard events", "snapshots/step_300.zip"]
    assert folder.numbered("snapshots")[0] == [(100, "snapshots/step_100.zip"), (200, "snapshots/step_200.zip")]
    assert "snapshots/step_300.zip" not in folder.hashes()
    assert _scalar_steps(tmp_path / "tb" / "run_1", "eval/x") == [0, 50, 100, 150, 200]
    assert folder.cut_after(200) == [], "cutting again changes nothing"


def test_drop_events_after_without_logs(tmp_path):
    assert drop_events_after(tmp_path / "tb", 5) == 0


def test_eval_csv_with_other_columns_is_refused(tmp_path):
    (tmp_path / "eval.csv").write_text("step,score\n1,2\n")
    with pytest.raises(ConfigError, match="expected the columns " + ", ".join(EVAL_FIELDS)):
        RunFolder(tmp_path).eval_rows()


@pytest.mark.parametrize("config, seats", [({"num_seats": 6}, "6"), ({"num_seats": [2, 6]}, ""), ([], "")])
def test_eval_csv_written_before_the_seats_column_reads_at_the_runs_table_size(tmp_path, config, seats):
    """A run started before eval.csv had its ``seats`` column still resumes: its rows read at the one table size
    config.json names, and the next write adds the column."""
    (tmp_path / "config.json").write_text(json.dumps(config))
    (tmp_path / "eval.csv").write_text(",".join(EVAL_FIELDS[:-1]) + "\n100,1.0,0.5,random,1.0,0.0,2.0,10\n")
    folder = RunFolder(tmp_path)
    assert [(row["steps"], row["seats"]) for row in folder.eval_rows()] == [("100", seats)]
    folder.append_eval_rows([{**_row(200), "seats": 6}])
    assert (tmp_path / "eval.csv").read_text().splitlines() == [
        ",".join(EVAL_FIELDS), f"100,1.0,0.5,random,1.0,0.0,2.0,10,{seats}", "200,2.0,1.0,random,1.0,0.0,2.0,10,6"]


def test_clock_at_a_checkpoint_or_the_last_evaluation(tmp_path):
    folder = RunFolder(tmp_path)
    folder.write_eval_rows([_row(100)])
    folder.record_clock(150, 2.5, 2.0)
    assert folder.clock_at(150) == (2.5, 2.0)
    assert folder.clock_at(120) == (1.0, 0.5)
    assert folder.clock_at(50) == (0.0, 0.0)


def _scalar_steps(run_dir, tag) -> list[int]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    accumulator = EventAccumulator(str(run_dir))
    accumulator.Reload()
    return [event.step for event in accumulator.Scalars(tag)]


def test_unreadable_bookkeeping_is_a_clear_error(tmp_path):
    (tmp_path / "hashes.json").write_text("{not json")
    with pytest.raises(ConfigError, match=r"hashes.json: unreadable \(Expecting property name"):
        RunFolder(tmp_path).hashes()
    (tmp_path / "hashes.json").write_text("[]")
    with pytest.raises(ConfigError, match="expected a mapping of file to SHA-256"):
        RunFolder(tmp_path).hashes()


@pytest.mark.parametrize(("clock", "message"), [
    ("null", "expected a mapping of step to minutes, got None"),
    ("[1, 2]", "expected a mapping of step to minutes"),
    ('{"150": null}', "step 150: expected minutes and train_minutes, got None"),
    ('{"150": {"minutes": "soon"}}', "step 150: expected minutes and train_minutes"),
])
def test_a_damaged_clock_is_a_clear_error(tmp_path, clock, message):
    (tmp_path / "clock.json").write_text(clock)
    with pytest.raises(ConfigError, match=message):
        RunFolder(tmp_path).clock_at(150)


def test_model_steps_reads_a_checkpoints_name_or_the_final_models_summary(tmp_path):
    folder = RunFolder(tmp_path / "run")
    assert folder.model_steps("checkpoints/step_250048.zip") == 250048
    with pytest.raises(ConfigError, match=r"no summary.json with the final model's steps"):
        folder.model_steps("final.zip")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "summary.json").write_text(json.dumps({"steps": 300032}))
    assert folder.model_steps("final.zip") == 300032
    for other in ("snapshots/step_64.zip", "step_64.zip", "checkpoints/step_x.zip", "eval.csv"):
        with pytest.raises(ConfigError, match=rf"{other}: expected final.zip or checkpoints/step_<steps>.zip"):
            folder.model_steps(other)


class InterruptedWhileSaving(FakeModel):
    """Ctrl-C lands in the middle of ``save`` (as it does inside ``torch.save``), between two writes."""

    def save(self, handle) -> None:
        import signal

        handle.write(self.payload[:3])
        signal.raise_signal(signal.SIGINT)
        handle.write(self.payload[3:])


def test_ctrl_c_inside_a_model_save_waits_for_the_save_and_its_hash(tmp_path):
    import hashlib

    folder = RunFolder(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        folder.save_model(InterruptedWhileSaving(b"whole model bytes"), "checkpoints/step_5.zip")
    saved = (tmp_path / "checkpoints" / "step_5.zip").read_bytes()
    assert saved == b"whole model bytes"
    assert folder.hashes() == {"checkpoints/step_5.zip": hashlib.sha256(saved).hexdigest()}


def test_a_save_that_an_interrupt_asked_for_drops_a_second_ctrl_c(tmp_path):
    from razz_env.train.runfolder import interrupts_deferred

    folder = RunFolder(tmp_path)
    with interrupts_deferred(deliver=False):
        folder.save_model(InterruptedWhileSaving(b"whole model bytes"), "checkpoints/step_5.zip")
    assert (tmp_path / "checkpoints" / "step_5.zip").read_bytes() == b"whole model bytes"


def test_model_spec_names_a_recorded_model_at_the_size_asked_for(tmp_path):
    from razz_env.engine.errors import ConfigError
    from razz_env.train.runfolder import RunFolder

    folder = RunFolder(tmp_path)
    with pytest.raises(ConfigError, match="not a razz train run folder"):
        folder.model_spec()
    (tmp_path / "config.json").write_text(json.dumps({"name": "mw", "variant": "razz", "num_seats": [2, 6],
                                                      "algorithm": "maskable_ppo", "encoding": "flat8"}))
    (tmp_path / "hashes.json").write_text(json.dumps({"final.zip": "0" * 64, "snapshots/s.zip": "1" * 64}))
    spec = folder.model_spec()
    assert spec["num_seats"] == 2 and spec["name"] == "mw:final" and spec["sha256"] == "0" * 64
    assert spec["path"] == str((tmp_path / "final.zip").resolve()) and spec["encoding"] == "flat8"
    assert folder.model_spec("final.zip", num_seats=6, name="six")["num_seats"] == 6
    with pytest.raises(ConfigError, match=r"best\.zip: not recorded in .*; its models: final\.zip$"):
        folder.model_spec("best.zip")
