"""Imitation warm start: a policy network trained to choose what a teacher agent chooses (behaviour cloning).

From random weights, PPO on stud ended folding or calling every hand, and its later phases closed the gap to
Monte Carlo by a few bb/100 per million steps; the heads-up razz agent only got past Monte Carlo from a model
that already played. :func:`collect` lets a teacher (any agent, e.g. ``monte_carlo``) play against weighted
opponents and records, at each of its decisions, its seat's encoded observation, the action mask, the id it
chose and the chips its seat ended the hand with (in big bets, the training reward). :func:`clone` fits a
MaskablePPO policy to them: cross-entropy of the masked policy against the teacher's ids, and the value head to
the hand's result. The cloned model then starts an RL run (``init_model``).

Only what the teacher's seat may see enters the recorded vectors (the same encoder the environment uses), and
the teacher sees only its own observation.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from razz_env.encoding.actions import NUM_ACTIONS, to_engine
from razz_env.encoding.interface import Observer, act_batch, seating_problem
from razz_env.engine.checks import check_fields, limited
from razz_env.engine.dealing import shuffled_deck
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from razz_env.encoding.encoders import TableEncoder
    from razz_env.encoding.interface import Agent
    from razz_env.engine.config import HandConfig
    from razz_env.train.config import TrainConfig


@dataclass(frozen=True)
class Demonstrations:
    """One row per teacher decision: ``vectors`` (float32), ``masks`` (int8), ``actions`` (its ids), ``returns``
    (its seat's chips at the hand's end / big bet) and ``hands`` (the hand's index, for splitting by hand)."""

    vectors: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    hands: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)

    def split(self, holdout: float) -> tuple[Demonstrations, Demonstrations]:
        """(fit, held out): the last ``holdout`` share of the hands held out whole (no hand in both)."""
        first_held = int(round(self.hands.max(initial=-1) * (1.0 - holdout))) + 1
        fit = self.hands < first_held
        return self._rows(fit), self._rows(~fit)

    def _rows(self, rows: np.ndarray) -> Demonstrations:
        return Demonstrations(*(getattr(self, item.name)[rows] for item in fields(self)))


def collect(teacher: Agent, opponents: Sequence[Agent], weights: Sequence[float], config: HandConfig,
            encoder: TableEncoder, hands: int, seed: int) -> Demonstrations:
    """The teacher's decisions over ``hands`` hands at ``config``'s table, the teacher's seat rotating with the
    hand's index and each other seat's opponent drawn by ``weights`` for the hand (heads-up: one draw a hand, as the
    mixed tables of a multi-way run draw each seat's). An opponent drawn for several seats of a hand plays them all,
    as it does at the batched trainer's tables: stateless agents only.

    Decks, opponent draws and seats follow ``seed`` alone; the agents' own randomness is theirs.
    """
    if hands < 1:
        raise ValueError(f"hands: expected a positive number of hands, got {hands}")
    if len(opponents) != len(weights) or not opponents:
        raise ValueError(f"weights: expected one weight per opponent ({len(opponents)}), got {len(weights)}")
    rng = random.Random(seed)
    seats = config.num_seats
    teacher_observer = Observer(teacher, config)
    observers = [Observer(opponent, config) for opponent in opponents]
    vectors: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    hand_of: list[int] = []
    returns = np.zeros(hands, dtype=np.float32)
    for index in range(hands):
        seat = index % seats
        drawn = rng.choices(range(len(opponents)), weights=weights, k=seats - 1)
        drawn.insert(seat, -1)  # drawn[s]: the opponent at seat s (the teacher's: -1)
        hand = HandState(config, deck=shuffled_deck(rng, cards=config.variant.deck))
        for s in range(seats):
            (teacher if s == seat else opponents[drawn[s]]).reset(s, seats, config.variant.name)
        while not hand.is_over:
            actor = hand.actor
            if actor == seat:
                observation = teacher_observer(hand, actor)
                action = int(act_batch(teacher, [observation])[0])
                vectors.append(encoder.encode(hand, actor))
                masks.append(observation.action_mask)
                actions.append(action)
                hand_of.append(index)
            else:
                action = int(act_batch(opponents[drawn[actor]], [observers[drawn[actor]](hand, actor)])[0])
            hand.act(to_engine(action, hand.legal_actions()))
        returns[index] = hand.payoffs[seat] / config.big_bet
    hand_index = np.asarray(hand_of, dtype=np.int64)
    # the encoder writes float32 and the masks are int8 already: stacking is the only copy
    return Demonstrations(np.stack(vectors), np.stack(masks), np.asarray(actions, dtype=np.int64),
                          returns[hand_index], hand_index)


class Fitted(Protocol):
    """What :func:`fit` trains: a masked policy with a value head, whatever its library."""

    def parameters(self) -> Iterator[Any]:
        """The weights the fit moves (torch parameters)."""

    def evaluate(self, vectors: Any, actions: Any, masks: Any) -> tuple[Any, Any]:
        """The value estimates and the log-probabilities of ``actions`` under the masked policy (torch tensors)."""

    def greedy(self, vectors: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The masked policy's most likely ids."""

    def train_mode(self, training: bool) -> None:
        """Switch the networks between fitting and playing."""


class MaskablePolicy:
    """A MaskablePPO model as :class:`Fitted` (its policy's own optimizer is never used)."""

    def __init__(self, model: Any) -> None:
        self.model = model

    def parameters(self) -> Iterator[Any]:
        return self.model.policy.parameters()

    def evaluate(self, vectors: Any, actions: Any, masks: Any) -> tuple[Any, Any]:
        values, log_prob, _ = self.model.policy.evaluate_actions(vectors, actions, action_masks=masks.numpy())
        return values.flatten(), log_prob

    def greedy(self, vectors: np.ndarray, masks: np.ndarray) -> np.ndarray:
        from razz_env.agents.sb3_agent import masked_actions

        return np.asarray(masked_actions(self.model, vectors, masks, deterministic=True))

    def train_mode(self, training: bool) -> None:
        self.model.policy.set_training_mode(training)


def agreement(fitted: Fitted, demonstrations: Demonstrations) -> float:
    """Share of decisions where the policy's greedy masked choice is the teacher's."""
    chosen = fitted.greedy(demonstrations.vectors, demonstrations.masks.astype(bool))
    return float(np.mean(chosen == demonstrations.actions))


def clone(model: Any, demonstrations: Demonstrations, epochs: int, batch_size: int = 1024,
          learning_rate: float = 3e-4, value_coef: float = 0.5, holdout: float = 0.1,
          seed: int = 0) -> list[dict[str, float]]:
    """Fit ``model``'s (MaskablePPO) policy to the teacher's ids and its value head to the hands' results, in place
    (:func:`fit`); the model's own optimizer is left as it was."""
    return fit(MaskablePolicy(model), demonstrations, epochs, batch_size, learning_rate, value_coef, holdout, seed)


def fit(fitted: Fitted, demonstrations: Demonstrations, epochs: int, batch_size: int = 1024,
        learning_rate: float = 3e-4, value_coef: float = 0.5, holdout: float = 0.1,
        seed: int = 0) -> list[dict[str, float]]:
    """Fit a policy to the teacher's ids (cross-entropy of the masked policy) and its value head to the hands'
    results (squared error), in place, with an Adam of its own.

    ``holdout`` of the hands is kept out of the fit; each epoch's row gives the fit's mean losses and the greedy
    agreement with the teacher on the held-out decisions.
    """
    import torch

    if epochs < 1 or batch_size < 1:
        raise ValueError(f"epochs and batch_size: expected positive integers, got {epochs} and {batch_size}")
    fit_part, held = demonstrations.split(holdout)
    if not len(fit_part) or not len(held):
        raise ValueError(f"{len(demonstrations)} decisions split into {len(fit_part)} to fit and {len(held)} held "
                         f"out; collect more hands")
    optimizer = torch.optim.Adam(fitted.parameters(), lr=learning_rate)
    generator = np.random.default_rng(seed)
    vectors, masks = torch.as_tensor(fit_part.vectors), torch.as_tensor(fit_part.masks.astype(bool))
    actions, returns = torch.as_tensor(fit_part.actions), torch.as_tensor(fit_part.returns)
    rows = []
    for epoch in range(1, epochs + 1):
        fitted.train_mode(True)
        order = torch.as_tensor(generator.permutation(len(fit_part)))
        totals = np.zeros(2)
        for start in range(0, len(fit_part), batch_size):
            batch = order[start:start + batch_size]
            values, log_prob = fitted.evaluate(vectors[batch], actions[batch], masks[batch])
            policy_loss = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(values, returns[batch])
            optimizer.zero_grad()
            (policy_loss + value_coef * value_loss).backward()
            optimizer.step()
            totals += len(batch) * np.array([policy_loss.item(), value_loss.item()])
        fitted.train_mode(False)
        rows.append({"epoch": epoch, "policy_loss": round(totals[0] / len(fit_part), 5),
                     "value_loss": round(totals[1] / len(fit_part), 5),
                     "held_out_agreement": round(agreement(fitted, held), 5)})
    return rows


def action_counts(demonstrations: Demonstrations) -> list[int]:
    """How often the teacher chose each action id (fold, check_call, bet_raise, bring_in, bet_big)."""
    return np.bincount(demonstrations.actions, minlength=NUM_ACTIONS).tolist()


IMITATED_ALGORITHMS = ("maskable_ppo",)
IMITATION_MODEL = "model.zip"
IMITATION_RECORD = "imitation.json"


@dataclass(frozen=True)
class ImitationSettings:
    """Who is cloned (a registered agent), how many hands it plays against whom, and how long the fit runs.

    ``opponents`` and ``weights`` left out: the config's pool baselines and weights."""

    teacher: str = "monte_carlo"
    hands: int = limited(60000, minimum=10)
    """hands played (the last tenth held out whole to measure the fit: ten give one)"""
    epochs: int = limited(8, minimum=1)
    batch_size: int = limited(1024, minimum=1)
    learning_rate: float = limited(3e-4, above=0)
    seed: int = 0
    opponents: list[str] | None = None
    weights: list[float] | None = None

    def __post_init__(self) -> None:
        check_fields(self, every_type=True)
        if (self.opponents is None) != (self.weights is None) or len(self.opponents or ()) != len(self.weights or ()):
            raise ConfigError("opponents and weights: give both, one weight per opponent, or neither (the config's "
                              "pool)")
        if self.weights is not None and (any(not weight >= 0 for weight in self.weights) or not sum(self.weights) > 0):
            raise ConfigError(f"weights: expected non-negative weights with a positive sum, got {self.weights}")


    def players(self, specs: Sequence[Any], variant: str, num_seats: int) -> tuple[Agent, list[Agent]]:
        """The teacher and the opponents ``specs`` (the settings' own, or the run's), made with seeds from
        :attr:`seed`; ``ConfigError`` naming a bad one, or one that cannot play ``variant`` at ``num_seats``."""
        from razz_env.agents.registry import make_agent

        try:
            teacher = make_agent(self.teacher, seed=self.seed)
            opponents = [make_agent(spec, seed=self.seed + 1 + index) for index, spec in enumerate(specs)]
        except (LookupError, ValueError, TypeError) as err:
            raise ConfigError(f"teacher or opponents: {' '.join(str(err).split())}") from None
        for agent in (teacher, *opponents):
            problem = seating_problem(agent, variant, num_seats)
            if problem:
                raise ConfigError(f"teacher or opponents: {problem}")
        return teacher, opponents

    def record(self, specs: Sequence[Any], weights: Sequence[float], demonstrations: Demonstrations,
               rows: list[dict[str, float]], collected: float, started: float) -> dict[str, Any]:
        """What an imitation writes down: these settings with the opponents it met, the decisions, the teacher's
        action counts, each epoch's row, and the seconds collecting and in all (since ``started``)."""
        return {**asdict(self), "opponents": list(specs), "weights": list(weights), "decisions": len(demonstrations),
                "teacher_action_counts": action_counts(demonstrations), "epochs_run": rows,
                "collect_seconds": round(collected, 1), "seconds": round(time.perf_counter() - started, 1)}


def warm_start(config: TrainConfig, out: str | Path, settings: ImitationSettings) -> str:
    """Clone ``settings.teacher``'s play into a fresh model of ``config`` (a MaskablePPO ``TrainConfig`` at one
    table size) and write ``model.zip``, ``hashes.json`` and ``imitation.json`` (settings, decisions, each epoch's
    losses, seconds) to the folder ``out``; returns the model's SHA-256. Bad input is a :class:`ConfigError`
    before anything is written."""
    import torch

    from razz_env.encoding import make_encoder
    from razz_env.train.runfolder import RunFolder
    from razz_env.train.trainer import build_model, build_vec_env

    out = Path(out)
    if config.algorithm not in IMITATED_ALGORITHMS or config.mixed_sizes:
        raise ConfigError(f"imitation fits a {' or '.join(IMITATED_ALGORITHMS)} policy at one table size; this config "
                          f"trains {config.algorithm} at {list(config.seat_counts)} seats")
    if (out / IMITATION_MODEL).exists():
        raise ConfigError(f"{out}: already holds a {IMITATION_MODEL}; give a new folder")
    specs = settings.opponents if settings.opponents is not None else list(config.opponents.baselines)
    weights = settings.weights if settings.weights is not None else list(config.opponents.weights)
    teacher, opponents = settings.players(specs, config.variant, config.seat_counts[0])
    torch.set_num_threads(config.torch_threads)
    torch.manual_seed(settings.seed)
    table = config.table().hand_config()
    started = time.perf_counter()
    demonstrations = collect(teacher, opponents, weights, table, make_encoder(config.encoding, table),
                             settings.hands, settings.seed)
    collected = time.perf_counter() - started
    venv = build_vec_env(config)
    model = build_model(config, venv, None)
    venv.close()
    rows = clone(model, demonstrations, settings.epochs, settings.batch_size, settings.learning_rate,
                 seed=settings.seed)
    folder = RunFolder(out)
    sha256 = folder.save_model(model, IMITATION_MODEL)
    folder.write_json(IMITATION_RECORD, {**settings.record(specs, weights, demonstrations, rows, collected, started),
                                         "sha256": sha256})
    return sha256
