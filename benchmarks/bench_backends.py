"""Tournament throughput on the local and Ray backends, the cost of a block's dispatch, and where a block's time goes.

For each backend (local worker processes, a local Ray cluster) and each worker count in
``--workers`` it plays the same round robin into a fresh temporary folder and reports wall
time, blocks/s, hands/s, the blocks' own play time summed (``play s``) and the share of
worker time spent playing (``busy``); the Ray rows show the cluster's start-up separately. The
per-block overhead is measured with blocks of one deal between two trivial agents: wall
time x workers minus the blocks' own play time, per block. Where the time goes is a
cProfile of one block played in this process, its own time summed by package. Run:
``python benchmarks/bench_backends.py`` (needs ``pip install 'razz-env[ray]'`` for the Ray rows).
The figures feed docs/scaling.md.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import pstats
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from razz_env.evaluate.blocks import run_task
from razz_env.evaluate.config import DEFAULT_AGENTS, TournamentConfig
from razz_env.evaluate.runner import load_results, run_tournament
from razz_env.evaluate.tasks import build_tasks

PACKAGES = (("razz_env/engine", "engine"), ("razz_env/encoding/interface", "observations"),
            ("razz_env/encoding", "encoding"), ("razz_env/evaluate", "harness"), ("razz_env/agents", "agents (Python)"),
            ("torch", "torch"),
            ("stable_baselines3", "sb3"), ("sb3_contrib", "sb3"), ("numpy", "numpy"))


def _config(folder: Path, name: str, agents: tuple, deals: int, block_deals: int, workers: int) -> TournamentConfig:
    return TournamentConfig.from_dict({"name": name, "agents": list(agents), "deals": deals,
                                       "block_deals": block_deals, "workers": workers, "seed": 1,
                                       "output": str(folder / name)})


def throughput(backend: str, workers: int, agents: tuple, deals: int, block_deals: int) -> dict[str, float]:
    """Wall time, blocks/s and hands/s of one fresh round robin (Ray: start-up timed apart)."""
    with tempfile.TemporaryDirectory() as folder:
        config = _config(Path(folder), f"{backend}{workers}", agents, deals, block_deals, workers)
        startup = 0.0
        if backend == "ray":
            import ray

            started = time.perf_counter()
            ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
            startup = time.perf_counter() - started
        try:
            started = time.perf_counter()
            result = run_tournament(config, fresh=True, progress=False, backend=backend)
            wall = time.perf_counter() - started
            played = sum(r["seconds"] for r in load_results(config).values())
        finally:
            if backend == "ray":
                ray.shutdown()
    hands = sum(p.hands for p in result.pairings if p.opponent is not None) / 2
    return {"startup": startup, "wall": wall, "blocks": result.blocks_done, "hands": hands, "played": played}


def overhead_per_block(backend: str, workers: int, blocks: int) -> float:
    """(wall x workers - play time) / blocks, for blocks of one deal between two calling stations."""
    figures = throughput(backend, workers, ("calling_station", {"type": "calling_station", "label": "cs2"}), blocks, 1)
    return (figures["wall"] * workers - figures["played"]) / figures["blocks"]


def driver_cost_per_result(results: int) -> float:
    """Seconds the driver spends on one result: the checks on a worker's reply and the fsynced append."""
    from razz_env.evaluate.ray_backend import checked_reply
    from razz_env.evaluate.results import ResultsFolder

    with tempfile.TemporaryDirectory() as folder:
        config = _config(Path(folder), "driver", ("calling_station", "random"), results, 1, 1)
        tasks = build_tasks(config)
        replies = [("ok", run_task(config, task)) for task in tasks]
        results_folder = ResultsFolder(config, config.output)
        with results_folder.open(True):
            started = time.perf_counter()
            for task, reply in zip(tasks, replies):
                results_folder.append(checked_reply(config, task, reply))
            return (time.perf_counter() - started) / len(tasks)


def profile_block(agents: tuple, block_deals: int) -> dict[str, float]:
    """Own time by package of one block (the first lineup), played in this process."""
    with tempfile.TemporaryDirectory() as folder:
        config = _config(Path(folder), "profile", agents, block_deals, block_deals, 1)
        task = build_tasks(config)[0]
        run_task(config, task)  # models loaded, caches warm
        profiler = cProfile.Profile()
        profiler.enable()
        run_task(config, task)
        profiler.disable()
    shares: dict[str, float] = defaultdict(float)
    for (path, _, _), (_, _, own, _, _) in pstats.Stats(profiler).stats.items():
        label = next((name for part, name in PACKAGES if part in path), "other (Python, builtins)")
        shares[label] += own
    return dict(sorted(shares.items(), key=lambda item: -item[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per pairing (default 200)")
    parser.add_argument("--block-deals", type=int, default=50, help="deals per block (default 50)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts (default 1 2)")
    parser.add_argument("--overhead-blocks", type=int, default=60, help="one-deal blocks for the overhead")
    parser.add_argument("--agents", nargs="+", default=list(DEFAULT_AGENTS),
                        help="the round robin's agents (default: the default tournament's)")
    args = parser.parse_args()
    if len(set(args.agents)) < 2:
        parser.error("--agents: give at least two distinct agents")
    agents = tuple(args.agents)
    backends = ["local"] + (["ray"] if importlib.util.find_spec("ray") else [])
    print(f"round robin of {len(agents)} agents, {args.deals} duplicate deals per pairing, "
          f"{args.block_deals} deals per block")
    print(f"{'backend':8} {'workers':>7} {'start s':>8} {'wall s':>8} {'blocks/s':>9} {'hands/s':>9} "
          f"{'play s':>7} {'busy':>5}")
    for backend in backends:
        for workers in args.workers:
            f = throughput(backend, workers, agents, args.deals, args.block_deals)
            busy = f["played"] / (f["wall"] * workers)
            print(f"{backend:8} {workers:>7} {f['startup']:>8.2f} {f['wall']:>8.2f} {f['blocks'] / f['wall']:>9.2f} "
                  f"{f['hands'] / f['wall']:>9.0f} {f['played']:>7.2f} {busy:>5.0%}")
    print(f"\nper-block overhead ({args.overhead_blocks} blocks of 1 deal, calling station vs calling station)")
    for backend in backends:
        for workers in args.workers:
            seconds = overhead_per_block(backend, workers, args.overhead_blocks)
            print(f"{backend:8} {workers:>7} {1000 * seconds:>8.1f} ms")
    print(f"\ndriver cost per result (checks + fsynced append): "
          f"{1000 * driver_cost_per_result(args.overhead_blocks):.2f} ms")
    print(f"\nwhere a block's time goes (own time by package, one block of {args.block_deals} deals in this process)")
    lineups = ((agents[3], agents[4]), (agents[2], agents[5])) if len(agents) >= 6 else ((agents[0], agents[1]),)
    for lineup_agents in lineups:
        shares = profile_block(lineup_agents, args.block_deals)
        total = sum(shares.values())
        print(f"  {lineup_agents[0]} vs {lineup_agents[1]}: {total:.2f} s: "
              + ", ".join(f"{name} {share / total:.0%}" for name, share in shares.items() if share / total >= 0.02))


if __name__ == "__main__":
    main()
