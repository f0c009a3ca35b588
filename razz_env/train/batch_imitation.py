"""The imitation warm start of a batched PPO run: its actor and critic fitted to a teacher's play and saved as the
checkpoint a run goes on from (update 0), so that a chain of stages begins from a player, not from random weights.

From random weights the batched learner lost to Monte Carlo by 20-30 bb/100 after an hour of stud/8 or Action Razz,
and SB3's ``ppo_stud`` only got past Monte Carlo from an imitation of it (:mod:`razz_env.train.imitation`). This is
the same start for ``batch_ppo``: the teacher's decisions recorded from its own seat (:func:`imitation.collect`,
``FlatEncoder`` vectors, which the batched engine writes alike) and fitted by :func:`imitation.fit`.

>>> from razz_env.train.batch_ppo import Args
>>> from razz_env.train.imitation import ImitationSettings
>>> imitation_start(Args(device="cuda"), ImitationSettings(hands=10), "never_written.pt")
Traceback (most recent call last):
razz_env.engine.errors.ConfigError: imitation start: fits a run that trains on the CPU; this one trains on cuda
"""

from __future__ import annotations

import copy
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from razz_env.encoding.encoders import FlatEncoder
from razz_env.engine.errors import ConfigError
from razz_env.train.batch_ppo import (
    Agent,
    Progress,
    SnapshotPool,
    check_args,
    opponent_weights,
    save_checkpoint,
    training_table,
)
from razz_env.train.budgeted import CHECKPOINT, STATE, read_state, trainer_args, write_json
from razz_env.train.imitation import collect, fit

if TYPE_CHECKING:
    from collections.abc import Iterator

    from razz_env.train.batch_ppo import Args
    from razz_env.train.imitation import ImitationSettings


class _Networks:
    """``batch_ppo``'s actor and critic as :class:`razz_env.train.imitation.Fitted`."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def parameters(self) -> Iterator[torch.nn.Parameter]:
        return self.agent.parameters()

    def evaluate(self, vectors: torch.Tensor, actions: torch.Tensor,
                 masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        log_probs = torch.log_softmax(self.agent.masked_logits(vectors, masks), dim=-1)
        return self.agent.value(vectors), log_probs.gather(1, actions.unsqueeze(1)).squeeze(1)

    def greedy(self, vectors: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits = self.agent.masked_logits(torch.as_tensor(vectors), torch.as_tensor(masks))
        return logits.argmax(dim=-1).numpy()

    def train_mode(self, training: bool) -> None:
        self.agent.train(training)


def imitation_start(args: Args, settings: ImitationSettings, path: str | Path) -> dict[str, Any]:
    """Fit a fresh network of ``args`` (its table, widths, activation and seed) to ``settings.teacher``'s decisions
    against ``settings.opponents`` (left out: the run's ``opponents`` and weights) and write it to ``path`` as the
    checkpoint of a run with ``args`` at update 0, with a fresh optimizer and an empty pool: ``train(resume=path)``,
    or a stage that goes on from it, trains from there. Returns the record of the fit (settings, decisions, the
    teacher's action counts, each epoch's losses and held-out agreement, seconds). Bad input is a
    :class:`ConfigError` before anything is written."""
    if args.device != "cpu":
        raise ConfigError(f"imitation start: fits a run that trains on the CPU; this one trains on {args.device}")
    check_args(args)
    specs = list(settings.opponents if settings.opponents is not None else args.opponents)
    weights = list(settings.weights if settings.weights is not None else opponent_weights(args))
    teacher, opponents = settings.players(specs, args.variant, args.num_seats)
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    config = training_table(args).hand_config()
    encoder = FlatEncoder(config)
    began, cpu = time.perf_counter(), time.process_time()
    demonstrations = collect(teacher, opponents, weights, config, encoder, settings.hands, settings.seed)
    collected = time.perf_counter() - began
    agent = Agent(encoder.size, args.hidden, args.activation)
    rows = fit(_Networks(agent), demonstrations, settings.epochs, settings.batch_size, settings.learning_rate,
               seed=settings.seed)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    magnet = copy.deepcopy(agent.actor).requires_grad_(False) if args.magnet != "uniform" else None
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    save_checkpoint(Path(path), Progress(0, 0, agent, optimizer, SnapshotPool(args.max_snapshots), magnet, {}), args)
    return {**settings.record(specs, weights, demonstrations, rows, collected, began),
            "cpu_seconds": round(time.process_time() - cpu, 1)}


IMITATION_RECORD = "imitation.json"


def imitation_stage(folder: str | Path, settings: dict[str, Any], imitation: ImitationSettings) -> Path:
    """A chain's stage 0 in ``folder``: the imitation start of a run with ``settings`` (``batch_ppo.Args`` fields,
    as a :class:`~razz_env.train.budgeted.BudgetedRun` takes them), made unless the folder holds it already, with the
    budgeted run's ``state.json`` (its CPU and wall seconds the chain's first) and the fit's record
    (``imitation.json``), so that stage 1 goes on from it (``start_from=folder``)."""
    folder = Path(folder)
    if read_state(folder, settings) is not None:
        return folder
    began, cpu = time.perf_counter(), time.process_time()
    record = imitation_start(trainer_args(settings, folder), imitation, folder / CHECKPOINT)
    write_json(folder / IMITATION_RECORD, record)
    clock = [time.process_time() - cpu, time.perf_counter() - began]
    write_json(folder / STATE, {"settings": settings, "clock": clock, "next_measure": 0.0, "update": 0, "steps": 0})
    return folder
