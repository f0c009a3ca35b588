"""One stage of a sampled CFR chain, in its folder: resumable, going on from the stage before.

A chain solves one table over one abstraction with one seed (:class:`~razz_env.solve.sampled_cfr.SampledCFR`), each
stage to a number of iterations in all, going on from the end of the stage before; so a long solve is made, kept
and reproduced in pieces of about half an hour. ``studies/razz_mccfr.py`` (the razz flagship's ``mccfr`` arm) and a
zoo recipe's ``mccfr`` stages (:mod:`razz_env.recipes`) both run their stages here. A stage's folder holds
``checkpoint.npz`` (rewritten every ``every`` iterations; a rerun goes on from it, and the chain repeats an
uninterrupted one byte for byte), ``state.json`` (its iterations, information sets, CPU minutes, its own and the
chain's) and, once finished, ``policy.npz`` (the average strategy, a
:class:`~razz_env.solve.sampled_policy.SampledPolicy`).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from razz_env.engine.errors import ConfigError
from razz_env.train.budgeted import read_state, write_json

CHECKPOINT = "checkpoint.npz"
POLICY = "policy.npz"
SETTINGS = ("table", "abstraction", "seed", "model")
"""What a chain's stages share (in each ``state.json``, and checked against each checkpoint; ``model`` only in a
chain that exploits one)."""


@dataclass(frozen=True)
class SampledStage:
    """Solve ``table`` (``HandConfig.create``'s settings) over ``abstraction`` with ``seed`` in ``folder`` until
    ``until`` iterations in all, going on from the finished stage in ``start_from`` (else from nothing).

    ``record`` adds its fields to ``state.json`` (a study's stage number). ``model``: the settings of the
    :class:`~razz_env.train.opponent_model.ModelSpec` the chain exploits (built once, by its first stage, and
    carried in the checkpoints); None for a plain self-play chain."""

    folder: Path
    table: dict[str, Any]
    abstraction: str
    seed: int
    until: int
    start_from: Path | None = None
    every: int = 500_000
    max_infosets: int = 16_000_000
    record: dict[str, Any] = field(default_factory=dict)
    model: dict[str, Any] | None = None

    @property
    def settings(self) -> dict[str, Any]:
        """The chain's settings as ``state.json`` keeps them."""
        model = {"model": self.model} if self.model is not None else {}
        return {"table": dict(self.table), "abstraction": self.abstraction, "seed": self.seed, **model}

    def modelled(self, solver: Any) -> dict[str, Any]:
        """What ``state.json`` says of the model: its settings and the adversary's information sets (nothing for a
        plain chain)."""
        if self.model is None:
            return {}
        return {"model": self.model, "adversary_infosets": solver.adversary_infosets}

    def state(self) -> dict[str, Any] | None:
        """The stage's ``state.json`` (None before its first checkpoint); ``ConfigError`` for a folder holding
        another chain's stage."""
        state = read_state(Path(self.folder))
        if state is not None:
            self.check(state, Path(self.folder))
        return state

    def check(self, state: dict[str, Any], folder: Path) -> None:
        """``ConfigError`` unless ``state`` (of the stage in ``folder``) is of this chain."""
        other = [key for key in SETTINGS if (key in state or key == "model")
                 and state.get(key) != self.settings.get(key)]
        if other:
            raise ConfigError(f"{folder}: holds a stage of another chain ({other[0]} {state.get(other[0])!r}, not "
                              f"{self.settings.get(other[0])!r}); choose another folder or delete it")

    def done(self) -> bool:
        """Whether the stage is finished (its policy written)."""
        state = self.state()
        return state is not None and bool(state.get("done"))

    def start(self, notify: Callable[[str], None] = print) -> tuple[Any, float]:
        """The solver the stage goes on from (its own checkpoint, the stage before's end, or fresh: then with its
        opponent model built) and the chain's training CPU seconds before it (a fresh chain's: the model's)."""
        from razz_env.engine.config import HandConfig
        from razz_env.solve.sampled_cfr import SampledCFR

        folder = Path(self.folder)
        checkpoint = folder / CHECKPOINT
        state = self.state()
        if not checkpoint.exists():
            if self.start_from is None:
                config = HandConfig.create(**self.table)
                model, watching = None, 0.0
                if self.model is not None:  # its CPU time is the chain's: a recipe's minutes count it
                    from razz_env.train.opponent_model import ModelSpec, build_model

                    spec = ModelSpec.create(self.model)
                    watched = ", ".join(spec.agents) if len(spec.agents) == 1 else f"each of {', '.join(spec.agents)}"
                    notify(f"{folder}: building the opponent model ({spec.hands:,} hands of {watched})")
                    began = time.process_time()
                    model = build_model(spec, config, self.abstraction)
                    watching = time.process_time() - began
                solver = SampledCFR(config, abstraction=self.abstraction, seed=self.seed,
                                    max_infosets=self.max_infosets, model=model)
                return solver, watching
            earlier = read_state(Path(self.start_from))
            if earlier is None or not earlier.get("done"):
                raise ConfigError(f"{folder}: goes on from {self.start_from}, which is not finished; run it first")
            self.check(earlier, Path(self.start_from))
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(self.start_from) / CHECKPOINT, checkpoint)
            state = {**self.settings, "from_iterations": earlier["iterations"],
                     "from_chain_cpu_seconds": earlier["chain_cpu_seconds"],
                     "chain_cpu_seconds": earlier["chain_cpu_seconds"], "done": False}
            write_json(folder / "state.json", state)
        solver = SampledCFR.load(checkpoint, self.max_infosets)
        if (solver.config, solver.abstraction, solver.seed, solver.model is None) != (
                HandConfig.create(**self.table), self.abstraction, self.seed, self.model is None):
            raise ConfigError(f"{checkpoint}: a checkpoint of another chain ({solver.abstraction}, seed "
                              f"{solver.seed}); this stage solves {self.settings}")
        if solver.iterations > self.until:
            raise ConfigError(f"{checkpoint}: at {solver.iterations:,} iterations, past the stage's end "
                              f"({self.until:,})")
        return solver, (state or {}).get("chain_cpu_seconds", 0.0)

    def run(self, notify: Callable[[str], None] = print) -> dict[str, Any]:
        """Train the stage to its end (a finished one is left as it is), checkpointing as it goes; its state."""
        folder = Path(self.folder)
        state = self.state()
        if state is not None and state.get("done"):
            notify(f"{folder}: finished ({state['iterations']:,} iterations)")
            return state
        solver, chain_before = self.start(notify)
        folder.mkdir(parents=True, exist_ok=True)
        state = self.state() or {}
        earlier = (read_state(Path(self.start_from)) if self.start_from is not None else None) or {}
        first = state.get("from_iterations", earlier.get("iterations", 0))  # the stage before: where this began
        before = state.get("from_chain_cpu_seconds", earlier.get("chain_cpu_seconds", 0.0))
        notify(f"{folder}: from iteration {solver.iterations:,} to {self.until:,}")
        while True:  # once at least: a run stopped between its last checkpoint and its policy writes the policy
            began = time.process_time()
            solver.run(min(self.every - solver.iterations % self.every, self.until - solver.iterations))
            chain = chain_before + time.process_time() - began
            solver.save(folder / CHECKPOINT)
            done = solver.iterations >= self.until
            if done:
                solver.average_policy().save(folder / POLICY)
            state = {"seed": self.seed, **self.record, "iterations": solver.iterations,
                     "stage_iterations": solver.iterations - first, "infosets": solver.num_infosets,
                     "abstraction": self.abstraction, "table": dict(self.table), **self.modelled(solver),
                     "chain_cpu_seconds": round(chain, 1),
                     "stage_cpu_minutes": round((chain - before) / 60, 2), "done": done, "from_iterations": first,
                     "from_chain_cpu_seconds": before}
            write_json(folder / "state.json", state)
            chain_before = chain
            notify(f"{folder}: {(chain - before) / 60:7.2f} CPU min  {solver.iterations:>12,} iterations  "
                   f"{solver.num_infosets:>11,} information sets")
            if done:
                return state
