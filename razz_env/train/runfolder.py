"""The run folder of ``razz train``: its files, atomic writes, recorded hashes, and cutting a run back to a step.

Every model file the trainer writes (checkpoints, self-play snapshots, ``final.zip``) is
written to a temporary file and renamed into place, so a kill leaves either the old file
or the new one, never half of one; its SHA-256 then goes to ``hashes.json`` (also
written atomically), and a model is only ever loaded from bytes that match it (SB3
archives can carry pickled code). ``clock.json`` keeps the wall-clock and training
minutes at each checkpoint, so a resumed run continues both time axes.

Resuming from step ``S`` cuts everything logged past ``S`` (``eval.csv`` rows,
TensorBoard events, snapshots), so that each step is logged once.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import shutil
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from razz_env.engine.errors import ConfigError, shown

CONFIG = "config.json"
EVAL = "eval.csv"
HASHES = "hashes.json"
CLOCK = "clock.json"
SUMMARY = "summary.json"
FINAL = "final.zip"
TENSORBOARD = "tb"
CHECKPOINTS = "checkpoints"
SNAPSHOTS = "snapshots"
RUN_ENTRIES = (CONFIG, EVAL, HASHES, CLOCK, SUMMARY, FINAL, TENSORBOARD, CHECKPOINTS, SNAPSHOTS)
EVAL_FIELDS = ("steps", "minutes", "train_minutes", "opponent", "bb_per_100", "ci95_low", "ci95_high", "hands",
               "seats")
# The columns before ``seats`` (the table size of each row) was added; such a run's rows are at its one table size.
LEGACY_EVAL_FIELDS = EVAL_FIELDS[:-1]
STEP_FILE = re.compile(r"step_(\d+)\.zip")


@contextlib.contextmanager
def interrupts_deferred(deliver: bool = True) -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) while the block runs, then deliver it (or drop it: ``deliver=False``, a save that an
    interrupt already asked for): one landing inside ``torch.save`` tears the archive (a RuntimeError, a ValueError
    or an abort), so saves finish first and are interrupted after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if not deliver:
            pass
        elif caught and callable(previous):
            previous(signal.SIGINT, None)
        elif caught and previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)


@contextlib.contextmanager
def interrupt_flag() -> Iterator[list[int]]:
    """While the block runs, a first Ctrl-C is recorded in the yielded list instead of raised (the run checkpoints
    at its next update and stops); a second one raises KeyboardInterrupt at once. Off the main thread, where no
    signal handler can be set, Ctrl-C raises as usual."""
    pressed: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return

    def record(signum: int, frame: object) -> None:
        pressed.append(signum)
        signal.signal(signal.SIGINT, signal.default_int_handler)

    previous = signal.signal(signal.SIGINT, record)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed into place (no half-written file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def model_bytes(model: Any) -> bytes:
    """The SB3 archive of ``model`` as bytes."""
    buffer = io.BytesIO()
    model.save(buffer)
    return buffer.getvalue()


class RunFolder:
    """One run folder (``TrainConfig.output``); paths in messages and ``hashes.json`` are relative to it."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def entries(self) -> list[Path]:
        """The run's own files and folders present (including temporary files left by a kill)."""
        if not self.path.is_dir():
            return []
        ours = set(RUN_ENTRIES) | {f".{name}.tmp" for name in RUN_ENTRIES}
        return sorted(p for p in self.path.iterdir() if p.name in ours)

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold an exclusive lock on the folder while a run writes there; refuse, changing nothing, when another
        process holds it: two runs in one folder mix their checkpoints and ``eval.csv``. The lock file (and the
        folder, when this made it and nothing was written) goes when the run ends."""
        from razz_env.evaluate.results import folder_lock

        with folder_lock(self.path, "another run is training", tidy=True):
            yield

    def holds_run(self) -> bool:
        """Whether an earlier run wrote here (its ``config.json``)."""
        return (self.path / CONFIG).is_file()

    def check_new_run(self, fresh: bool) -> list[Path]:
        """What a new run must delete first (``fresh``); refuses to mix with an earlier run."""
        if self.path.exists() and not self.path.is_dir():
            raise ConfigError(f"{self.path}: exists and is not a folder; choose another --output")
        entries = self.entries()
        if not entries:
            return []
        listed = ", ".join(p.name for p in entries)
        if not fresh:
            raise ConfigError(f"{self.path}: holds an earlier run ({listed}); pass --resume to continue it, "
                              f"--fresh to delete it, or choose another --output")
        if not self.holds_run():
            raise ConfigError(f"{self.path}: has {listed} but no {CONFIG} written by razz train; not deleting "
                              f"anything there with --fresh; choose another --output")
        return entries

    @staticmethod
    def describe(paths: list[Path]) -> str:
        """``paths`` for a message: files by name, folders with their file count."""
        return ", ".join(f"{p}/ ({sum(1 for f in p.rglob('*') if f.is_file())} files)" if p.is_dir() else str(p)
                         for p in paths)

    @staticmethod
    def delete(paths: list[Path]) -> None:
        """Remove run entries (files or folders)."""
        for path in paths:
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()

    def write_json(self, name: str, data: Any) -> None:
        """Write a JSON file of the run atomically."""
        write_atomic(self.path / name, (json.dumps(data, indent=2) + "\n").encode("utf-8"))

    def read_json(self, name: str, default: Any) -> Any:
        """A JSON file of the run (``default`` when absent); an unreadable one is a :class:`ConfigError`."""
        path = self.path / name
        if not path.exists():
            return default
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ConfigError(f"{path}: unreadable ({' '.join(str(err).split())})") from err

    def hashes(self) -> dict[str, str]:
        """Recorded SHA-256 of each model file, by path relative to the folder."""
        data = self.read_json(HASHES, {})
        if not isinstance(data, dict):
            raise ConfigError(f"{self.path / HASHES}: expected a mapping of file to SHA-256")
        return data

    def model_spec(self, relative: str = FINAL, *, num_seats: int | None = None,
                   name: str | None = None) -> dict[str, Any]:
        """The ``sb3_model`` agent spec of the run's model file ``relative``: its SHA-256 from ``hashes.json``, its
        algorithm, encoding and table from ``config.json`` (at ``num_seats`` seats, default the run's first size;
        ``name`` default ``<run name>:<file stem>``). A file the run never recorded is a :class:`ConfigError`."""
        config = self.read_json(CONFIG, None)
        if not isinstance(config, dict):
            raise ConfigError(f"{self.path}: not a razz train run folder (no {CONFIG})")
        sha256 = self.hashes().get(relative)
        if sha256 is None:
            recorded = [path for path in sorted(self.hashes()) if not path.startswith("snapshots/")]
            raise ConfigError(f"{relative}: not recorded in {self.path / HASHES}; its models: "
                              f"{', '.join(recorded) or 'none'}")
        seats = config["num_seats"]
        return {"type": "sb3_model", "path": str((self.path / relative).resolve()), "sha256": sha256,
                "algorithm": config["algorithm"], "encoding": config["encoding"], "variant": config["variant"],
                "num_seats": num_seats or (seats[0] if isinstance(seats, list) else seats),
                "name": name or f"{config['name']}:{Path(relative).stem}"}

    def save_model(self, model: Any, relative: str) -> str:
        """Write ``model`` atomically to ``relative`` and record its SHA-256 (returned); Ctrl-C waits for both."""
        import hashlib

        with interrupts_deferred():
            data = model_bytes(model)
            write_atomic(self.path / relative, data)
            digest = hashlib.sha256(data).hexdigest()
            self.write_json(HASHES, {**self.hashes(), relative: digest})
        return digest

    def forget(self, relatives: list[str]) -> None:
        """Drop recorded hashes (of files deleted)."""
        hashes = self.hashes()
        if any(r in hashes for r in relatives):
            self.write_json(HASHES, {k: v for k, v in hashes.items() if k not in relatives})

    def verified_bytes(self, relative: str) -> bytes:
        """The bytes of a model file of the run, once they match the recorded SHA-256."""
        from razz_env.agents.sb3_agent import read_verified

        return read_verified(self.path / relative, self.hashes().get(relative))

    def model_steps(self, relative: str) -> int:
        """The steps of a model of the run: a checkpoint's from its name, the final model's from ``summary.json``;
        anything else (a snapshot, another file, an unfinished run's final model) is a :class:`ConfigError`."""
        folder, _, name = relative.rpartition("/")
        match = STEP_FILE.fullmatch(name)
        if folder == CHECKPOINTS and match:
            return int(match.group(1))
        if relative == FINAL:
            summary = self.read_json(SUMMARY, {})
            steps = summary.get("steps") if isinstance(summary, dict) else None
            if isinstance(steps, int):
                return steps
            raise ConfigError(f"{self.path}: no summary.json with the final model's steps (has the run finished?)")
        raise ConfigError(f"{relative}: expected {FINAL} or {CHECKPOINTS}/step_<steps>.zip")

    def numbered(self, kind: str) -> tuple[list[tuple[int, str]], list[str]]:
        """``(steps, relative path)`` of ``kind``'s ``step_N.zip`` files by steps, and the oddly named others."""
        folder = self.path / kind
        good: list[tuple[int, str]] = []
        odd: list[str] = []
        for path in sorted(folder.iterdir()) if folder.is_dir() else []:
            match = STEP_FILE.fullmatch(path.name)
            if match and path.is_file():
                good.append((int(match.group(1)), f"{kind}/{path.name}"))
            elif not (path.name.startswith(".") and path.name.endswith(".tmp")):
                odd.append(f"{kind}/{path.name}")
        return sorted(good), odd

    def record_clock(self, steps: int, minutes: float, train_minutes: float) -> None:
        """Remember the time axes at a checkpoint."""
        with interrupts_deferred():
            clock = self.read_json(CLOCK, {})
            clock[str(steps)] = {"minutes": round(minutes, 4), "train_minutes": round(train_minutes, 4)}
            self.write_json(CLOCK, clock)

    def clock_at(self, steps: int) -> tuple[float, float]:
        """Wall-clock and training minutes at the checkpoint of ``steps`` (else at the last evaluation before)."""
        clock = self.read_json(CLOCK, {})
        if not isinstance(clock, dict):
            raise ConfigError(f"{self.path / CLOCK}: expected a mapping of step to minutes, got {shown(clock)}")
        if str(steps) in clock:
            entry = clock[str(steps)]
            try:
                return float(entry["minutes"]), float(entry["train_minutes"])
            except (TypeError, KeyError, ValueError):
                raise ConfigError(f"{self.path / CLOCK}: step {steps}: expected minutes and train_minutes, "
                                  f"got {shown(entry)}") from None
        rows = [row for row in self.eval_rows() if int(row["steps"]) <= steps]
        return (float(rows[-1]["minutes"]), float(rows[-1]["train_minutes"])) if rows else (0.0, 0.0)

    def eval_rows(self) -> list[dict[str, str]]:
        """The rows of ``eval.csv`` (none when absent); a malformed file is a :class:`ConfigError`.

        A file written before the ``seats`` column existed reads with the run's one table size (``config.json``).
        """
        path = self.path / EVAL
        if not path.exists():
            return []
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            rows = list(reader)
        columns = tuple(reader.fieldnames or ())
        if columns == LEGACY_EVAL_FIELDS:
            config = self.read_json(CONFIG, {})
            seats = config.get("num_seats") if isinstance(config, dict) else None
            rows = [{**row, "seats": str(seats) if isinstance(seats, int) else ""} for row in rows]
        elif columns != EVAL_FIELDS:
            raise ConfigError(f"{path}: expected the columns {', '.join(EVAL_FIELDS)}")
        for line, row in enumerate(rows, start=2):
            if not (row["steps"] or "").isdigit():
                raise ConfigError(f"{path}:{line}: steps: expected a number of steps, got {row['steps']!r}")
        return rows

    def write_eval_rows(self, rows: list[dict[str, Any]]) -> None:
        """Rewrite ``eval.csv`` atomically with ``rows``."""
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=EVAL_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        write_atomic(self.path / EVAL, text.getvalue().encode("utf-8"))

    def append_eval_rows(self, rows: list[dict[str, Any]]) -> None:
        """Add evaluation rows to ``eval.csv``."""
        self.write_eval_rows([*self.eval_rows(), *rows])

    def cut_after(self, steps: int) -> list[str]:
        """Drop what was logged past ``steps`` (eval rows, TensorBoard events, snapshots); returns what went."""
        dropped = []
        rows = self.eval_rows()
        kept = [row for row in rows if int(row["steps"]) <= steps]
        if len(kept) < len(rows) or not (self.path / EVAL).exists():
            self.write_eval_rows(kept)
        if len(kept) < len(rows):
            dropped.append(f"{len(rows) - len(kept)} {EVAL} rows")
        events = drop_events_after(self.path / TENSORBOARD, steps)
        if events:
            dropped.append(f"{events} TensorBoard events")
        snapshots, _ = self.numbered(SNAPSHOTS)
        later = [relative for step, relative in snapshots if step > steps]
        for relative in later:
            (self.path / relative).unlink()
        self.forget(later)
        dropped.extend(later)
        return dropped


def drop_events_after(root: Path, steps: int) -> int:
    """Rewrite the TensorBoard event files under ``root`` without their events past ``steps``; returns how many."""
    if not root.is_dir():
        return 0
    from tensorboard.backend.event_processing.event_file_loader import RawEventFileLoader
    from tensorboard.compat.proto import event_pb2
    from tensorboard.summary.writer.record_writer import RecordWriter

    dropped = 0
    for path in sorted(root.rglob("events.out.tfevents*")):
        records = list(RawEventFileLoader(str(path)).Load())
        kept = [record for record in records if event_pb2.Event.FromString(record).step <= steps]
        if len(kept) == len(records):
            continue
        dropped += len(records) - len(kept)
        buffer = io.BytesIO()
        writer = RecordWriter(buffer)
        for record in kept:
            writer.write(record)
        write_atomic(path, buffer.getvalue())
    return dropped
