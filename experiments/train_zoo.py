"""Train the shipped SB3 agents and install them in the zoo (``agents/zoo/``).

For each training config: ``razz train`` (resumable), then copy ``final.zip`` into
``agents/zoo/<name>.zip``, record its SHA-256, algorithm, encoding, config and
training time in ``agents/zoo/manifest.json``, and plot the learning curve to
``experiments/<name>/learning_curve.png``.

    python experiments/train_zoo.py --configs configs/train_ppo_razz.yaml configs/train_qrdqn_razz.yaml
"""

from __future__ import annotations

import csv
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from razz_env.training.config import TrainConfig
from razz_env.training.train import train

ZOO = Path(__file__).resolve().parent.parent / "agents" / "zoo"
EXPERIMENTS = Path(__file__).resolve().parent


@dataclass
class Args:
    """Which configs to train, and overrides for quick runs."""

    configs: list[str] = field(default_factory=lambda: ["configs/train_ppo_razz.yaml"])
    steps: int | None = None
    max_minutes: float | None = None
    resume: bool = True
    install: bool = True
    best_checkpoint: bool = False


def sha256(path: Path) -> str:
    """Hex SHA-256 of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save_for_play(source: Path, target: Path, algorithm: str) -> None:
    """Save the model without its optimizer's moments (not needed to play): a third of the size."""
    from agents.sb3_agent import algorithm_class

    model = algorithm_class(algorithm).load(str(source), device="cpu")
    optimizer = model.policy.optimizer
    fresh_groups = [{"params": group["params"]} for group in optimizer.param_groups]
    model.policy.optimizer = type(optimizer)(fresh_groups, **optimizer.defaults)
    model.save(target)


def best_checkpoint(run: Path, opponent: str = "razz_heuristic") -> tuple[Path, dict, list[dict]]:
    """The checkpoint whose periodic evaluation against ``opponent`` had the highest CI lower bound.

    Returns its path, its row against ``opponent`` and its rows against every evaluation opponent.
    """
    with open(run / "eval.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    best = max((row for row in rows if row["opponent"] == opponent), key=lambda row: float(row["ci95_low"]))
    at_step = [{"opponent": r["opponent"], "bb_per_100": float(r["bb_per_100"]), "ci95_low": float(r["ci95_low"]),
                "ci95_high": float(r["ci95_high"]), "hands": int(r["hands"])}
               for r in rows if r["steps"] == best["steps"]]
    return run / "checkpoints" / f"step_{best['steps']}.zip", best, at_step


def install(config: TrainConfig, summary: dict, config_path: str, source: Path | None = None) -> None:
    """Copy a model (default: the final one) into the zoo and update its manifest entry."""
    ZOO.mkdir(parents=True, exist_ok=True)
    target = ZOO / f"{config.name}.zip"
    save_for_play(source or Path(config.output) / "final.zip", target, config.algorithm)
    manifest_path = ZOO / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    manifest[config.name] = {
        "file": target.name,
        "sha256": sha256(target),
        "algorithm": config.algorithm,
        "encoding": config.encoding,
        "variant": config.variant,
        "num_players": config.num_players,
        "starting_stacks": config.starting_stacks,
        "stakes": [config.ante, config.bring_in, config.small_bet, config.big_bet],
        "config": config_path,
        "command": f"razz train --config {config_path}",
        "steps": summary["steps"],
        "train_minutes_2_core_cpu": round(summary["train_seconds"] / 60, 1),
        "steps_per_second": summary["steps_per_second"],
        "final_eval": summary["final_eval"],
        "selected_by": summary.get("selected_by", "final model"),
    }
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")


def main(args: Args) -> None:
    from experiments.learning_curves import plot_run

    for config_path in args.configs:
        config = TrainConfig.from_yaml(config_path, total_timesteps=args.steps, max_minutes=args.max_minutes)
        summary = train(config, resume=args.resume)
        print(json.dumps(summary, indent=2))
        plot_run(Path(config.output), EXPERIMENTS / config.name / "learning_curve.png", config.name)
        if args.install:
            source = None
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
    parser.add_argument("--no-resume", dest="resume", action="store_false")
    parser.add_argument("--no-install", dest="install", action="store_false")
    parser.add_argument("--best-checkpoint", action="store_true",
                        help="install the checkpoint that evaluated best against razz_heuristic, not the final model")
    main(Args(**vars(parser.parse_args())))
