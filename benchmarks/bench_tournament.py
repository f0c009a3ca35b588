"""Tournaments on the scalar engine against the batched one (``engine: scalar`` vs ``auto``), same seeds.

Two measures, each printing whether both engines gave the same results (result lines without timings):

- Whole tournaments, wall time and CPU time (this process and its workers; each run in a fresh temporary
  folder, once per engine per round, engines alternating, best kept): ``default``, the embedded default
  ``razz tournament`` (README's first command: the shipped agents, 4,000 deals per pairing, 2 workers; every
  shipped agent acts in batch, so every pairing plays on the batched engine under ``auto``), and ``batchable``
  (``random``, ``calling_station``, ``ppo_razz``, ``qrdqn_razz``). This includes each worker's start
  (imports, model loading).
- Each pairing of the ``batchable`` agents in this one warm process: one block of ``--block-deals`` deals
  (``run_task``) per engine, best of ``--rounds``, in hands per CPU second.

Run: ``python benchmarks/bench_tournament.py [--deals 4000] [--workers 2] [--rounds 3] [--only pairings]``
(needs ``pip install 'razz-env[batch]'``; the first use compiles the kernels, done here before timing).
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from itertools import combinations
from pathlib import Path
from typing import Any

from razz_env.evaluate.blocks import play_deals_batched, run_task
from razz_env.evaluate.config import DEFAULT_AGENTS, TournamentConfig
from razz_env.evaluate.runner import RESULTS_FILE, run_tournament
from razz_env.evaluate.tasks import Task

ENGINES = ("scalar", "auto")
TOURNAMENTS = {"default": DEFAULT_AGENTS, "batchable": ("random", "calling_station", "ppo_razz", "qrdqn_razz")}


def _warm_up() -> None:
    """Compile (or load from the disk cache) the batched kernels once, outside the timings."""
    from razz_env.agents.registry import make_agent
    from razz_env.engine.config import HandConfig

    play_deals_batched([make_agent("random"), make_agent("ppo_razz")], HandConfig.create("razz"), 2, "warm")


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the worker processes, once stopped)."""
    return sum(getattr(resource.getrusage(who), field) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for field in ("ru_utime", "ru_stime"))


def _run(agents: tuple, engine: str, deals: int, workers: int,
         folder: Path) -> tuple[float, float, list[dict[str, Any]]]:
    """Wall and CPU seconds of one fresh tournament, and its result lines in task order."""
    config = TournamentConfig.from_dict({"name": engine, "agents": list(agents), "deals": deals, "workers": workers,
                                         "engine": engine, "output": str(folder / engine)})
    cpu, started = _cpu_seconds(), time.perf_counter()
    run_tournament(config, fresh=True, progress=False)
    wall, cpu = time.perf_counter() - started, _cpu_seconds() - cpu
    lines = (folder / engine / RESULTS_FILE).read_text().splitlines()
    return wall, cpu, sorted((json.loads(line) for line in lines), key=lambda r: (r["task_id"], r["deals"]))


def _without_timing(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


def tournament(name: str, agents: tuple, deals: int, workers: int, rounds: int) -> None:
    """Wall and CPU time of a whole tournament on each engine (each the best of ``rounds``)."""
    wall: dict[str, float] = {}
    cpu: dict[str, float] = {}
    results: dict[str, list[dict[str, Any]]] = {}
    for _ in range(rounds):
        for engine in ENGINES:
            with tempfile.TemporaryDirectory() as folder:
                seconds, cpu_seconds, results[engine] = _run(agents, engine, deals, workers, Path(folder))
            wall[engine] = min(wall.get(engine, float("inf")), seconds)
            cpu[engine] = min(cpu.get(engine, float("inf")), cpu_seconds)
    hands = sum(r["hands"] for r in results["scalar"])
    same = _without_timing(results["scalar"]) == _without_timing(results["auto"])
    print(f"\n{name}: {len(agents)} agents, {deals:,} deals per pairing, {workers} workers, {hands:,} hands; "
          f"identical results: {'yes' if same else 'NO'}")
    print("| engine | wall s | hands/s | x scalar | CPU s | x scalar |\n|---|---:|---:|---:|---:|---:|")
    for engine in ENGINES:
        print(f"| {engine} | {wall[engine]:.1f} | {hands / wall[engine]:,.0f} | {wall['scalar'] / wall[engine]:.2f} "
              f"| {cpu[engine]:.1f} | {cpu['scalar'] / cpu[engine]:.2f} |")


def pairings(agents: tuple, block_deals: int, rounds: int) -> None:
    """Each pairing's block played in this warm process on each engine (best of ``rounds``), in hands/s of CPU."""
    print(f"\npairings in one warm process: one block of {block_deals} deals (duplicate: {2 * block_deals} hands), "
          f"CPU time, best of {rounds}")
    print("| pairing | scalar hands/s | batched hands/s | x scalar | identical |\n|---|---:|---:|---:|---|")
    for lineup in combinations(range(len(agents)), 2):
        configs = {engine: TournamentConfig.from_dict({"agents": list(agents), "block_deals": block_deals,
                                                       "deals": block_deals, "engine": engine}) for engine in ENGINES}
        task = Task.for_block(configs["scalar"], lineup, 0, block_deals)
        best = dict.fromkeys(ENGINES, float("inf"))
        results = {}
        for _ in range(rounds):
            for engine in ENGINES:
                started = time.process_time()
                results[engine] = run_task(configs[engine], task)
                best[engine] = min(best[engine], time.process_time() - started)
        hands = results["scalar"]["hands"]
        same = _without_timing([results["scalar"]]) == _without_timing([results["auto"]])
        print(f"| {agents[lineup[0]]} vs {agents[lineup[1]]} | {hands / best['scalar']:,.0f} | "
              f"{hands / best['auto']:,.0f} | {best['scalar'] / best['auto']:.2f} | {'yes' if same else 'NO'} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000, help="deals per pairing (default 4000, as the default)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--block-deals", type=int, default=250, help="deals of the warm per-pairing block")
    parser.add_argument("--rounds", type=int, default=3, help="runs per engine (whole tournaments: 1); best kept")
    parser.add_argument("--only", choices=[*TOURNAMENTS, "pairings"], help="one measure only")
    args = parser.parse_args()
    _warm_up()
    if args.only in (None, "pairings"):
        pairings(TOURNAMENTS["batchable"], args.block_deals, args.rounds)
    for name, agents in TOURNAMENTS.items():
        if args.only in (None, name):
            tournament(name, agents, args.deals, args.workers, 1 if args.only is None else args.rounds)


if __name__ == "__main__":
    main()
