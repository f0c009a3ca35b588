"""Solving MiniRazz on one core: tree size, CFR+ (and DCFR) convergence, memory, and exploitability of agents.

Builds the rank game of ``--game`` (default ``minirazz``), prints its size and the bytes of its
arrays, then runs each ``--method`` until the average policy is below ``--target-mbb`` (default
1 mbb/hand) or ``--max-seconds`` of iterating have passed, measuring the exploitability every
``--check-every`` iterations: iterations per second, the time to the target, and the curve
(exploitability against iterations and seconds; ``--csv`` writes every point). Then it times the
exact exploitability of agents through the ordinary agent interface (``policy_from_agent``:
one query per information set, batched): the random agent, a small torch MLP (random weights,
suit-free ``ranks`` encoding) and an untrained MaskablePPO (sb3-contrib) on the MiniRazz
single-agent environment. Peak memory is the process's maximum resident set size.

One core: OMP/MKL/OpenBLAS threads and torch threads are set to 1 before numpy loads.

Run: ``python benchmarks/bench_solve.py [--game minirazz] [--method cfr+ dcfr] [--target-mbb 1]
[--max-seconds 300] [--check-every 10] [--agents random mlp ppo] [--csv curve.csv]``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import csv
import resource
import time
from collections.abc import Sequence

import numpy as np

from razz_env.encoding.interface import Declaration, Observation
from razz_env.solve.agent import policy_from_agent
from razz_env.solve.best_response import exploitability
from razz_env.solve.cfr import SOLVERS, CFRSolver
from razz_env.solve.game import Game, build_game


def array_bytes(*holders: object) -> int:
    """Bytes of every numpy array held by ``holders`` (attributes, and arrays inside lists and tuples)."""
    total = 0
    for holder in holders:
        for value in vars(holder).values():
            stack = [value]
            while stack:
                item = stack.pop()
                if isinstance(item, np.ndarray):
                    total += item.nbytes
                elif isinstance(item, (list, tuple)):
                    stack.extend(item)
    return total


def peak_mib() -> float:
    """The process's peak resident memory so far, MiB (``ru_maxrss`` is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def solve(game: Game, method: str, target: float, max_seconds: float, check_every: int) -> CFRSolver:
    """Run ``method`` to ``target`` mbb/hand (or ``max_seconds``), printing each checkpoint."""
    solver = SOLVERS[method](game)
    reached: list[float] = []

    def report(point) -> None:
        if point.mbb < target and not reached:
            reached.append(point.seconds)
        print(f"  {method:5} it {point.iteration:6d}  {point.seconds:8.1f} s  {point.mbb:10.4f} mbb/hand", flush=True)

    solver.run(target_mbb=target, seconds=max_seconds, check_every=check_every, callback=report)
    rate = solver.iterations / solver.seconds
    when = f"{reached[0]:.1f} s" if reached else f"not within {max_seconds:.0f} s"
    print(f"{method}: {solver.iterations} iterations in {solver.seconds:.1f} s ({rate:.2f} it/s); "
          f"below {target} mbb/hand: {when}; arrays {array_bytes(solver, solver.sweeper) / 2**20:.0f} MiB; "
          f"peak memory {peak_mib():.0f} MiB")
    return solver


def make_mlp_agent(game: Game):
    """A two-layer torch MLP with random weights over the ``ranks`` encoding: a stand-in learned agent."""
    import torch

    from razz_env.encoding import make_encoder

    torch.manual_seed(0)
    size = make_encoder("ranks", game.config).layout.size

    class MLPAgent:
        name = "mlp"
        declaration = Declaration(observes=("vector",), encoding="ranks", variants=(game.variant.name,),
                                  seat_counts=(2,), states_policy=True, acts_in_batch=True)
        net = torch.nn.Sequential(torch.nn.Linear(size, 128), torch.nn.ReLU(), torch.nn.Linear(128, 5))

        def reset(self, seat: int, num_seats: int, variant: str) -> None:
            """Nothing to forget between hands."""

        def action_probabilities_batch(self, observations: Sequence[Observation]) -> np.ndarray:
            vectors = torch.as_tensor(np.stack([o.vector for o in observations]))
            masks = torch.as_tensor(np.stack([o.action_mask for o in observations])).bool()
            with torch.no_grad():
                logits = self.net(vectors).masked_fill(~masks, float("-inf"))
            return torch.softmax(logits, dim=1).double().numpy()

        def action_probabilities(self, observation: Observation) -> np.ndarray:
            return self.action_probabilities_batch([observation])[0]

        def act_batch(self, observations: Sequence[Observation]) -> list[int]:
            return [int(row.argmax()) for row in self.action_probabilities_batch(observations)]

        def act(self, observation: Observation) -> int:
            return self.act_batch([observation])[0]

    return MLPAgent()


def make_ppo_agent(game: Game):
    """An untrained MaskablePPO (64x64 MLP, ``ranks`` encoding) on the MiniRazz single-agent env, stochastic."""
    from sb3_contrib import MaskablePPO

    from razz_env.agents.sb3_agent import SB3Agent
    from razz_env.envs.single_agent import SingleAgentEnv

    env = SingleAgentEnv(variant=game.variant.name, encoding="ranks")
    model = MaskablePPO("MlpPolicy", env, seed=0, policy_kwargs={"net_arch": [64, 64]}, device="cpu")
    return SB3Agent(model, name="ppo_untrained", deterministic=False, encoding="ranks")


def bench_agent(game: Game, name: str) -> None:
    """Time the exact exploitability of agent ``name`` (querying plus best responses)."""
    if name in ("mlp", "ppo"):
        import torch

        torch.set_num_threads(1)
    if name == "random":
        from razz_env.agents.simple import RandomAgent

        agent = RandomAgent(seed=0)
    else:
        agent = make_mlp_agent(game) if name == "mlp" else make_ppo_agent(game)
    started = time.perf_counter()
    policy = policy_from_agent(game, agent)
    queried = time.perf_counter() - started
    result = exploitability(game, policy)
    total = time.perf_counter() - started
    print(f"agent {name:8}: {result.mbb:9.1f} mbb/hand exploitable; {total:5.1f} s "
          f"({queried:.1f} s asking {game.num_infosets} information sets, {total - queried:.1f} s best responses); "
          f"peak memory {peak_mib():.0f} MiB", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="minirazz")
    parser.add_argument("--method", nargs="+", default=["cfr+"], choices=sorted(SOLVERS))
    parser.add_argument("--target-mbb", type=float, default=1.0)
    parser.add_argument("--max-seconds", type=float, default=300.0)
    parser.add_argument("--check-every", type=int, default=10)
    parser.add_argument("--agents", nargs="*", default=["random", "mlp", "ppo"], choices=["random", "mlp", "ppo"])
    parser.add_argument("--csv", help="write every checkpoint (method, iteration, seconds, mbb) here")
    args = parser.parse_args()

    started = time.perf_counter()
    game = build_game(args.game)
    built = time.perf_counter() - started
    counts = game.counts()
    print(f"{game.describe()}: built in {built:.1f} s; " + ", ".join(f"{k} {v:,}" for k, v in counts.items()))
    print(f"tree arrays {array_bytes(game) / 2**20:.0f} MiB; peak memory {peak_mib():.0f} MiB")
    rows = []
    for method in args.method:
        solver = solve(game, method, args.target_mbb, args.max_seconds, args.check_every)
        rows += [(method, p.iteration, round(p.seconds, 3), p.mbb) for p in solver.history]
        del solver
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["method", "iteration", "seconds", "mbb_per_hand"])
            writer.writerows(rows)
    for name in args.agents:
        bench_agent(game, name)


if __name__ == "__main__":
    main()
