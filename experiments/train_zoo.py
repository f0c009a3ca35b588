"""Train the shipped SB3 agents and install them in the zoo (``razz_env/agents/zoo/``).

For each training config: ``razz train`` (continuing the run in its folder if it holds
one; ``--fresh`` starts it over), then copy ``final.zip`` into ``razz_env/agents/zoo/<name>.zip``
(loaded only once its SHA-256 matches the run's ``hashes.json``), record its SHA-256,
table, algorithm, encoding, config and training time in ``razz_env/agents/zoo/manifest.json``,
and plot the learning curve to ``experiments/<name>/learning_curve.png``.

Agents already in the zoo (the shipped ones) are not replaced unless ``--overwrite-zoo``
is given; that is checked before any training. Run from the repository root:

    python experiments/train_zoo.py --configs configs/train_ppo_razz.yaml --overwrite-zoo
    python -m experiments.train_zoo --configs configs/train_a2c_razz.yaml --no-install
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make this checkout importable (experiments, razz_env, agents)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.learning_curves import plot_run  # noqa: E402
from razz_env.agents.sb3_agent import UntrustedModelError, load_model  # noqa: E402
from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.train.config import TrainConfig  # noqa: E402
from razz_env.train.runfolder import FINAL, SUMMARY, RunFolder, model_bytes, write_atomic  # noqa: E402
from razz_env.train.trainer import train  # noqa: E402

ZOO = Path(__file__).resolve().parent.parent / "agents" / "zoo"
EXPERIMENTS = Path(__file__).resolve().parent


@dataclass
class Args:
    """Which configs to train, and overrides for quick runs."""

    configs: list[str] = field(default_factory=lambda: ["configs/train_ppo_razz.yaml"])
    steps: int | None = None
    max_minutes: float | None = None
    fresh: bool = False
    install: bool = True
    overwrite_zoo: bool = False
    best_checkpoint: bool = False
    curves: str = str(EXPERIMENTS)


def save_for_play(run: Path, relative: str, target: Path, algorithm: str) -> None:
    """Install a verified model of the run without its optimizer's moments (not needed to play): a third the size."""
    model = load_model(RunFolder(run).verified_bytes(relative), algorithm)
    optimizer = model.policy.optimizer
    fresh_groups = [{"params": group["params"]} for group in optimizer.param_groups]
    model.policy.optimizer = type(optimizer)(fresh_groups, **optimizer.defaults)
    write_atomic(target, model_bytes(model))


def best_checkpoint(run: Path, opponent: str = "razz_heuristic",
                    seats: int | None = None) -> tuple[str, dict, list[dict]]:
    """The checkpoint whose periodic evaluation against ``opponent`` at ``seats`` had the highest CI lower bound.

    ``seats`` may be left out for a run evaluated at one table size; a run trained at several sizes
    (``num_players: [2, 6]``) must name the size to select by. Returns the checkpoint's path in the run
    folder, its row against ``opponent`` and its rows against every opponent at every size.
    """
    rows = RunFolder(run).eval_rows()
    sizes = sorted({row["seats"] for row in rows if row["opponent"] == opponent}, key=lambda size: (len(size), size))
    if seats is None and len(sizes) > 1:
        raise ConfigError(f"{run}: evaluated against {opponent!r} at {' and '.join(sizes)} seats; name the table "
                          f"size to select a checkpoint by")
    candidates = [row for row in rows if row["opponent"] == opponent and (seats is None or row["seats"] == str(seats))]
    if not candidates:
        at = "" if seats is None else f" at {seats} seats"
        raise ConfigError(f"{run}: eval.csv has no evaluation against {opponent!r}{at} to pick a checkpoint by")
    best = max(candidates, key=lambda row: float(row["ci95_low"]))
    at_step = [{"opponent": r["opponent"], "bb_per_100": float(r["bb_per_100"]), "ci95_low": float(r["ci95_low"]),
                "ci95_high": float(r["ci95_high"]), "hands": int(r["hands"]), "seats": r["seats"]}
               for r in rows if r["steps"] == best["steps"]]
    return f"checkpoints/step_{best['steps']}.zip", best, at_step


def train_commands(config_paths: list[str]) -> str:
    """The shell command that trains ``config_paths`` one after the other."""
    return " && ".join(f"razz train --config {path}" for path in config_paths)


def install(config: TrainConfig, summary: dict, config_path: str, source: str = FINAL,
            chain: list[str] | None = None, command: str | None = None) -> None:
    """Copy a model of the run (default: the final one) into the zoo and update its manifest entry.

    ``chain``: the configs of the runs trained one after the other to make it (each starting from the one
    before's model, ``init_model``), the last being ``config_path``; the entry's command trains them in order.
    ``command``, when the model was not made by ``razz train`` runs alone, is the entry's command instead.
    """
    ZOO.mkdir(parents=True, exist_ok=True)
    target = ZOO / f"{config.name}.zip"
    save_for_play(Path(config.output), source, target, config.algorithm)
    manifest_path = ZOO / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    manifest[config.name] = {
        "file": target.name,
        "sha256": hashlib.sha256(target.read_bytes()).hexdigest(),
        "algorithm": config.algorithm,
        "encoding": config.encoding,
        "variant": config.variant,
        "num_players": config.num_players,
        "starting_stacks": config.starting_stacks,
        "stakes": [config.ante, config.bring_in, config.small_bet, config.big_bet],
        "config": config_path,
        "command": command or train_commands(chain or [config_path]),
        "steps": summary["steps"],
        "train_minutes_2_core_cpu": round(summary["train_seconds"] / 60, 1),
        "steps_per_second": summary["steps_per_second"],
        "final_eval": summary["final_eval"],
        "selected_by": summary.get("selected_by", "final model"),
    }
    write_atomic(manifest_path, (json.dumps(manifest, indent=2) + "\n").encode("utf-8"))


def shipped(names: list[str]) -> list[str]:
    """Those of ``names`` already in the zoo (a file or a manifest entry)."""
    manifest_path = ZOO / "manifest.json"
    entries = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    return [name for name in names if name in entries or (ZOO / f"{name}.zip").exists()]


def _finished_summary(config: TrainConfig) -> dict[str, Any] | None:
    """The summary of a run in the folder that already reached ``total_timesteps`` (nothing left to train)."""
    summary = RunFolder(config.output).read_json(SUMMARY, None)
    if isinstance(summary, dict) and summary.get("steps", 0) >= config.total_timesteps:
        return summary
    return None


def main(args: Args) -> None:
    """Check every config (and that no shipped agent would be replaced unasked), then train and install each."""
    configs = [(path, TrainConfig.from_yaml(path, total_timesteps=args.steps, max_minutes=args.max_minutes))
               for path in args.configs]
    if args.install and not args.overwrite_zoo:
        taken = shipped([config.name for _, config in configs])
        if taken:
            raise ConfigError(f"{', '.join(taken)} already in {ZOO} (shipped files and manifest entries); pass "
                              f"--overwrite-zoo to replace them, or --no-install")
    for config_path, config in configs:
        finished = None if args.fresh else _finished_summary(config)
        if finished is None:
            resume = not args.fresh and RunFolder(config.output).holds_run()
            summary = train(config, resume=resume, fresh=args.fresh)
        else:
            print(f"{config.output}: already trained to {finished['steps']} steps; using that run")
            summary = finished
        print(json.dumps(summary, indent=2))
        plot_run(Path(config.output), Path(args.curves) / config.name / "learning_curve.png", config.name)
        if args.install:
            source = FINAL
            if args.best_checkpoint:
                source, row, at_step = best_checkpoint(Path(config.output))
                summary = {**summary, "steps": int(row["steps"]), "train_seconds": float(row["train_minutes"]) * 60,
                           "final_eval": at_step,
                           "selected_by": f"best periodic CI lower bound vs razz_heuristic: {row['bb_per_100']} "
                                          f"[{row['ci95_low']}, {row['ci95_high']}]"}
            install(config, summary, config_path, source)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", nargs="+", default=Args().configs)
    parser.add_argument("--steps", type=int)
    parser.add_argument("--max-minutes", type=float, dest="max_minutes")
    parser.add_argument("--fresh", action="store_true", help="start each run over (deleting its earlier run folder)")
    parser.add_argument("--no-install", dest="install", action="store_false")
    parser.add_argument("--overwrite-zoo", dest="overwrite_zoo", action="store_true",
                        help="replace agents already in razz_env/agents/zoo (the shipped ones) and their manifest entries")
    parser.add_argument("--best-checkpoint", action="store_true",
                        help="install the checkpoint that evaluated best against razz_heuristic, not the final model")
    parser.add_argument("--curves", default=Args.curves, help="folder for <name>/learning_curve.png")
    try:
        main(Args(**vars(parser.parse_args())))
    except (ConfigError, UntrustedModelError) as err:
        print(f"train_zoo: {err}", file=sys.stderr)
        sys.exit(2)
