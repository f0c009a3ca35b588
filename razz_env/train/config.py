"""Training configuration (YAML): algorithm, table, opponent pool, evaluation and checkpoints.

Everything is checked when a config is built, before any run folder is touched: each
field's type and range, the table, the agents (known, constructible, and able to sit at
the training table) and the SB3 keyword arguments (``algo_kwargs`` against the
algorithm's parameters, ``policy_kwargs`` against its policy's, with their types). A bad
file or value is one :class:`ConfigError` line naming the field and what is allowed.
"""

from __future__ import annotations

import inspect
import json
import math
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

from razz_env.engine.checks import as_int, check_fields, check_type, limited
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.settings import checked_fields, read_settings_file, with_overrides
from razz_env.engine.table import Table, TableOptions

MASKING_ALGORITHMS = ("maskable_ppo",)
VEC_ENVS = ("auto", "dummy", "subproc", "batch")
INIT_MODEL_KEYS = ("path", "sha256")
WIDEN_FROM_KEYS = ("encoding", "num_seats")
SHA256_PATTERN = re.compile(r"[0-9a-f]{64}")
MAX_SEED = 2**32 - 1
# SB3 keywords the trainer sets itself, with what to use instead.
SET_BY_TRAINER = {
    "policy": "the trainer uses MlpPolicy", "env": "the trainer builds the environments",
    "policy_kwargs": "use the policy_kwargs field", "seed": "use the seed field",
    "tensorboard_log": "the run folder's tb/ is used", "device": "training runs on the CPU",
    "verbose": "the trainer sets it", "_init_setup_model": "the trainer sets it",
}
# The ranges SB3 needs of the algo_kwargs it would otherwise fail on mid-run (after the run folder is written):
# (low, high), None for an open end, both ends allowed.
_PPO_RANGES: dict[str, tuple[float | None, float | None]] = {
    "n_steps": (1, None), "batch_size": (2, None), "n_epochs": (1, None), "gamma": (0, 1), "gae_lambda": (0, 1),
    "ent_coef": (0, None), "vf_coef": (0, None),
}
_DQN_RANGES: dict[str, tuple[float | None, float | None]] = {
    "buffer_size": (1, None), "batch_size": (1, None), "learning_starts": (0, None),
    "target_update_interval": (1, None), "gamma": (0, 1), "tau": (0, 1), "exploration_fraction": (0, 1),
    "exploration_initial_eps": (0, 1), "exploration_final_eps": (0, 1),
}
ALGO_KWARG_RANGES: dict[str, dict[str, tuple[float | None, float | None]]] = {
    "maskable_ppo": _PPO_RANGES, "ppo": _PPO_RANGES, "dqn": _DQN_RANGES, "qrdqn": _DQN_RANGES,
    "a2c": {"n_steps": (1, None), "gamma": (0, 1), "gae_lambda": (0, 1), "ent_coef": (0, None), "vf_coef": (0, None)},
}
# Keys that must be a positive number when given as a number (a schedule is not checked).
POSITIVE_ALGO_KWARGS = ("learning_rate", "clip_range", "max_grad_norm")
SET_BY_POLICY = {
    "observation_space": "the environment's", "action_space": "the environment's",
    "lr_schedule": "set from algo_kwargs.learning_rate", "net_arch": "use the net_arch field",
}


def _check_recordable(settings: Any) -> None:
    """Refuse values ``config.json`` cannot record exactly (dates, binary, NaN and infinities inside mappings)."""
    for item in fields(settings):
        value = getattr(settings, item.name)
        try:
            json.dumps(asdict(value) if is_dataclass(value) else value, allow_nan=False)
        except (TypeError, ValueError) as err:
            raise ConfigError(f"{item.name}: only plain finite values (numbers, strings, true/false, null, lists, "
                              f"mappings) can be recorded in config.json, got {shown(value)}") from err


def _check_algo_ranges(algorithm: str, kwargs: Mapping[str, Any], n_envs: int) -> None:
    """Refuse ``algo_kwargs`` values SB3 fails on only once training starts (``n_steps: 0``, ``gamma: 2``)."""
    for key, value in kwargs.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if key in POSITIVE_ALGO_KWARGS and not (math.isfinite(value) and value > 0):
            raise ConfigError(f"algo_kwargs.{key}: expected a positive number, got {shown(value)}")
        low, high = ALGO_KWARG_RANGES[algorithm].get(key, (None, None))
        if (low is not None and not value >= low) or (high is not None and not value <= high):
            allowed = f"at least {low}" if high is None else f"from {low} to {high}"
            raise ConfigError(f"algo_kwargs.{key}: {algorithm} needs {allowed}, got {shown(value)}")
    n_steps = kwargs.get("n_steps")
    if algorithm in ("maskable_ppo", "ppo") and isinstance(n_steps, int) and n_steps * n_envs < 2:
        raise ConfigError(f"algo_kwargs.n_steps: {algorithm} needs n_steps * n_envs of at least 2 (a rollout of "
                          f"more than one step), got {n_steps} * {n_envs}")


def checked_mapping(cls: type, data: Any, label: str) -> dict[str, Any]:
    """``data`` as a dict of ``cls``'s fields: a mapping with name keys, unknown ones refused naming the known."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{label}: expected a mapping of settings, got {shown(data)}")
    for key in data:
        if not isinstance(key, str):
            raise ConfigError(f"{label}: setting names are strings, got the key {shown(key)}")
    return checked_fields(cls, data, label)


def check_agent_spec(label: str, spec: Any, variant: str | None = None,
                     num_seats: int | tuple[int, ...] | None = None) -> None:
    """Refuse an agent spec that names no agent, does not build, or (given a table) cannot sit at it (at every
    size of ``num_seats``, when it lists several)."""
    from razz_env.agents.registry import make_agent
    from razz_env.encoding.interface import seating_problem

    if not isinstance(spec, (str, Mapping)):
        raise ConfigError(f"{label}: expected an agent name or a mapping with 'type', got {shown(spec)}")
    try:
        agent = make_agent(spec, seed=0)
    except (LookupError, ValueError, TypeError, RuntimeError, ImportError) as err:
        raise ConfigError(f"{label}: {' '.join(str(err).split())}") from err
    if variant is not None and num_seats is not None:
        for seats in (num_seats,) if isinstance(num_seats, int) else num_seats:
            problem = seating_problem(agent, variant, seats)
            if problem is not None:
                raise ConfigError(f"{label}: {problem}")


def _check_sb3_kwargs(label: str, kwargs: Mapping[str, Any], target: Any, reserved: Mapping[str, str]) -> None:
    """Refuse keywords ``target`` does not take (naming those it does), reserved ones and wrong types."""
    parameters = {name: p for name, p in inspect.signature(target).parameters.items()
                  if name != "self" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    for key, value in kwargs.items():
        if key in reserved:
            raise ConfigError(f"{label}.{key}: not settable here ({reserved[key]})")
        if key not in parameters:
            known = sorted(name for name in parameters if name not in reserved)
            raise ConfigError(f"{label}: unknown key {key!r} for {target.__qualname__}; known: {known}")
        hint = parameters[key].annotation
        if hint is not inspect.Parameter.empty:
            check_type(f"{label}.{key}", value, hint)


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
    self_play_start: float = limited(0.0, minimum=0, maximum=1)
    self_play_end: float = limited(0.3, minimum=0, maximum=1)
    snapshot_every: int = limited(100_000, minimum=1)
    max_snapshots: int = limited(5, minimum=1)

    def __post_init__(self) -> None:
        check_fields(self, lambda name: f"opponents.{name}", every_type=True)
        if not self.baselines:
            raise ConfigError("opponents.baselines: expected at least one agent")
        for index, spec in enumerate(self.baselines):
            check_agent_spec(f"opponents.baselines[{index}]", spec)
        if len(self.baselines) != len(self.weights):
            raise ConfigError(f"opponents.weights: expected {len(self.baselines)} weights (one per baseline), "
                              f"got {len(self.weights)}")
        for index, weight in enumerate(self.weights):
            if not (math.isfinite(weight) and weight >= 0):
                raise ConfigError(f"opponents.weights[{index}]: expected a finite weight >= 0, got {shown(weight)}")
        if not any(self.weights):
            raise ConfigError("opponents.weights: at least one weight must be positive")
        object.__setattr__(self, "baselines", tuple(self.baselines))
        object.__setattr__(self, "weights", tuple(float(w) for w in self.weights))

    @classmethod
    def from_dict(cls, data: Any) -> OpponentPoolConfig:
        """Build from the ``opponents`` mapping of a YAML config (unknown keys refused)."""
        return cls(**checked_mapping(cls, data, "opponents"))

    def share_at(self, progress: float) -> float:
        """Self-play share at ``progress`` (0 to 1 of the training steps)."""
        return self.self_play_start + (self.self_play_end - self.self_play_start) * min(max(progress, 0.0), 1.0)


@dataclass(frozen=True)
class TrainConfig(TableOptions):
    """One training run; ``razz train --config FILE`` reads it from YAML.

    The table options are those of :class:`~razz_env.engine.table.Table`: ``variant``, ``num_seats``, ``stacks``
    (default 1000), ``ante``, ``bring_in``, ``small_bet``, ``big_bet``, ``street_bets``, ``raise_cap`` (``0`` is
    no cap), ``heads_up_uncapped``, ``open_pair_big_bet``, ``bring_in_tie_break``, ``later_street_tie_break``,
    ``heads_up_tournament_uncapped``, ``chip``, ``rules`` (a preset); left out, the preset's, else the variant's
    (1/2/5/10 cap 4 in the seven-card games, 1/1/2/4 cap 2 in MiniRazz). The config holds the values it plays,
    defaults filled in (as ``config.json`` records them); :meth:`table` is the table at each size.

    ``num_seats`` is one table size, or a list of two or more (mixed table sizes, e.g. ``[2, 6]``): then
    environment ``i`` of the ``n_envs`` plays ``num_seats[i % len(num_seats)]`` seats (round-robin, so
    ``n_envs`` must be a multiple of the number of sizes; ``vec_env: batch`` plays them as one batched engine per
    size, each size's tables one after another), and the encoding must be a padded one (``flat8`` or ``ranks8``:
    one observation layout for every size).
    ``vec_env``: ``auto`` (default: ``batch`` when every pool baseline acts in batch or reads no seat view, else
    ``dummy``), ``dummy``, ``subproc`` or ``batch``.

    ``init_model`` (``{path, sha256}``) starts a new run from the weights and optimizer state of a model
    file instead of random ones (the steps still count from 0); the file is loaded only if its bytes match
    ``sha256``, and :func:`razz_env.train.trainer.train` refuses one of another algorithm, table or network
    before the run folder is touched. With ``widen_from: {encoding, num_seats}`` the file was trained on
    that fixed-size encoding and table size, and this config's encoding is its padded twin (``flat`` to
    ``flat8``): its input layer is widened (:mod:`razz_env.train.widen`) so the run starts from a network
    that plays as the file does at that size.
    """

    name: str = "ppo_razz"
    algorithm: str = "maskable_ppo"
    num_seats: int | tuple[int, ...] = 2
    encoding: str = "flat"
    total_timesteps: int = limited(1_000_000, minimum=1)
    n_envs: int = limited(8, minimum=1)
    vec_env: str = limited("auto", choices=VEC_ENVS)
    seed: int = limited(0, minimum=0, maximum=MAX_SEED)
    net_arch: tuple[int, ...] = (256, 256)
    policy_kwargs: dict[str, Any] = field(default_factory=dict)
    algo_kwargs: dict[str, Any] = field(default_factory=dict)
    opponents: OpponentPoolConfig = field(default_factory=OpponentPoolConfig)
    eval_every: int = limited(100_000, minimum=1)
    eval_deals: int = limited(500, minimum=1)
    eval_opponents: tuple[Any, ...] = ("random", "calling_station", "razz_heuristic")
    checkpoint_every: int = limited(100_000, minimum=1)
    output: str = "runs/ppo_razz"
    torch_threads: int = limited(1, minimum=1)
    max_minutes: float | None = limited(None, above=0)
    init_model: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        check_fields(self, every_type=True)
        if isinstance(self.opponents, Mapping):
            object.__setattr__(self, "opponents", OpponentPoolConfig.from_dict(self.opponents))
        object.__setattr__(self, "net_arch", tuple(self.net_arch))
        if not isinstance(self.num_seats, int):
            object.__setattr__(self, "num_seats", tuple(self.num_seats))
        object.__setattr__(self, "eval_opponents", tuple(self.eval_opponents))
        object.__setattr__(self, "policy_kwargs", dict(self.policy_kwargs))
        object.__setattr__(self, "algo_kwargs", dict(self.algo_kwargs))
        self._check_names()
        self._check_table()
        self._check_counts()
        self._check_algorithm()
        self._check_init_model()
        if not self.eval_opponents:
            raise ConfigError("eval_opponents: expected at least one agent")
        for index, spec in enumerate(self.eval_opponents):
            check_agent_spec(f"eval_opponents[{index}]", spec, self.variant, self.seat_counts)
        for index, spec in enumerate(self.opponents.baselines):
            check_agent_spec(f"opponents.baselines[{index}]", spec, self.variant, self.seat_counts)
        _check_recordable(self)

    def _check_names(self) -> None:
        bad = not self.name or self.name in (".", "..") or any(c in self.name for c in "/\\") \
            or not self.name.isprintable() or self.name != self.name.strip()
        if bad:
            raise ConfigError(f"name: expected a non-empty name without slashes (it names the run's files), "
                              f"got {shown(self.name)}")
        if not self.output.strip():
            raise ConfigError("output: expected a folder path, got an empty string")

    def _check_table(self) -> None:
        from razz_env.encoding import ENCODINGS, is_padded, make_encoder

        if isinstance(self.num_seats, tuple) and (len(set(self.num_seats)) < 2
                                                    or len(set(self.num_seats)) != len(self.num_seats)):
            raise ConfigError(f"num_seats: expected a seat count, or a list of two or more different seat counts "
                              f"(mixed table sizes), got {shown(list(self.num_seats))}")
        if self.street_bets is not None:
            object.__setattr__(self, "street_bets", tuple(self.street_bets))
        table = self.table()
        for key, value in table.to_dict().items():
            if key not in ("variant", "num_seats"):
                object.__setattr__(self, key, tuple(value) if isinstance(value, list) else value)
        for seats in self.seat_counts[1:]:
            self.table(seats)
        if self.encoding not in ENCODINGS:
            raise ConfigError(f"encoding: unknown encoding {shown(self.encoding)}; known: {', '.join(ENCODINGS)}")
        try:
            make_encoder(self.encoding, table.hand_config())
        except ValueError as err:
            raise ConfigError(str(err) if str(err).startswith("encoding") else f"encoding: {err}") from None
        if self.mixed_sizes and not is_padded(self.encoding):
            padded = ", ".join(name for name in ENCODINGS if is_padded(name))
            raise ConfigError(f"num_seats: a list of table sizes needs a padded encoding (one observation layout "
                              f"for every size), got encoding {shown(self.encoding)}; set encoding to one of "
                              f"{padded}")

    def _check_counts(self) -> None:
        if self.mixed_sizes:
            sizes = len(self.seat_counts)
            if self.n_envs % sizes:
                raise ConfigError(f"n_envs: expected a multiple of the {sizes} table sizes in num_seats (environment "
                                  f"i plays num_seats[i % {sizes}] seats), got {self.n_envs}")
        for index, width in enumerate(self.net_arch):
            as_int(f"net_arch[{index}]", width, 1)

    def _check_algorithm(self) -> None:
        from razz_env.agents.sb3_agent import ALGORITHMS, algorithm_class

        if self.algorithm not in ALGORITHMS:
            raise ConfigError(f"algorithm: unknown {shown(self.algorithm)}; known: {', '.join(ALGORITHMS)}")
        try:
            cls = algorithm_class(self.algorithm)
        except ImportError as err:
            raise ConfigError(f"algorithm: {self.algorithm} needs the train extra "
                              f"(pip install 'razz-env[train]'): {err}") from err
        _check_sb3_kwargs("algo_kwargs", self.algo_kwargs, cls.__init__, SET_BY_TRAINER)
        _check_algo_ranges(self.algorithm, self.algo_kwargs, self.n_envs)
        _check_sb3_kwargs("policy_kwargs", self.policy_kwargs, cls.policy_aliases["MlpPolicy"].__init__,
                          SET_BY_POLICY)

    def _check_init_model(self) -> None:
        """``init_model`` is null or ``{path, sha256}``, with ``widen_from: {encoding, num_seats}`` when the file
        was trained on the fixed-size twin of this config's padded encoding (the file itself is checked when a
        run starts from it)."""
        if self.init_model is None:
            return
        keys = set(self.init_model)
        if not set(INIT_MODEL_KEYS) <= keys <= {*INIT_MODEL_KEYS, "widen_from"}:
            raise ConfigError(f"init_model: expected a mapping with {', '.join(INIT_MODEL_KEYS)} (the model file and "
                              f"its SHA-256) and optionally widen_from, got the keys "
                              f"{', '.join(sorted(shown(key) for key in keys))}")
        for key in INIT_MODEL_KEYS:
            check_type(f"init_model.{key}", self.init_model[key], str)
        path, sha256 = self.init_model["path"], self.init_model["sha256"]
        if not path.strip() or not path.isprintable():
            raise ConfigError(f"init_model.path: expected the model file's path (printable characters), got "
                              f"{shown(path)}")
        if not SHA256_PATTERN.fullmatch(sha256.lower()):
            raise ConfigError(f"init_model.sha256: expected the file's SHA-256 as 64 hex digits, got {shown(sha256)}")
        checked: dict[str, Any] = {"path": path, "sha256": sha256.lower()}
        if "widen_from" in keys:
            checked["widen_from"] = self._checked_widen_from(self.init_model["widen_from"])
        object.__setattr__(self, "init_model", checked)

    def _checked_widen_from(self, widen_from: object) -> dict[str, Any]:
        """``init_model.widen_from``: the fixed-size twin of this config's padded encoding, and a table size."""
        from razz_env.encoding import is_padded
        from razz_env.engine.config import MAX_SEATS

        if not isinstance(widen_from, Mapping) or set(widen_from) != set(WIDEN_FROM_KEYS):
            raise ConfigError(f"init_model.widen_from: expected a mapping with exactly {', '.join(WIDEN_FROM_KEYS)} "
                              f"(the encoding and table size the file was trained at), got {shown(widen_from)}")
        encoding, seats = widen_from["encoding"], widen_from["num_seats"]
        check_type("init_model.widen_from.encoding", encoding, str)
        if not is_padded(self.encoding) or encoding + "8" != self.encoding:
            twin = self.encoding.removesuffix("8") if is_padded(self.encoding) else None
            allowed = f"only {twin!r}" if twin else "nothing: widening needs a padded encoding (flat8 or ranks8)"
            raise ConfigError(f"init_model.widen_from.encoding: a file is widened from the fixed-size twin of the "
                              f"config's encoding {self.encoding!r}, so {allowed} is allowed, got {shown(encoding)}")
        check_type("init_model.widen_from.num_seats", seats, int)
        if not 2 <= seats <= MAX_SEATS:
            raise ConfigError(f"init_model.widen_from.num_seats: expected a table size from 2 to {MAX_SEATS}, "
                              f"got {seats}")
        return {"encoding": encoding, "num_seats": seats}

    @property
    def masks_natively(self) -> bool:
        """The algorithm takes action masks itself (else illegal choices play check/fold)."""
        return self.algorithm in MASKING_ALGORITHMS

    @property
    def seat_counts(self) -> tuple[int, ...]:
        """The table sizes trained at, in ``num_seats`` order."""
        return (self.num_seats,) if isinstance(self.num_seats, int) else self.num_seats

    @property
    def mixed_sizes(self) -> bool:
        """Whether the run trains at more than one table size."""
        return len(self.seat_counts) > 1

    def table(self, num_seats: int | None = None) -> Table:
        """The table trained at, at ``num_seats`` seats (one of :attr:`seat_counts`; by default the first)."""
        seats = self.seat_counts[0] if num_seats is None else num_seats
        return self.table_at(seats)

    def env_kwargs(self, num_seats: int | None = None) -> dict[str, Any]:
        """Keyword arguments of :class:`razz_env.SingleAgentEnv` for this table (at ``num_seats`` seats, one of
        :attr:`seat_counts`; by default the only one)."""
        if num_seats is None:
            if self.mixed_sizes:
                raise ValueError(f"env_kwargs: name one of the table sizes {list(self.seat_counts)}")
            num_seats = self.seat_counts[0]
        return {"table": self.table(num_seats), "encoding": self.encoding}

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for the run folder's ``config.json``)."""
        every = asdict(self)
        data = {key: every[key] for key in self.config_keys()}
        data["net_arch"] = list(self.net_arch)
        if self.street_bets is not None:
            data["street_bets"] = list(self.street_bets)
        if isinstance(self.num_seats, tuple):
            data["num_seats"] = list(self.num_seats)
        return data

    @classmethod
    def from_dict(cls, data: Any, **overrides: Any) -> TrainConfig:
        """Build from a YAML mapping; unknown keys are an error naming them, overrides set to ``None`` are unset."""
        return cls(**with_overrides(checked_mapping(cls, data, "train config"), overrides))

    @classmethod
    def from_yaml(cls, path: str | Path, **overrides: Any) -> TrainConfig:
        """Load ``path`` (YAML); ``name`` and ``output`` default from the file name."""
        data = read_settings_file(path, "training", "configs/train_ppo_razz.yaml")
        data.setdefault("name", Path(path).stem)
        if isinstance(data["name"], str):
            data.setdefault("output", f"runs/{data['name']}")
        return cls.from_dict(data, **overrides)
