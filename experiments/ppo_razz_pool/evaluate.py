"""Duplicate heads-up evaluation of one razz agent against each baseline and exploiter.

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
from razz_env.training.config import check_agent_spec  # noqa: E402

OPPONENTS = ("random", "calling_station", "razz_heuristic", "monte_carlo",
             "maniac", "check_raiser", "board_bully", "rock", "tag")


@dataclass
class Args:
    """Who is evaluated (a registered name or a run folder), against whom, on how many deals, where."""

    out: Path
    agent: str | None = None
    run: Path | None = None
    model: str = "final.zip"
    opponents: list[str] = field(default_factory=lambda: list(OPPONENTS))
    deals: int = 4000
    seed: int = 70001


def run_agent(run: Path, model: str) -> dict[str, Any]:
    """The ``sb3_model`` spec of a run's model file, by the SHA-256 its ``hashes.json`` recorded."""
    try:
        config = json.loads((run / "config.json").read_text())
        hashes = json.loads((run / "hashes.json").read_text())
    except (OSError, ValueError) as err:
        raise ValueError(f"--run {run}: not a razz train run folder with config.json and hashes.json ({err})") from None
    if model not in hashes:
        finished = [name for name in sorted(hashes) if not name.startswith("snapshots/")]
        raise ValueError(f"--model {model}: not recorded in {run / 'hashes.json'}; its models: {', '.join(finished)}")
    return {"type": "sb3_model", "path": str((run / model).resolve()), "sha256": hashes[model],
            "variant": config["variant"], "num_players": config["num_players"],
            "algorithm": config["algorithm"], "encoding": config["encoding"],
            "name": f"{config['name']}:{Path(model).stem}"}


def main(args: Args) -> int:
    """Evaluate; 0, or the exit status of the first tournament that failed (it said why on stderr)."""
    agent: Any = args.agent if args.agent else run_agent(args.run, args.model)
    for index, spec in enumerate([agent, *args.opponents]):  # every agent checked before anything is written
        try:
            check_agent_spec("--agent" if index == 0 else f"--opponents[{index - 1}]", spec, "razz", 2)
        except ConfigError as err:
            raise ValueError(str(err)) from None
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for opponent in args.opponents:
        config_path = args.out / f"{opponent}.yaml"
        config_path.write_text(yaml.safe_dump({
            "name": opponent, "variant": "razz", "agents": [agent, opponent], "deals": args.deals,
            "block_deals": 500, "seed": args.seed, "workers": 1}))
        started = time.perf_counter()
        command = [sys.executable, "-m", "razz_env.cli", "tournament", "--config", str(config_path),
                   "--output", str(args.out / opponent), "--no-plots", "--quiet"]
        done = subprocess.run(command, stdout=subprocess.DEVNULL)
        if done.returncode:
            return done.returncode
        seconds = time.perf_counter() - started
        with open(args.out / opponent / "pairings.csv", newline="", encoding="utf-8") as handle:
            pairing = next(row for row in csv.DictReader(handle) if row["opponent"] == opponent)
        rows.append({**pairing, "seconds": round(seconds, 1)})
        print(f"{opponent:<16}{float(pairing['bb_per_100']):>9.1f} [{float(pairing['ci95_low']):.1f}, "
              f"{float(pairing['ci95_high']):.1f}]  {pairing['hands']} hands  {seconds:.0f} s", flush=True)
    with open(args.out / "results.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--agent", help="a registered agent name, e.g. ppo_razz")
    who.add_argument("--run", type=Path, help="a razz train run folder")
    parser.add_argument("--model", default=Args.model, help="with --run: the model file (its hashes.json key)")
    parser.add_argument("--opponents", nargs="+", default=list(OPPONENTS))
    parser.add_argument("--deals", type=int, default=Args.deals, help="duplicate deals per opponent (2 hands each)")
    parser.add_argument("--seed", type=int, default=Args.seed)
    parser.add_argument("--out", type=Path, required=True, help="results folder (one tournament per opponent)")
    parsed = parser.parse_args()
    if parsed.deals < 1:
        parser.error(f"--deals: expected a positive number of deals, got {parsed.deals}")
    try:
        sys.exit(main(Args(**vars(parsed))))
    except ValueError as err:
        parser.error(str(err))
