"""Training configuration (YAML): algorithm, table, opponent pool, evaluation and checkpoints."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from razz_env.engine.errors import ConfigError
from razz_env.settings import checked_fields, read_yaml, require_positive_ints, with_overrides

MASKING_ALGORITHMS = ("maskable_ppo",)


@dataclass(frozen=True)
class OpponentPoolConfig:
    """Who the learner plays: fixed baselines by weight, plus snapshots of itself (self-play).

    Each hand draws a snapshot with probability ``self_play_share`` (ramped linearly from
    ``self_play_start`` to ``self_play_end`` over training, once a snapshot exists), else a
    baseline in proportion to ``weights``. A snapshot is taken every ``snapshot_every`` steps;
    the newest ``max_snapshots`` are kept.
    """

    baselines: tuple[Any, ...] = ("random", "calling_station", "razz_heuristic")
    weights: tuple[float, ...] = (1.0, 1.0, 2.0)
    self_play_start: float = 0.0
    self_play_end: float = 0.3
    snapshot_every: int = 100_000
    max_snapshots: int = 5

    def __post_init__(self) -> None:
        if len(self.baselines) != len(self.weights):
            raise ConfigError(f"opponents.weights: expected {len(self.baselines)} weights (one per baseline), "
                              f"got {len(self.weights)}")
        for name in ("self_play_start", "self_play_end"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ConfigError(f"opponents.{name}: expected a share from 0 to 1, got {value}")
        object.__setattr__(self, "baselines", tuple(self.baselines))
        object.__setattr__(self, "weights", tuple(float(w) for w in self.weights))

    def share_at(self, progress: float) -> float:
        """Self-play share at ``progress`` (0 to 1 of the training steps)."""
        return self.self_play_start + (self.self_play_end - self.self_play_start) * min(max(progress, 0.0), 1.0)


@dataclass(frozen=True)
class TrainConfig:
    """One training run; ``razz train --config FILE`` reads it from YAML."""

    name: str = "ppo_razz"
    algorithm: str = "maskable_ppo"
    variant: str = "razz"
    num_players: int = 2
    starting_stacks: int = 1000
    ante: int = 1
    bring_in: int = 2
    small_bet: int = 5
    big_bet: int = 10
    encoding: str = "flat"
    total_timesteps: int = 1_000_000
    n_envs: int = 8
    vec_env: str = "dummy"
    seed: int = 0
    net_arch: tuple[int, ...] = (256, 256)
    policy_kwargs: dict[str, Any] = field(default_factory=dict)
    algo_kwargs: dict[str, Any] = field(default_factory=dict)
    opponents: OpponentPoolConfig = field(default_factory=OpponentPoolConfig)
    eval_every: int = 100_000
    eval_deals: int = 500
    eval_opponents: tuple[Any, ...] = ("random", "calling_station", "razz_heuristic")
    checkpoint_every: int = 100_000
    output: str = "runs/ppo_razz"
    torch_threads: int = 1
    max_minutes: float | None = None

    def __post_init__(self) -> None:
        from agents.sb3_agent import ALGORITHMS

        if self.algorithm not in ALGORITHMS:
            raise ConfigError(f"algorithm: unknown {self.algorithm!r}; known: {', '.join(ALGORITHMS)}")
        if self.vec_env not in ("dummy", "subproc"):
            raise ConfigError(f"vec_env: expected 'dummy' or 'subproc', got {self.vec_env!r}")
        require_positive_ints(self, ("total_timesteps", "n_envs", "eval_every", "eval_deals", "checkpoint_every",
                                     "torch_threads"))
        if isinstance(self.opponents, dict):
            object.__setattr__(self, "opponents", OpponentPoolConfig(**self.opponents))
        object.__setattr__(self, "net_arch", tuple(self.net_arch))
        object.__setattr__(self, "eval_opponents", tuple(self.eval_opponents))

    @property
    def masks_natively(self) -> bool:
        """The algorithm takes action masks itself (else illegal choices play check/fold)."""
        return self.algorithm in MASKING_ALGORITHMS

    def table_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :class:`razz_env.SingleAgentEnv` for this table."""
        return {"variant": self.variant, "num_players": self.num_players, "starting_stacks": self.starting_stacks,
                "ante": self.ante, "bring_in": self.bring_in, "small_bet": self.small_bet,
                "big_bet": self.big_bet, "encoding": self.encoding}

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for the run folder's ``config.json``)."""
        data = asdict(self)
        data["net_arch"] = list(self.net_arch)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], **overrides: Any) -> TrainConfig:
        """Build from a YAML mapping; unknown keys are an error naming them."""
        merged = with_overrides(checked_fields(cls, data, "train config"), overrides)
        if isinstance(merged.get("opponents"), Mapping):
            merged["opponents"] = OpponentPoolConfig(**checked_fields(OpponentPoolConfig, merged["opponents"],
                                                                      "opponents"))
        return cls(**merged)

    @classmethod
    def from_yaml(cls, path: str | Path, **overrides: Any) -> TrainConfig:
        """Load ``path`` (YAML); ``name`` and ``output`` default from the file name."""
        return cls.from_dict(read_yaml(path, "runs"), **overrides)
