"""AIVAT (:mod:`razz_env.evaluate.aivat`, :mod:`razz_env.batch.aivat`): how much it narrows each pairing's spread,
whether it stays on the raw mean, and what it costs a tournament.

Pairings (heads-up razz, duplicate deals on the batched engine, in this process): for each pairing of
``--pairings`` it plays ``--deals`` deals (``2 * deals`` hands) without AIVAT and then, the same deals, with it
(the stated policies asked and every hand scored; the raw payoffs must come out the same), and prints per
pairing, per deal (the unit of the CIs):

- raw bb/100 and AIVAT bb/100 with their 95% CIs;
- ``sd ratio``: raw SD / AIVAT SD, with a 95% bootstrap CI over deals (its square is the factor in hands
  saved for one CI width);
- ``aivat - raw``: the mean difference with its 95% CI (zero within it, if AIVAT is unbiased; the paired
  difference is the joint test of the two means);
- CPU microseconds per hand without and with AIVAT (the peer: the same play without it), and their ratio.

Tournament (``--tournament``): the embedded default ``razz tournament`` (README's first command: every shipped
agent, ``--tournament-deals`` deals per pairing, 2 workers) run with and without ``aivat: true``, fresh folders,
alternating, wall and CPU time; the issue's target is at most twice the time. It prints whether the raw results
are the same, and each pairing whose verdict (95% CI excluding zero) differs between the raw and AIVAT figures.

Run: ``python benchmarks/bench_aivat.py [--deals 20000] [--seed 1] [--pairings ppo_razz_psro:razz_heuristic ...]
[--tournament] [--tournament-deals 4000]`` (needs ``pip install 'razz-env[batch,train]'`` for the zoo models).
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from razz_env.agents.registry import make_agent
from razz_env.engine.config import HandConfig
from razz_env.evaluate.blocks import play_deals_batched
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.runner import RESULTS_FILE, run_tournament
from razz_env.evaluate.stats import Z95

PAIRINGS = ("ppo_razz_psro:razz_heuristic", "ppo_razz_psro:monte_carlo", "razz_heuristic:random",
            "razz_heuristic:calling_station")
BLOCK = 2000
"""Deals played at once (the tournament's blocks are 250; larger batches only amortise the agents' calls)."""


def _limit_threads() -> None:
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass


def _per_deal(names: tuple[str, str], deals: int, seed: int, stated: bool) -> tuple[np.ndarray, np.ndarray, float]:
    """Agent A's big bets per deal (mean of its two seatings): raw and AIVAT (NaN without), and CPU seconds."""
    config = HandConfig.create("razz", num_seats=2)
    raw = np.zeros(deals)
    fixed = np.zeros(deals) if stated else np.full(deals, np.nan)
    start = time.process_time()
    for first in range(0, deals, BLOCK):
        count = min(BLOCK, deals - first)
        players = [make_agent(name, seed=seed + index) for index, name in enumerate(names)]
        tables = play_deals_batched(players, config, count, f"{seed}/{first}", first_deal=first, stated=stated)
        for table in tables:
            seat = table.positions.index(0)
            raw[first + table.deal] += table.payoffs[seat] / config.big_bet / 2
            if stated:
                fixed[first + table.deal] += table.corrected[seat] / config.big_bet / 2
    return raw, fixed, time.process_time() - start


def _ci(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and 95% CI of per-deal big bets, in bb/100."""
    mean, half = values.mean(), Z95 * values.std(ddof=1) / math.sqrt(len(values))
    return 100 * mean, 100 * (mean - half), 100 * (mean + half)


def _ratio_ci(raw: np.ndarray, fixed: np.ndarray, seed: int, resamples: int = 400) -> tuple[float, float, float]:
    """Raw SD / AIVAT SD and its 95% bootstrap CI (deals resampled with replacement)."""
    rng = np.random.default_rng(seed)
    ratios = []
    for _ in range(resamples):
        pick = rng.integers(0, len(raw), len(raw))
        ratios.append(raw[pick].std(ddof=1) / fixed[pick].std(ddof=1))
    low, high = np.percentile(ratios, [2.5, 97.5])
    return raw.std(ddof=1) / fixed.std(ddof=1), float(low), float(high)


def pairings(names: list[str], deals: int, seed: int) -> None:
    """The table of the pairings' figures."""
    print(f"heads-up razz, {deals} duplicate deals ({2 * deals} hands) a pairing, seed {seed}; per deal, bb/100")
    print(f"{'pairing':34} {'raw [95% CI]':>24} {'aivat [95% CI]':>24} {'sd ratio [95% CI]':>22} "
          f"{'aivat - raw [95% CI]':>24} {'us/hand':>8} {'+aivat':>8} {'ratio':>6} same")
    for pairing in names:
        pair = tuple(pairing.split(":"))
        plain, _, plain_cpu = _per_deal(pair, deals, seed, stated=False)
        raw, fixed, cpu = _per_deal(pair, deals, seed, stated=True)
        same = bool(np.array_equal(plain, raw))
        r, f = _ci(raw), _ci(fixed)
        ratio = _ratio_ci(raw, fixed, seed)
        gap = _ci(fixed - raw)
        plain_us, aivat_us = plain_cpu / (2 * deals) * 1e6, cpu / (2 * deals) * 1e6
        print(f"{pairing:34} {f'{r[0]:+.2f} [{r[1]:+.2f}, {r[2]:+.2f}]':>24} "
              f"{f'{f[0]:+.2f} [{f[1]:+.2f}, {f[2]:+.2f}]':>24} "
              f"{f'{ratio[0]:.2f} [{ratio[1]:.2f}, {ratio[2]:.2f}]':>22} "
              f"{f'{gap[0]:+.2f} [{gap[1]:+.2f}, {gap[2]:+.2f}]':>24} {plain_us:8.1f} {aivat_us:8.1f} "
              f"{aivat_us / plain_us:6.2f} {same}")


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the worker processes, once stopped)."""
    return sum(getattr(resource.getrusage(who), field) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for field in ("ru_utime", "ru_stime"))


def _tournament(aivat: bool, deals: int, folder: Path) -> tuple[float, float, Any]:
    """Wall and CPU seconds of the default tournament, fresh, and its result."""
    config = TournamentConfig.from_dict({"name": "bench", "deals": deals, "aivat": aivat,
                                         "output": str(folder / f"aivat-{aivat}")})
    cpu, started = _cpu_seconds(), time.perf_counter()
    result = run_tournament(config, fresh=True, progress=False)
    return time.perf_counter() - started, _cpu_seconds() - cpu, result


def _sums(folder: Path) -> list[tuple]:
    lines = [json.loads(line) for line in (folder / RESULTS_FILE).read_text().splitlines()]
    return sorted((r["task_id"], r["deal_sum"], r["deal_sumsq"]) for r in lines)


def tournament(deals: int) -> None:
    """The default tournament with and without AIVAT: time, same raw results, verdicts that change."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        runs = {}
        for aivat in (False, True):  # the first run also loads the kernels from the disk cache for both
            runs[aivat] = _tournament(aivat, deals, folder)
        plain_wall, plain_cpu, _ = runs[False]
        wall, cpu, result = runs[True]
        same = _sums(folder / "aivat-False") == _sums(folder / "aivat-True")
    print(f"default tournament, {deals} deals a pairing, 2 workers: without AIVAT {plain_wall:.1f} s wall "
          f"({plain_cpu:.1f} s CPU), with {wall:.1f} s wall ({cpu:.1f} s CPU): {wall / plain_wall:.2f}x wall, "
          f"{cpu / plain_cpu:.2f}x CPU; raw results the same: {same}")
    print(f"{'pairing':44} {'raw [95% CI]':>24} {'aivat [95% CI]':>24} {'sd ratio':>8}  verdict")
    changed = 0
    for pairing in result.pairings:
        if pairing.opponent is None or pairing.agent > pairing.opponent:
            continue
        dup, fixed = pairing.duplicate, pairing.aivat
        moved = dup.significant != fixed.significant
        changed += moved
        name = f"{result.labels[pairing.agent]} vs {result.labels[pairing.opponent]}"
        verdict = ("raw significant only" if dup.significant else "AIVAT significant only") if moved else (
            "both significant" if dup.significant else "neither")
        ratio = "n/a" if pairing.sd_ratio is None else f"{pairing.sd_ratio:.2f}"
        print(f"{name:44} {f'{dup.mean_bb100:+.2f} [{dup.low:+.2f}, {dup.high:+.2f}]':>24} "
              f"{f'{fixed.mean_bb100:+.2f} [{fixed.low:+.2f}, {fixed.high:+.2f}]':>24} {ratio:>8}  {verdict}")
    print(f"{changed} pairings change their verdict")


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="duplicate deals a pairing (default 20000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairings", nargs="*", default=list(PAIRINGS), help="A:B agent pairs (empty: none)")
    parser.add_argument("--tournament", action="store_true", help="also time the default tournament")
    parser.add_argument("--tournament-deals", type=int, default=4000)
    args = parser.parse_args()
    _limit_threads()
    play_deals_batched([make_agent("random"), make_agent("calling_station")], HandConfig.create("razz"), 2, "warm",
                       stated=True)  # compile or load the kernels before any timing
    if args.pairings:
        pairings(args.pairings, args.deals, args.seed)
    if args.tournament:
        tournament(args.tournament_deals)


if __name__ == "__main__":
    main()
