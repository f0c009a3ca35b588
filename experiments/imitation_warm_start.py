"""Imitation warm start: clone a teacher agent's play into the network of a train config, for RL to continue.

    python experiments/imitation_warm_start.py --config configs/train_ppo_stud_imitation.yaml \\
        --teacher monte_carlo --hands 100000 --epochs 40 --out runs/stud_imitation40

The teacher plays ``--hands`` hands at the config's table against ``--opponents`` drawn by ``--weights`` (by
default the config's pool baselines and weights; :func:`razz_env.train.imitation.collect`); a fresh model of
the config (algorithm, table, encoding, ``net_arch``) is fitted to its choices and the hands' results
(:func:`razz_env.train.imitation.clone`). The output folder gets ``model.zip``, ``hashes.json`` (its
SHA-256) and ``imitation.json`` (the settings, the decisions recorded, the teacher's action counts, each
epoch's losses and held-out agreement, the seconds). An RL config starts from it with
``init_model: {path: <out>/model.zip, sha256: <from hashes.json>}``.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make this checkout importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.train.config import TrainConfig  # noqa: E402
from razz_env.train.runfolder import RunFolder  # noqa: E402

IMITATED_ALGORITHMS = ("maskable_ppo",)
MODEL = "model.zip"
RECORD = "imitation.json"


@dataclass
class Args:
    """The train config whose network is cloned into, the teacher, how much play, how long a fit, where."""

    config: Path
    out: Path
    teacher: str = "monte_carlo"
    hands: int = 60000
    epochs: int = 8
    batch_size: int = 1024
    learning_rate: float = 3e-4
    seed: int = 0
    opponents: list[str] | None = None
    weights: list[float] | None = None


def command_of(record: dict) -> str:
    """The command line that wrote an ``imitation.json`` record (every setting spelled out)."""
    words = ["python experiments/imitation_warm_start.py", "--config", record["config"], "--teacher",
             record["teacher"], "--hands", str(record["hands"]), "--epochs", str(record["epochs"]), "--batch-size",
             str(record["batch_size"]), "--learning-rate", f"{record['learning_rate']:g}", "--seed",
             str(record["seed"]), "--out", record["out"], "--opponents", *record["opponents"],
             "--weights", *(f"{weight:g}" for weight in record["weights"])]
    return " ".join(words)


def checked_config(args: Args) -> TrainConfig:
    """The train config, refused (``ValueError`` naming it) unless a MaskablePPO at one table size, and the
    arguments, before anything is written."""
    for name in ("hands", "epochs", "batch_size"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')}: expected a positive integer, got {getattr(args, name)}")
    if not args.learning_rate > 0:
        raise ValueError(f"--learning-rate: expected a positive number, got {args.learning_rate}")
    if (args.opponents is None) != (args.weights is None) or len(args.opponents or ()) != len(args.weights or ()):
        raise ValueError("--opponents and --weights: give both, one weight per opponent, or neither (the config's "
                         "pool)")
    if args.weights is not None and (any(not weight >= 0 for weight in args.weights) or not sum(args.weights) > 0):
        raise ValueError(f"--weights: expected non-negative weights with a positive sum, got {args.weights}")
    if (args.out / MODEL).exists():
        raise ValueError(f"--out {args.out}: already holds a model.zip; give a new folder")
    try:
        config = TrainConfig.from_yaml(args.config)
    except (ConfigError, OSError) as err:
        raise ValueError(f"--config {args.config}: {err}") from None
    if config.algorithm not in IMITATED_ALGORITHMS or config.mixed_sizes:
        raise ValueError(f"--config {args.config}: imitation fits a {' or '.join(IMITATED_ALGORITHMS)} policy at one "
                         f"table size; this config trains {config.algorithm} at {list(config.seat_counts)} seats")
    return config


def main(args: Args) -> int:
    """Collect, clone, save; 0 (bad input raises ``ValueError`` before anything is written)."""
    config = checked_config(args)
    from razz_env.agents.registry import make_agent
    from razz_env.encoding import make_encoder
    from razz_env.envs.common import table_config
    from razz_env.train.imitation import action_counts, clone, collect
    from razz_env.train.trainer import build_model, build_vec_env

    try:
        teacher = make_agent(args.teacher, seed=args.seed)
    except (ValueError, TypeError, KeyError) as err:
        raise ValueError(f"--teacher {args.teacher}: {err}") from None
    import torch

    torch.set_num_threads(config.torch_threads)
    torch.manual_seed(args.seed)
    table = table_config(**{k: v for k, v in config.table_kwargs().items() if k != "encoding"})
    specs = args.opponents if args.opponents is not None else list(config.opponents.baselines)
    weights = args.weights if args.weights is not None else list(config.opponents.weights)
    try:
        opponents = [make_agent(spec, seed=args.seed + 1 + index) for index, spec in enumerate(specs)]
    except (ValueError, TypeError, KeyError) as err:
        raise ValueError(f"--opponents: {err}") from None
    started = time.perf_counter()
    demonstrations = collect(teacher, opponents, weights, table,
                             make_encoder(config.encoding, table), args.hands, args.seed)
    collected = time.perf_counter() - started
    print(f"{len(demonstrations)} decisions of {args.teacher} in {args.hands} hands, {collected:.0f} s", flush=True)
    venv = build_vec_env(config)
    model = build_model(config, venv, None)
    venv.close()
    rows = clone(model, demonstrations, args.epochs, args.batch_size, args.learning_rate, seed=args.seed)
    for row in rows:
        print(f"epoch {row['epoch']}: policy loss {row['policy_loss']:.4f}, value loss {row['value_loss']:.3f}, "
              f"held-out agreement {row['held_out_agreement']:.3f}", flush=True)
    sha256 = RunFolder(args.out).save_model(model, MODEL)
    record = {**{k: str(v) if isinstance(v, Path) else v for k, v in asdict(args).items()},
              "opponents": specs, "weights": weights,
              "decisions": len(demonstrations), "teacher_action_counts": action_counts(demonstrations),
              "epochs_run": rows, "collect_seconds": round(collected, 1),
              "seconds": round(time.perf_counter() - started, 1), "sha256": sha256}
    RunFolder(args.out).write_json(RECORD, record)
    print(f"wrote {args.out / MODEL} (SHA-256 {sha256})")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", type=Path, required=True, help="the train config whose network is fitted")
    parser.add_argument("--out", type=Path, required=True, help="a new folder for model.zip and its record")
    parser.add_argument("--teacher", default=Args.teacher, help="a registered agent name")
    parser.add_argument("--hands", type=int, default=Args.hands)
    parser.add_argument("--epochs", type=int, default=Args.epochs)
    parser.add_argument("--batch-size", type=int, default=Args.batch_size)
    parser.add_argument("--learning-rate", type=float, default=Args.learning_rate)
    parser.add_argument("--seed", type=int, default=Args.seed)
    parser.add_argument("--opponents", nargs="+", help="registered agent names (default: the config's pool baselines)")
    parser.add_argument("--weights", nargs="+", type=float, help="one per --opponents entry")
    try:
        sys.exit(main(Args(**vars(parser.parse_args()))))
    except ValueError as err:
        parser.error(str(err))
