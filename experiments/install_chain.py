"""Install a model of a chain of training runs in the zoo: runs that each started from the one before's model.

A heads-up agent may be trained in phases (``razz train`` runs whose ``init_model`` is the previous
run's final model or a checkpoint). This installs one model of the last run, as
``experiments/train_zoo.py`` does for one run: checked against the run's ``hashes.json``, copied into
``razz_env/agents/zoo/<name>.zip`` without its optimizer's moments, and entered in ``razz_env/agents/zoo/manifest.json``
with the chain's configs and commands, its steps and training minutes summed over the chain, and
the figures it was accepted by. A chain whose first run started from an imitation warm start (an
``init_model`` next to an ``imitation.json`` of ``experiments/imitation_warm_start.py`` with its SHA-256)
gets the imitation's command first and its minutes added (``--acceptance``: a ``results.csv`` of
``experiments/ppo_razz_pool/evaluate.py``). The chain may go on with stages of ``razz_env/train/psro.py``
(``--psro CONFIG:OUTPUT:GENERATION``, after the ``--configs`` runs): the loop's learners of generations 0 to
GENERATION join the chain, its command is spelled from the loop's ``psro.json``, and the minutes of the
best responses that trained the model count in the total: each loop's best responses before its last
generation, and the last one when a later stage's or ``--then`` config's pool holds it (by SHA-256). ``--then``
names ``razz train`` configs that continue the last loop's learner.
The chain's learning curve goes to ``--curve``. A name already in the zoo is refused unless
``--overwrite-zoo``; runs that do not continue each other are refused, before anything is written.
Run from the repository root:

    python experiments/install_chain.py --configs configs/train_ppo_razz_pool_noexploit.yaml \\
        configs/train_ppo_razz_phase2.yaml configs/train_ppo_razz_phase3.yaml \\
        --model checkpoints/step_1750016.zip --name ppo_razz_pool \\
        --acceptance runs/accept/ppo_razz_pool/results.csv --curve experiments/ppo_razz_pool/learning_curve.png
    python experiments/install_chain.py --configs configs/train_ppo_razz_pool_noexploit.yaml ... \\
        --psro configs/train_ppo_razz_psro.yaml:runs/psro_razz_w2:2 --name ppo_razz_psro
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make this checkout importable (experiments, razz_env, agents)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments import psro_razz, train_zoo  # noqa: E402
from experiments.imitation_warm_start import RECORD, command_of  # noqa: E402
from razz_env.agents.sb3_agent import UntrustedModelError  # noqa: E402
from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.train.config import TrainConfig  # noqa: E402
from razz_env.train.curves import KEYS, plot_run, read_chain  # noqa: E402
from razz_env.train.runfolder import CONFIG, FINAL, RunFolder  # noqa: E402

FIGURES = ("bb_per_100", "ci95_low", "ci95_high")


@dataclass
class Args:
    """The chain's configs in training order, which model of the last run, and under which name."""

    configs: list[str]
    name: str
    psro: list[str] = dataclasses.field(default_factory=list)
    then: list[str] = dataclasses.field(default_factory=list)
    model: str = FINAL
    acceptance: str | None = None
    selected_by: str = "final model"
    curve: str | None = None
    overwrite_zoo: bool = False


@dataclass(frozen=True)
class PsroStage:
    """Generations 0 to ``generation`` of an ``razz_env/train/psro.py`` loop run on ``config`` into ``output``."""

    config: str
    base: TrainConfig
    output: Path
    generation: int
    record: dict[str, Any]

    @classmethod
    def parse(cls, text: str) -> PsroStage:
        """``CONFIG:OUTPUT:GENERATION``, checked against the loop's files: its ``psro.json`` records ``CONFIG`` as
        loaded and the generation is finished."""
        parts = text.rsplit(":", 2)
        if len(parts) != 3 or not parts[2].isdigit():
            raise ConfigError(f"--psro {text!r}: expected CONFIG:OUTPUT:GENERATION (a generation number)")
        config, output, generation = parts[0], Path(parts[1]), int(parts[2])
        base = TrainConfig.from_yaml(config)
        try:
            record = json.loads((output / psro_razz.RECORD).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise ConfigError(f"--psro {text!r}: {output} holds no readable {psro_razz.RECORD} of "
                              f"razz_env/train/psro.py ({' '.join(str(err).split())})") from None
        if not isinstance(record, dict) or record.get("base_config") != psro_razz.base_record(base):
            raise ConfigError(f"--psro {text!r}: {config} is not the base config the loop in {output} recorded in "
                              f"its {psro_razz.RECORD}")
        finished = len(psro_razz.finished_generations(output))
        if generation >= finished:
            raise ConfigError(f"--psro {text!r}: the loop in {output} finished generations 0 to {finished - 1}, "
                              f"not {generation}")
        return cls(config, base, output, generation, record)

    def runs(self) -> list[Path]:
        """The learner run folders of generations 0 to ``generation``."""
        return [self.output / f"gen_{g}" / "learner" for g in range(self.generation + 1)]

    def last_best_response(self) -> str:
        """The SHA-256 of generation ``generation``'s best response (its ``generation.json``)."""
        record = json.loads((self.output / f"gen_{self.generation}" / "generation.json").read_text(encoding="utf-8"))
        return record["best_response"]["sha256"]

    def best_response_seconds(self, generations: int) -> float:
        """Training seconds of the best responses of the first ``generations`` generations."""
        from razz_env.exploit.bound import TRAINING_FOLDER

        seconds = 0.0
        for g in range(generations):
            folder = RunFolder(self.output / f"gen_{g}" / "exploit" / TRAINING_FOLDER)
            steps = folder.read_json("summary.json", {}).get("steps")
            seconds += folder.clock_at(int(steps))[1] * 60
        return seconds


def pool_hashes(config: TrainConfig) -> set[str]:
    """The SHA-256 of every model in ``config``'s opponent pool."""
    return {spec["sha256"] for spec in config.opponents.baselines if isinstance(spec, dict) and "sha256" in spec}


def chain_summary(runs: list[Path], model: str) -> dict[str, Any]:
    """Steps, training seconds and env steps/s of ``model`` of the last run, counted from the first run's start."""
    _, starts = read_chain(runs)
    offset = starts[-1] if starts else dict.fromkeys(KEYS, 0.0)
    try:
        steps = RunFolder(runs[-1]).model_steps(model)
    except ConfigError as err:
        raise ConfigError(f"--model {err}") from None
    _, train_minutes = RunFolder(runs[-1]).clock_at(steps)
    total, seconds = int(offset["steps"]) + steps, (offset["train_minutes"] + train_minutes) * 60
    return {"steps": total, "train_seconds": round(seconds, 1), "steps_per_second": round(total / seconds, 1)}


def imitation_start(config: TrainConfig) -> dict[str, Any] | None:
    """The ``imitation.json`` record of the model ``config`` starts from, when that model is an imitation warm
    start (the record sits beside it and names its SHA-256); else None."""
    if config.init_model is None:
        return None
    record_path = Path(config.init_model["path"]).parent / RECORD
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and record.get("sha256") == config.init_model["sha256"] else None


def acceptance_rows(path: str) -> list[dict[str, Any]]:
    """The opponent rows of an ``evaluate.py`` ``results.csv``: bb/100 with its 95% CI and hands."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        return [{"opponent": row["opponent"], **{key: float(row[key]) for key in FIGURES}, "hands": int(row["hands"])}
                for row in rows]
    except (OSError, KeyError, ValueError, TypeError) as err:
        raise ConfigError(f"--acceptance {path}: not a results.csv of evaluate.py "
                          f"({' '.join(str(err).split())})") from None


def main(args: Args) -> dict[str, Any]:
    """Check the chain, the model and the name, then install; returns the manifest entry."""
    if not args.configs and not args.psro:
        raise ConfigError("the chain is empty: give --configs, --psro or both")
    if args.then and not args.psro:
        raise ConfigError("--then continues a PSRO loop's learner: give --psro too (or put the configs in --configs)")
    stages = [PsroStage.parse(text) for text in args.psro]
    configs = [TrainConfig.from_yaml(path) for path in args.configs]
    then = [TrainConfig.from_yaml(path) for path in args.then]
    runs = ([Path(config.output) for config in configs] + [run for stage in stages for run in stage.runs()]
            + [Path(config.output) for config in then])
    first = configs[0] if configs else TrainConfig.from_yaml(str(runs[0] / CONFIG))
    if then:
        last_path, last = args.then[-1], then[-1]
    elif stages:  # the last generation's learner config (its pool holds the loop's best responses)
        last_path, last = stages[-1].config, TrainConfig.from_yaml(str(runs[-1] / CONFIG))
    else:
        last_path, last = args.configs[-1], configs[-1]
    if not re.fullmatch(r"[a-z][a-z0-9_]*", args.name):
        raise ConfigError(f"--name {args.name!r}: expected lowercase letters, digits and underscores")
    if not args.overwrite_zoo and train_zoo.shipped([args.name]):
        raise ConfigError(f"{args.name} already in {train_zoo.ZOO}; pass --overwrite-zoo to replace it")
    summary = chain_summary(runs, args.model)
    RunFolder(runs[-1]).verified_bytes(args.model)
    final_eval = acceptance_rows(args.acceptance) if args.acceptance else []
    config = dataclasses.replace(last, name=args.name)
    commands = [train_zoo.train_commands(args.configs)] if args.configs else []
    imitation = imitation_start(first)
    if imitation is not None:
        summary["train_seconds"] += imitation["seconds"]
        commands.insert(0, command_of(imitation))
    later_pools = [pool_hashes(config) for config in [stage.base for stage in stages] + then]
    for index, stage in enumerate(stages):
        # The loop's last best response trained the model only if a later pool holds it.
        held = any(stage.last_best_response() in pool for pool in later_pools[index + 1:])
        summary["train_seconds"] += stage.best_response_seconds(stage.generation + 1 if held else stage.generation)
        commands.append(psro_razz.command_of(stage.record, stage.config, stage.generation + 1, stage.output))
    if args.then:
        commands.append(train_zoo.train_commands(args.then))
    summary["train_seconds"] = round(summary["train_seconds"], 1)
    train_zoo.install(config, {**summary, "final_eval": final_eval, "selected_by": args.selected_by},
                      last_path, args.model, command=" && ".join(commands))
    if args.curve:
        plot_run(runs, Path(args.curve), args.name)
    return json.loads((train_zoo.ZOO / "manifest.json").read_text(encoding="utf-8"))[args.name]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", nargs="+", default=[], help="the chain's razz train configs, in order")
    parser.add_argument("--psro", nargs="+", default=[], metavar="CONFIG:OUTPUT:GENERATION",
                        help="psro_razz.py stages after the configs: base config, output folder, last generation")
    parser.add_argument("--then", nargs="+", default=[], metavar="CONFIG",
                        help="razz train configs that continue the last --psro loop's learner, in order")
    parser.add_argument("--name", required=True, help="the agent's name in the zoo")
    parser.add_argument("--model", default=FINAL, help="the last run's model: final.zip or checkpoints/step_N.zip")
    parser.add_argument("--acceptance", help="results.csv of experiments/ppo_razz_pool/evaluate.py")
    parser.add_argument("--selected-by", default=Args.selected_by, help="how the model was chosen, in words")
    parser.add_argument("--curve", help="where to plot the chain's learning curve (PNG)")
    parser.add_argument("--overwrite-zoo", action="store_true", help="replace an agent of that name in the zoo")
    try:
        main(Args(**vars(parser.parse_args())))
    except (ConfigError, UntrustedModelError) as err:
        print(f"install_chain: {err}", file=sys.stderr)
        sys.exit(2)
