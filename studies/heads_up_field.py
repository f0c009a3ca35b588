"""Duplicate heads-up evaluation of one agent against each baseline and exploiter (razz, or ``--variant``).

One ``razz tournament`` per opponent (a two-agent round robin, so only the pairing that matters is played),
all on the same seed and hence the same deals; the agent's row of each ``pairings.csv`` is gathered into
``results.csv`` in the output folder. The agent is a registered name (``--agent ppo_razz``) or a run folder
(``--run runs/<name>``), whose ``final.zip`` (or ``--model``) is loaded by the SHA-256 that the run's
``hashes.json`` recorded. The zoo pages (``docs/zoo/``) give the figures it measured.

    python studies/heads_up_field.py --agent ppo_razz --out runs/field/ppo_razz
    python studies/heads_up_field.py --run runs/ppo_razz_pool --out runs/field/ppo_razz_pool
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from razz_env.acceptance import agent_under_test, play_tournament, write_results
from razz_env.command_line import run_script
from razz_env.train.config import check_agent_spec

OPPONENTS = ("random", "calling_station", "razz_heuristic", "monte_carlo",
             "maniac", "check_raiser", "board_bully", "rock", "tag")


@dataclass
class Args:
    """Who is evaluated, against whom, on how many deals, where."""

    out: Path
    """results folder (one tournament per opponent)"""
    agent: str | None = None
    """a registered agent name, e.g. ppo_razz (or give --run)"""
    run: Path | None = None
    """a razz train run folder whose model is evaluated (or give --agent)"""
    model: str = "final.zip"
    """with --run: the model file, by its key in the run's hashes.json"""
    opponents: tuple[str, ...] = OPPONENTS
    """the opponents, one heads-up match each"""
    deals: int = 4000
    """duplicate deals per opponent (2 hands each)"""
    seed: int = 70001
    """tournament seed: the same deals against every opponent"""
    variant: str = "razz"
    """the game played"""


def main(args: Args) -> int:
    """Evaluate; 0, or the exit status of the first tournament that failed (it said why on stderr)."""
    agent = agent_under_test(args.agent, args.run, args.model, args.deals, 2)
    for index, spec in enumerate([agent, *args.opponents]):  # every agent checked before anything is written
        check_agent_spec("--agent" if index == 0 else f"--opponents[{index - 1}]", spec, args.variant, 2)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for opponent in args.opponents:
        status, seconds = play_tournament({"name": opponent, "variant": args.variant, "agents": [agent, opponent],
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


if __name__ == "__main__":
    run_script(main, Args, __doc__)
