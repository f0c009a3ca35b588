"""A batched-trainer run on a budget of CPU minutes, evaluated as it goes, checkpointed, and resumed by running it
again: what a study's long run in the background needs.

:class:`BudgetedRun` trains :func:`razz_env.train.batch_ppo.train` in a run folder until ``minutes`` of this
process's CPU time (``time.process_time``, the evaluations not counted: two runs sharing two cores are timed
fairly) or ``max_steps`` steps. Every ``every`` CPU seconds, and at the end, it pauses the clock and calls the
:class:`Evaluator`, appends its figures to ``curve.csv`` (after ``cpu_minutes``, ``wall_minutes`` and ``steps``),
and saves a checkpoint (the trainer's, the evaluator's own state, and ``state.json``: the settings, the clocks,
the update). Running it again with the same settings goes on from the last checkpoint (the engine then deals new
hands, so a resumed run is the same run, not the same cards); with other settings it is refused. Ctrl-C (SIGINT)
ends the update under way, checkpoints there and raises :class:`RunInterrupted` (a second Ctrl-C stops at once,
keeping the last checkpoint); a checkpoint's files are never left half-written. A run stopped by
``max_steps`` and never resumed repeats decision by decision; one stopped by CPU time stops where the machine's
speed put it. ``start_from`` chains runs in stages: a new folder starts from another's last checkpoint (the same
settings, the step count, the clocks and the schedules going on), so a long run can be trained an hour at a time
with each stage's product kept, and a chain of stages that each ran uninterrupted repeats decision by decision.
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Any, Protocol

from razz_env.engine.errors import ConfigError, labelled
from razz_env.train.runfolder import interrupt_flag, interrupts_deferred

STATE, CURVE, CHECKPOINT, FINAL = "state.json", "curve.csv", "checkpoint.pt", "final.pt"


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a budgeted run; its message says where it was saved and how to go on (a KeyboardInterrupt,
    so code that stops on Ctrl-C stops on it too)."""


class Evaluator(Protocol):
    """What a budgeted run measures: ``evaluate`` (its figures, in a fixed order of names) at each checkpoint,
    ``save``/``load`` for its own state in the run folder, ``finish`` once the budget is spent."""

    def evaluate(self, progress: Any) -> dict[str, float]: ...

    def save(self, folder: Path) -> None: ...

    def load(self, folder: Path) -> None: ...

    def finish(self, progress: Any, folder: Path) -> None: ...


class Checkpoints:
    """The evaluator of a run that only trains: it measures nothing, so the run checkpoints every ``every`` CPU
    seconds and saves ``final.pt`` at the end."""

    def evaluate(self, progress: Any) -> dict[str, float]:
        """No figures."""
        return {}

    def save(self, folder: Path) -> None:
        """Nothing of its own to keep."""

    def load(self, folder: Path) -> None:
        """Nothing of its own to read back."""

    def finish(self, progress: Any, folder: Path) -> None:
        """``final.pt`` is the result."""


class Clock:
    """Training CPU seconds and wall seconds, carried across resumes, paused while evaluating."""

    def __init__(self, cpu: float = 0.0, wall: float = 0.0) -> None:
        self.cpu, self.wall = cpu, wall
        self.resume()

    def resume(self) -> None:
        """Start counting."""
        self._cpu, self._wall = time.process_time(), time.perf_counter()

    def pause(self) -> None:
        """Stop counting, adding what passed since :meth:`resume`."""
        self.cpu += time.process_time() - self._cpu
        self.wall += time.perf_counter() - self._wall


def append_row(path: Path, row: dict[str, Any]) -> None:
    """Append ``row`` to the CSV at ``path``, writing its header first when the file is new."""
    new = not path.exists()
    with open(path, "a", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)


def write_json(path: Path, data: dict[str, Any]) -> None:
    """``data`` to ``path`` atomically (written whole, then renamed)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    partial.replace(path)


def read_state(folder: Path, settings: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """A run folder's ``state.json``, or None before its first checkpoint; with ``settings``, refusing a folder
    that holds a run with other settings (so that no run is taken for another, finished or not)."""
    path = folder / STATE
    state = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    if state is not None and settings is not None and state["settings"] != json.loads(json.dumps(settings)):
        raise ConfigError(f"{folder}: holds a run with other settings; choose another folder or delete it")
    return state


def budget_spent(folder: Path, minutes: float, max_steps: int = 0, settings: dict[str, Any] | None = None) -> bool:
    """Whether the run in ``folder`` has trained ``minutes`` CPU minutes or ``max_steps`` steps (0: no step limit);
    with ``settings``, refusing a folder that holds a run with other settings."""
    state = read_state(folder, settings)
    return state is not None and (state["clock"][0] >= minutes * 60 or 0 < max_steps <= state.get("steps", 0))


def trainer_args(settings: dict[str, Any], folder: Path) -> Any:
    """The trainer's ``Args`` of a run's ``settings`` (as JSON keeps them: lists for tuples), writing in
    ``folder/trainer``."""
    from razz_env.train.batch_ppo import Args

    return Args(**{**settings, "hidden": tuple(settings.get("hidden", Args.hidden)),
                   "opponents": tuple(settings.get("opponents", Args.opponents)),
                   "output": str(folder / "trainer"), "force": True})


class BudgetedRun:
    """Train with ``settings`` (``batch_ppo.Args`` fields) in ``folder`` for ``minutes`` CPU minutes (or until
    ``max_steps`` steps), evaluating every ``every`` CPU seconds.

    >>> BudgetedRun("runs/x", {"variant": "minirazz"}, minutes=0, every=60, evaluator=None).run()
    Traceback (most recent call last):
    razz_env.engine.errors.ConfigError: minutes and every: expected positive numbers, got 0 and 60
    """

    def __init__(self, folder: str | Path, settings: dict[str, Any], *, minutes: float, every: float,
                 evaluator: Evaluator, max_steps: int = 0, label: str | None = None,
                 start_from: str | Path | None = None) -> None:
        self.folder = Path(folder)
        self.start_from = Path(start_from) if start_from is not None else None
        self.settings = json.loads(json.dumps(settings))
        self.minutes, self.every, self.max_steps = minutes, every, max_steps
        self.evaluator = evaluator
        self.label = label or str(self.folder)

    def done(self) -> bool:
        """Whether the folder's run has spent this budget already."""
        return budget_spent(self.folder, self.minutes, self.max_steps, self.settings)

    def run(self) -> None:
        """Train, evaluate and checkpoint until the budget is spent (going on from a checkpoint when there is one)."""
        from razz_env.train.batch_ppo import train

        if not (self.minutes > 0 and self.every > 0):
            raise ConfigError(f"minutes and every: expected positive numbers, got {self.minutes} and {self.every}")
        state = read_state(self.folder, self.settings)
        if state is None and self.start_from is not None:
            state = self._started_from(self.start_from)
        self.folder.mkdir(parents=True, exist_ok=True)
        trainer = trainer_args(self.settings, self.folder)
        if state is not None:
            self.evaluator.load(self.folder)
        clock = Clock(*(state["clock"] if state else (0.0, 0.0)))
        next_at = state["next_measure"] if state else 0.0
        budget = self.minutes * 60

        def hook(progress: Any) -> bool:
            nonlocal next_at
            clock.pause()
            finished = clock.cpu >= budget or 0 < self.max_steps <= progress.steps
            if pressed and not finished:
                self._save(progress, trainer, clock, next_at)
                return True
            if clock.cpu >= next_at or finished:
                figures = self.evaluator.evaluate(progress)
                append_row(self.folder / CURVE, {"cpu_minutes": round(clock.cpu / 60, 4),
                                                 "wall_minutes": round(clock.wall / 60, 4), "steps": progress.steps,
                                                 **figures})
                shown = "  ".join(f"{name} {value:.2f}" if isinstance(value, float) else f"{name} {value}"
                                  for name, value in figures.items())
                print(f"{self.label}: {clock.cpu / 60:7.2f} CPU min  {progress.steps:>12,} steps  {shown}", flush=True)
                next_at = clock.cpu + self.every
                self._save(progress, trainer, clock, next_at)
                if finished:
                    from razz_env.train.batch_ppo import save_policy

                    with interrupts_deferred():
                        save_policy(self.folder / FINAL, progress.agent, trainer, progress.steps)
                        self.evaluator.finish(progress, self.folder)
            clock.resume()
            return finished

        with interrupt_flag() as pressed:
            train(trainer, hook=hook, resume=self.folder / CHECKPOINT if state is not None else None)
        if pressed and not self.done():
            state = read_state(self.folder) or {}
            raise RunInterrupted(f"interrupted: {self.label} saved at step {state.get('steps', 0):,} "
                                 f"({state.get('clock', [0.0])[0] / 60:.2f} CPU min); run the same command to go on")

    def _save(self, progress: Any, trainer: Any, clock: Clock, next_at: float) -> None:
        """The checkpoint, the evaluator's state and ``state.json``, all written before a Ctrl-C is delivered."""
        from razz_env.train.batch_ppo import save_checkpoint

        with interrupts_deferred():
            save_checkpoint(self.folder / CHECKPOINT, progress, trainer)
            self.evaluator.save(self.folder)
            write_json(self.folder / STATE, {"settings": self.settings, "clock": [clock.cpu, clock.wall],
                                             "next_measure": next_at, "update": progress.update,
                                             "steps": progress.steps})

    def _started_from(self, earlier: Path) -> dict[str, Any]:
        """Copy ``earlier``'s last checkpoint and state into this run's folder (the evaluator's files too): the
        run goes on from there, with its own settings (which may differ in ``batch_ppo.ADJUSTABLE`` ones: a later
        stage may change its opponents or its regularisation)."""
        from razz_env.train.batch_ppo import carry_over

        state = read_state(earlier)
        if state is None or not (earlier / CHECKPOINT).is_file():
            raise ConfigError(f"start from {earlier}: no checkpoint there; run that stage first")
        with labelled(f"start from {earlier}"):
            carry_over(earlier / CHECKPOINT, self.folder / CHECKPOINT, trainer_args(self.settings, self.folder))
        self.evaluator.load(earlier)
        self.evaluator.save(self.folder)
        state = {**state, "settings": self.settings}
        write_json(self.folder / STATE, state)
        return state
