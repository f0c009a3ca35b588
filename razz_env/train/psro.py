"""A PSRO-style loop: best responses to the learner join its opponent pool as training goes.

One learner config (``razz train`` YAML, heads-up, the variant's default stakes and 1,000-chip
stacks, the table ``razz exploit`` measures on) is trained in generations:

* generation 0 trains the learner for ``--steps-per-generation`` steps: from scratch, or from the base
  config's ``init_model`` (a warm start: a model trained before, verified by its SHA-256);
* every generation ``g`` then trains a learned best response to the learner of that generation
  (``razz exploit --method rl``: MaskablePPO against the frozen learner for ``--br-steps``, then a
  duplicate match of ``--deals`` deals on seeds the training never used) and records its bb/100
  with the 95% CI: that generation's lower bound on the learner's exploitability;
* generation ``g + 1`` continues the learner from generation ``g``'s final model (``init_model``:
  weights and optimizer state) in a new run folder, its pool the base config's baselines plus every
  best response found so far (``sb3_model`` opponents, each with weight ``--br-weight``): the
  population.

Each generation uses the base seed plus ``g`` for the learner and ``--seed`` plus ``g`` for its best
response; self-play snapshots belong to a generation's run (each generation starts taking them anew).
The base config's ``total_timesteps``, ``output`` and ``max_minutes`` are replaced (``--max-minutes``
caps each generation's learner training).

The output folder (``--output``, default ``runs/psro_razz``) holds:

* ``psro.json``: the loop's settings (the base config as loaded, steps, weight, deals, seed), which a
  rerun must match;
* ``gen_<g>/learner/``: the learner's ``razz train`` run folder of generation ``g``;
* ``gen_<g>/exploit/``: the ``razz exploit`` results folder of its best response (``training/`` holds
  the best response's run, ``exploit.json`` its figure);
* ``gen_<g>/generation.json``: the learner's and the best response's agent specs and the generation's row;
* ``psro.csv``: by generation, the learner's steps so far, the best response's bb/100 with its 95% CI,
  hands, its training steps, and wall minutes (learner training, best-response training, match);
* ``psro.png``: the best response's bound by generation.

Rerunning the same command continues where it stopped (finished generations are read back, an
interrupted training or match resumes) and ``--generations`` may grow; other settings differing from
``psro.json`` are refused, naming them: ``--fresh`` deletes the loop's files first (only those, listed
on stderr; a folder with ``gen_*`` or ``psro.*`` files but no ``psro.json`` is never touched), or choose
another ``--output``.
Run from the repository root:

    python razz_env/train/psro.py --config configs/train_ppo_razz_pool.yaml --generations 4 \\
        --steps-per-generation 1000000 --br-steps 500000 --deals 2000
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make this checkout importable (experiments, razz_env, agents)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from razz_env.agents.sb3_agent import UntrustedModelError  # noqa: E402
from razz_env.engine.errors import ConfigError, shown  # noqa: E402
from razz_env.train.config import MAX_SEED, TrainConfig  # noqa: E402
from razz_env.train.runfolder import CHECKPOINTS, FINAL, SUMMARY, RunFolder, write_atomic  # noqa: E402
from razz_env.train.trainer import TrainingInterrupted, flat_settings, init_model_bytes, train  # noqa: E402

RECORD = "psro.json"
TABLE = "psro.csv"
PLOT = "psro.png"
GENERATION = "generation.json"
COLUMNS = ("generation", "learner_steps", "br_bb_per_100", "ci95_low", "ci95_high", "hands", "br_steps",
           "wall_minutes")
SHOWN_DIFFERENCES = 6
# Base config fields the loop sets for every generation (the rest is the learner's config).
REPLACED = ("total_timesteps", "output", "max_minutes")
# Settings a rerun may change: how far to go, how to show it, how many processes play.
FREE = ("generations", "output", "fresh", "progress", "plot", "workers")


@dataclass
class Args:
    """The loop's settings (command-line flags of the same names, dashes for underscores)."""

    config: str = "configs/train_ppo_razz_pool.yaml"
    generations: int = 3
    steps_per_generation: int = 1_000_000
    br_steps: int = 500_000
    br_weight: float = 2.0
    deals: int = 2_000
    seed: int = 0
    max_minutes: float | None = None
    workers: int = 1
    output: str = "runs/psro_razz"
    fresh: bool = False
    progress: bool = True
    plot: bool = True


def _positive_int(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"--{name.replace('_', '-')}: expected a positive integer, got {shown(value)}")


def check_args(args: Args) -> TrainConfig:
    """The base config, once ``args`` and it are fit for the loop; a :class:`ConfigError` names what is not."""
    from razz_env.engine.variants import get_variant
    from razz_env.evaluate.config import TournamentConfig

    for name in ("generations", "steps_per_generation", "br_steps", "deals", "workers"):
        _positive_int(name, getattr(args, name))
    if isinstance(args.br_weight, bool) or not isinstance(args.br_weight, (int, float)) \
            or not (math.isfinite(args.br_weight) and args.br_weight > 0):
        raise ConfigError(f"--br-weight: expected a positive finite weight, got {shown(args.br_weight)}")
    if isinstance(args.seed, bool) or not isinstance(args.seed, int) or not 0 <= args.seed <= MAX_SEED:
        raise ConfigError(f"--seed: expected an integer from 0 to {MAX_SEED}, got {shown(args.seed)}")
    if args.max_minutes is not None and (isinstance(args.max_minutes, bool)
                                         or not isinstance(args.max_minutes, (int, float))
                                         or not (math.isfinite(args.max_minutes) and args.max_minutes > 0)):
        raise ConfigError(f"--max-minutes: expected a positive number of minutes, got {shown(args.max_minutes)}")
    for name, what in (("config", "a YAML file's path"), ("output", "a folder path")):
        value = getattr(args, name)
        if not isinstance(value, str) or not value.strip() or not value.isprintable():
            raise ConfigError(f"--{name}: expected {what} (printable characters), got {shown(value)}")
    base = TrainConfig.from_yaml(args.config)
    if base.init_model is not None:
        try:
            init_model_bytes(base.init_model)
        except ConfigError as err:
            raise ConfigError(f"{args.config}: {err}") from None
    if max(base.seed, args.seed) + args.generations - 1 > MAX_SEED:
        raise ConfigError(f"--generations: the seeds (the learner's {base.seed} and the best responses' {args.seed}, "
                          f"each plus the generation) would pass {MAX_SEED}")
    table = TournamentConfig(variant=base.variant)
    played = (base.num_players, base.starting_stacks, base.ante, base.bring_in, base.small_bet, base.big_bet)
    measured = (2, table.starting_stack, *get_variant(base.variant).default_stakes)
    if played != measured:
        raise ConfigError(f"{args.config}: razz exploit measures heads-up with {table.starting_stack}-chip stacks at "
                          f"the variant's stakes {list(measured[2:])}; the config plays {base.num_players} seats, "
                          f"{base.starting_stacks}-chip stacks, stakes {list(played[2:])}")
    return base


def base_record(base: TrainConfig) -> dict[str, Any]:
    """The base config as ``psro.json`` records it: as loaded (not its path), less the fields the loop replaces."""
    return json.loads(json.dumps({key: value for key, value in base.to_dict().items() if key not in REPLACED}))


def record_of(args: Args, base: TrainConfig) -> dict[str, Any]:
    """What ``psro.json`` holds: every setting a rerun must keep (the base config and the loop's settings)."""
    settings = {key: value for key, value in asdict(args).items() if key not in FREE + ("config",)}
    return {"base_config": base_record(base), **settings}


def command_of(record: dict[str, Any], config: str, generations: int, output: str | Path) -> str:
    """The command that runs the loop ``record`` (a ``psro.json``) describes, on ``config``, to ``generations``
    generations in ``output``."""
    minutes = f" --max-minutes {record['max_minutes']:g}" if record.get("max_minutes") is not None else ""
    return (f"python razz_env/train/psro.py --config {config} --generations {generations} "
            f"--steps-per-generation {record['steps_per_generation']} --br-steps {record['br_steps']} "
            f"--br-weight {record['br_weight']:g} --deals {record['deals']} --seed {record['seed']}{minutes} "
            f"--output {output}")


def _ours(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name in (RECORD, TABLE, PLOT) or p.name.startswith("gen_"))


def prepare_output(args: Args, record: dict[str, Any]) -> str:
    """Make ``args.output`` ready for ``record``: ``"new"`` or ``"continue"``; refuses another loop's or foreign
    files (``--fresh`` deletes the loop's own files first, saying which)."""
    folder = Path(args.output)
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"--output: {folder} is a file; expected a folder for the loop")
    ours = _ours(folder) if folder.is_dir() else []
    if not ours:
        write_atomic(folder / RECORD, (json.dumps(record, indent=2) + "\n").encode("utf-8"))
        return "new"
    if not (folder / RECORD).is_file():
        raise ConfigError(f"{folder}: has {', '.join(p.name for p in ours)} but no {RECORD} written by this loop; not "
                          f"touching it (not even with --fresh); choose another --output")
    if args.fresh:
        print(f"--fresh: deleting {RunFolder.describe(ours)}", file=sys.stderr)
        RunFolder.delete(ours)
        write_atomic(folder / RECORD, (json.dumps(record, indent=2) + "\n").encode("utf-8"))
        return "new"
    try:
        previous = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ConfigError(f"{folder / RECORD}: unreadable ({' '.join(str(err).split())}); pass --fresh to delete "
                          f"the loop's files, or choose another --output") from None
    if previous != record:
        old = flat_settings(previous) if isinstance(previous, dict) else {"": previous}
        new = flat_settings(record)
        differing = [f"{key if key.isprintable() else shown(key)} was {shown(old.get(key))}, now "
                     f"{shown(new.get(key))}" for key in sorted(set(old) | set(new)) if old.get(key) != new.get(key)]
        more = f"; and {len(differing) - SHOWN_DIFFERENCES} more" if len(differing) > SHOWN_DIFFERENCES else ""
        raise ConfigError(f"{folder}: holds another PSRO run ({'; '.join(differing[:SHOWN_DIFFERENCES])}{more}); "
                          f"pass --fresh to delete it, or choose another --output")
    return "continue"


def learner_config(base: TrainConfig, args: Args, generation: int, best_responses: list[dict[str, Any]],
                   init_model: dict[str, str] | None) -> TrainConfig:
    """Generation ``generation``'s learner: the base config against its baselines plus ``best_responses``."""
    data = base.to_dict()
    data["opponents"]["baselines"] = [*data["opponents"]["baselines"], *best_responses]
    data["opponents"]["weights"] = [*data["opponents"]["weights"], *[float(args.br_weight)] * len(best_responses)]
    data.update(name=f"{base.name}_g{generation}", seed=base.seed + generation,
                total_timesteps=args.steps_per_generation, max_minutes=args.max_minutes,
                output=str(Path(args.output) / f"gen_{generation}" / "learner"), init_model=init_model)
    return TrainConfig.from_dict(data)


def train_learner(config: TrainConfig, progress: bool) -> dict[str, Any]:
    """Train the generation's learner: a finished run is read back, an interrupted one resumed from its newest
    checkpoint, or started over when it saved none short of its end (killed before the first or the summary)."""
    folder = RunFolder(config.output)
    if (folder.path / SUMMARY).is_file() and (folder.path / FINAL).is_file():
        print(f"{folder.path}: already trained; using that run", file=sys.stderr)
        return folder.read_json(SUMMARY, {})
    if not folder.holds_run():
        return train(config, progress=progress)
    checkpoints, _ = folder.numbered(CHECKPOINTS)
    resumable = bool(checkpoints) and checkpoints[-1][0] < config.total_timesteps
    return train(config, resume=resumable, fresh=not resumable, progress=progress)


def model_spec(config: TrainConfig) -> dict[str, Any]:
    """The ``sb3_model`` agent spec of a run's ``final.zip`` (its SHA-256 from the run's ``hashes.json``)."""
    folder = RunFolder(config.output)
    sha256 = folder.hashes().get(FINAL)
    if sha256 is None:
        raise ConfigError(f"{folder.path}: no SHA-256 recorded for {FINAL}; pass --fresh to start over")
    return {"type": "sb3_model", "path": str((folder.path / FINAL).resolve()), "sha256": sha256,
            "algorithm": config.algorithm, "encoding": config.encoding, "variant": config.variant,
            "num_players": config.num_players, "name": config.name}


def best_response(learner: dict[str, Any], args: Args, generation: int, variant: str) -> tuple[Any, float]:
    """``razz exploit --method rl`` against the learner; its result and the minutes its training took."""
    from razz_env.exploit.bound import TRAINING_FOLDER, run_exploit, write_exploit_reports

    output = Path(args.output) / f"gen_{generation}" / "exploit"
    result = run_exploit(learner, method="rl", deals=args.deals, seed=args.seed + generation, output=str(output),
                         workers=args.workers, variant=variant, steps=args.br_steps, progress=args.progress)
    write_exploit_reports(result, output, plots=args.plot)
    minutes, _ = RunFolder(output / TRAINING_FOLDER).clock_at(result.training["steps"])
    return result, minutes


def run_generation(base: TrainConfig, args: Args, generation: int, before: list[dict[str, Any]]) -> dict[str, Any]:
    """Train generation ``generation``'s learner and its best response; returns (and writes) its record."""
    previous = before[-1] if before else None
    init = base.init_model if previous is None else {"path": previous["learner"]["path"],
                                                     "sha256": previous["learner"]["sha256"]}
    config = learner_config(base, args, generation, [entry["best_response"] for entry in before], init)
    summary = train_learner(config, args.progress)
    learner = model_spec(config)
    learner_minutes, _ = RunFolder(config.output).clock_at(summary["steps"])
    result, br_minutes = best_response(learner, args, generation, base.variant)
    row = result.row()
    steps_before = previous["row"]["learner_steps"] if previous else 0
    entry = {
        "learner": learner, "best_response": {**result.training["spec"], "name": f"br_g{generation}"},
        "row": {"generation": generation, "learner_steps": steps_before + summary["steps"],
                "br_bb_per_100": row["bb_per_100"], "ci95_low": row["ci95_low"], "ci95_high": row["ci95_high"],
                "hands": row["hands"], "br_steps": row["train_steps"],
                "wall_minutes": round(learner_minutes + br_minutes + result.play_seconds / 60, 3)},
    }
    path = Path(args.output) / f"gen_{generation}" / GENERATION
    write_atomic(path, (json.dumps(entry, indent=2) + "\n").encode("utf-8"))
    return entry


def finished_generations(output: str | Path) -> list[dict[str, Any]]:
    """The records of the generations finished in ``output``, in order (stops at the first missing one)."""
    entries = []
    while (path := Path(output) / f"gen_{len(entries)}" / GENERATION).is_file():
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ConfigError(f"{path}: unreadable ({' '.join(str(err).split())}); pass --fresh to start over") \
                from None
        if not _is_generation(entry, len(entries)):
            raise ConfigError(f"{path}: not a generation record written by this loop (expected the learner, "
                              f"best_response and row of generation {len(entries)}); pass --fresh to start over")
        entries.append(entry)
    return entries


def _is_generation(entry: Any, generation: int) -> bool:
    """Whether ``entry`` has the shape :func:`run_generation` writes for ``generation``."""
    if not isinstance(entry, dict) or not all(isinstance(entry.get(key), dict)
                                              for key in ("learner", "best_response", "row")):
        return False
    learner, row = entry["learner"], entry["row"]
    return (all(isinstance(learner.get(key), str) for key in ("path", "sha256")) and set(COLUMNS) <= set(row)
            and row["generation"] == generation and isinstance(row["learner_steps"], int))


def write_table(rows: list[dict[str, Any]], path: str | Path) -> Path:
    """``psro.csv``: one row per generation (written whole, atomically)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({column: row[column] for column in COLUMNS} for row in rows)
    write_atomic(Path(path), buffer.getvalue().encode("utf-8"))
    return Path(path)


def plot_bounds(rows: list[dict[str, Any]], path: str | Path) -> Path:
    """The best response's bb/100 (95% CI) against the learner by generation; returns ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown_rows = [row for row in rows if row["br_bb_per_100"] is not None]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.errorbar([row["generation"] for row in shown_rows], [row["br_bb_per_100"] for row in shown_rows],
                yerr=[[row["br_bb_per_100"] - row["ci95_low"] for row in shown_rows],
                      [row["ci95_high"] - row["br_bb_per_100"] for row in shown_rows]], fmt="o-", capsize=3)
    ax.axhline(0, color="grey", lw=1)
    ax.set_xticks([row["generation"] for row in rows])
    ax.set_xlabel("generation")
    ax.set_ylabel("best response's bb/100 (95% CI)")
    ax.set_title("learned best response against the learner: exploitability lower bound")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return Path(path)


def run_psro(args: Args) -> list[dict[str, Any]]:
    """Run (or continue) the loop to ``args.generations`` generations; returns the ``psro.csv`` rows.

    Everything is checked before the output folder is touched; bad input is a :class:`ConfigError`.
    """
    base = check_args(args)
    plan = prepare_output(args, record_of(args, base))
    entries = finished_generations(args.output)
    if plan == "continue":
        print(f"continuing the PSRO run in {args.output}: {len(entries)} generation(s) finished", file=sys.stderr)
    for generation in range(len(entries), args.generations):
        started = time.perf_counter()
        entries.append(run_generation(base, args, generation, entries))
        row = entries[-1]["row"]
        print(f"generation {generation}: learner {row['learner_steps']:,} steps; best response {row['br_bb_per_100']} "
              f"bb/100 [{row['ci95_low']}, {row['ci95_high']}] over {row['hands']} hands "
              f"({(time.perf_counter() - started) / 60:.1f} min here)", file=sys.stderr)
    rows = [entry["row"] for entry in entries]
    write_table(rows, Path(args.output) / TABLE)
    if args.plot:
        plot_bounds(rows, Path(args.output) / PLOT)
    return rows


def _parser() -> Any:
    import argparse

    defaults = Args()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default=defaults.config, help="the learner's razz train config (YAML)")
    parser.add_argument("--generations", type=int, default=defaults.generations)
    parser.add_argument("--steps-per-generation", type=int, default=defaults.steps_per_generation,
                        dest="steps_per_generation", help="learner training steps per generation")
    parser.add_argument("--br-steps", type=int, default=defaults.br_steps, dest="br_steps",
                        help="training steps of each best response (razz exploit --method rl --steps)")
    parser.add_argument("--br-weight", type=float, default=defaults.br_weight, dest="br_weight",
                        help="pool weight of each best response (beside the base config's weights)")
    parser.add_argument("--deals", type=int, default=defaults.deals, help="duplicate deals of each best response's "
                        "match against the learner")
    parser.add_argument("--seed", type=int, default=defaults.seed, help="best responses' seed (plus the generation)")
    parser.add_argument("--max-minutes", type=float, dest="max_minutes",
                        help="cap on each generation's learner training (replaces the base config's max_minutes)")
    parser.add_argument("--workers", type=int, default=defaults.workers, help="worker processes of each match")
    parser.add_argument("--output", default=defaults.output)
    parser.add_argument("--fresh", action="store_true", help="delete the loop's earlier files in --output first")
    parser.add_argument("--no-progress", dest="progress", action="store_false")
    parser.add_argument("--no-plot", dest="plot", action="store_false")
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command line: exit code 0, 2 for bad input (one line), 130 when interrupted."""
    args = Args(**vars(_parser().parse_args(argv)))
    try:
        rows = run_psro(args)
    except (ConfigError, UntrustedModelError) as err:
        print(f"psro_razz: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"psro_razz: cannot write the loop's files in {args.output}: {err}", file=sys.stderr)
        return 2
    except (TrainingInterrupted, KeyboardInterrupt):
        print(f"psro_razz: interrupted; what is finished is saved in {args.output}: rerun the same command to "
              f"continue", file=sys.stderr)
        return 130
    print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
