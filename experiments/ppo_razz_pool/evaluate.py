"""Duplicate heads-up evaluation of one agent against each baseline and exploiter (razz, or ``--variant``).

One ``razz tournament`` per opponent (a two-agent round robin, so only the pairing that matters is
played), all on the same seed and hence the same deals; the agent's row of each ``pairings.csv`` is
gathered into ``results.csv`` in the output folder. The agent is a registered name (``ppo_razz``) or
a run folder (``runs/<name>``), whose ``final.zip`` (or ``--model``) is loaded by the SHA-256 that the
run's ``hashes.json`` recorded.

    python experiments/ppo_razz_pool/evaluate.py --agent ppo_razz --out runs/eval_pool/ppo_razz
    python experiments/ppo_razz_pool/evaluate.py --run runs/ppo_razz_pool --out runs/eval_pool/ppo_razz_pool
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

if __package__ in (None, ""):  # run as a script: make this checkout importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.train.config import check_agent_spec  # noqa: E402

OPPONENTS = ("random", "calling_station", "razz_heuristic", "monte_carlo",
             "maniac", "check_raiser", "board_bully", "rock", "tag")


@dataclass
class AgentArgs:
    """Who is evaluated (a registered name, or a run folder's model), on how many deals and seed, where."""

    out: Path
    agent: str | None = None
    run: Path | None = None
    model: str = "final.zip"
    deals: int = 4000
    seed: int = 70001


@dataclass
class Args(AgentArgs):
    """:class:`AgentArgs` and the opponents, one heads-up match each."""

    opponents: list[str] = field(default_factory=lambda: list(OPPONENTS))
    variant: str = "razz"


def run_agent(run: Path, model: str, seats: int = 2) -> dict[str, Any]:
    """The ``sb3_model`` spec of a run's model file at a table of ``seats``, by the SHA-256 its ``hashes.json``
    recorded."""
    try:
        config = json.loads((run / "config.json").read_text())
        hashes = json.loads((run / "hashes.json").read_text())
    except (OSError, ValueError) as err:
        raise ValueError(f"--run {run}: not a razz train run folder with config.json and hashes.json ({err})") from None
    if model not in hashes:
        finished = [name for name in sorted(hashes) if not name.startswith("snapshots/")]
        raise ValueError(f"--model {model}: not recorded in {run / 'hashes.json'}; its models: {', '.join(finished)}")
    return {"type": "sb3_model", "path": str((run / model).resolve()), "sha256": hashes[model],
            "variant": config["variant"], "num_seats": seats,
            "algorithm": config["algorithm"], "encoding": config["encoding"],
            "name": f"{config['name']}:{Path(model).stem}"}


def play(config: dict[str, Any], folder: Path) -> tuple[int, float]:
    """Write ``config`` next to ``folder`` (``<folder>.yaml``) and play it with ``razz tournament`` into ``folder``,
    quietly and without plots: the exit status and the seconds it took."""
    config_path = folder.with_suffix(".yaml")
    config_path.write_text(yaml.safe_dump(config))
    started = time.perf_counter()
    command = [sys.executable, "-m", "razz_env.cli", "tournament", "--config", str(config_path),
               "--output", str(folder), "--no-plots", "--quiet"]
    done = subprocess.run(command, stdout=subprocess.DEVNULL)
    return done.returncode, time.perf_counter() - started


def write_results(rows: list[dict[str, Any]], out: Path) -> None:
    """``rows`` as ``results.csv`` in ``out``."""
    with open(out / "results.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def main(args: Args) -> int:
    """Evaluate; 0, or the exit status of the first tournament that failed (it said why on stderr)."""
    agent: Any = args.agent if args.agent else run_agent(args.run, args.model)
    for index, spec in enumerate([agent, *args.opponents]):  # every agent checked before anything is written
        try:
            check_agent_spec("--agent" if index == 0 else f"--opponents[{index - 1}]", spec, args.variant, 2)
        except ConfigError as err:
            raise ValueError(str(err)) from None
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for opponent in args.opponents:
        status, seconds = play({"name": opponent, "variant": args.variant, "agents": [agent, opponent],
                                "deals": args.deals, "block_deals": 500, "seed": args.seed, "workers": 1},
                               args.out / opponent)
        if status:
            return status
        with open(args.out / opponent / "pairings.csv", newline="", encoding="utf-8") as handle:
            pairing = next(row for row in csv.DictReader(handle) if row["opponent"] == opponent)
        rows.append({**pairing, "seconds": round(seconds, 1)})
        print(f"{opponent:<16}{float(pairing['bb_per_100']):>9.1f} [{float(pairing['ci95_low']):.1f}, "
              f"{float(pairing['ci95_high']):.1f}]  {pairing['hands']} hands  {seconds:.0f} s", flush=True)
    write_results(rows, args.out)
    return 0


def command_line(description: str, args_type: type[AgentArgs], deals_help: str,
                 out_help: str) -> argparse.ArgumentParser:
    """The arguments every evaluation script shares: who (``--agent`` or ``--run`` with ``--model``), ``--deals``,
    ``--seed`` and ``--out``, with ``args_type``'s defaults."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--agent", help="a registered agent name, e.g. ppo_razz")
    who.add_argument("--run", type=Path, help="a razz train run folder")
    parser.add_argument("--model", default=args_type.model, help="with --run: the model file (its hashes.json key)")
    parser.add_argument("--deals", type=int, default=args_type.deals, help=deals_help)
    parser.add_argument("--seed", type=int, default=args_type.seed)
    parser.add_argument("--out", type=Path, required=True, help=out_help)
    return parser


def run_command_line(parser: argparse.ArgumentParser, args_type: type[AgentArgs], run: Any) -> None:
    """Parse, check ``--deals`` and exit with ``run(args_type(...))``'s status; bad input exits 2 naming it."""
    parsed = parser.parse_args()
    if parsed.deals < 1:
        parser.error(f"--deals: expected a positive number of deals, got {parsed.deals}")
    try:
        sys.exit(run(args_type(**vars(parsed))))
    except ValueError as err:
        parser.error(str(err))


if __name__ == "__main__":
    cli = command_line(__doc__, Args, "duplicate deals per opponent (2 hands each)",
                       "results folder (one tournament per opponent)")
    cli.add_argument("--opponents", nargs="+", default=list(OPPONENTS))
    cli.add_argument("--variant", default=Args.variant, help="the game played (default razz)")
    run_command_line(cli, Args, main)
