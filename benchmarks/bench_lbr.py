"""Local best response speed: hands/s against random, razz_heuristic and ppo_razz, and range equity per street.

LBR plays heads-up duplicate razz deals against each target through the tournament's lockstep
player (``play_deals``: every table of a block advances together, so each LBR step makes one batched
policy query), on one core: one torch thread, one BLAS thread. For each target it prints hands/s, the
target observations LBR asked per hand (the range update and the fold probabilities of a raise, one
per holding, or one per rank multiset with ``suit_blind``), the time inside the target's policy and
inside the equity calculator, and LBR's win rate (a rough figure at these hand counts).

The second table times :func:`razz_env.engine.equity.range_equity` against a full uniform range on each
street (pairs on 3rd to 6th, triples on 7th), with LBR's settings and with the function's defaults,
for razz, stud and stud8: the method chosen, the holdings and milliseconds per call (best of
``--rounds``).

Run: ``python benchmarks/bench_lbr.py [--deals 20] [--targets random razz_heuristic ppo_razz] [--rounds 3]``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import sys
import time
from itertools import combinations

import numpy as np

import razz_env.agents.lbr as lbr_module
from razz_env.agents.lbr import LocalBestResponse
from razz_env.agents.registry import make_agent
from razz_env.engine import equity as equity_module
from razz_env.engine.config import HandConfig
from razz_env.evaluate.blocks import play_deals, summarise_tables

STREETS = (3, 4, 5, 6, 7)


class _Timed:
    """Wraps a callable and adds its run time to ``seconds``."""

    def __init__(self, call):
        self.call = call
        self.seconds = 0.0

    def __call__(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return self.call(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - started


def bench_target(target: str, deals: int, suit_blind: bool) -> dict[str, float]:
    """Play ``deals`` duplicate deals of LBR against ``target``; hands/s and where the time went."""
    config = HandConfig.create("razz", num_seats=2, stacks=1000)
    lbr = LocalBestResponse(target, seed=1, suit_blind=suit_blind)
    opponent = make_agent(target, seed=2)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
    timed = [name for name in ("action_probabilities_varied", "action_probabilities_batch", "action_probabilities")
             if hasattr(lbr.target, name)]
    policies = [_Timed(getattr(lbr.target, name)) for name in timed]
    for name, policy in zip(timed, policies):
        setattr(lbr.target, name, policy)
    timed_equity = _Timed(lbr_module.range_equity)
    original, lbr_module.range_equity = lbr_module.range_equity, timed_equity
    try:
        started = time.perf_counter()
        tables = play_deals([lbr, opponent], config, deals, "bench/0", True, 3600.0)
        seconds = time.perf_counter() - started
    finally:
        lbr_module.range_equity = original
    sums = summarise_tables(tables, 2, deals, config.stakes.big_bet_size)
    hands = len(tables)
    return {"hands": hands, "seconds": seconds, "hands_per_second": hands / seconds,
            "asked_per_hand": lbr.observations_asked / hands,
            "policy_share": sum(p.seconds for p in policies) / seconds,
            "equity_share": timed_equity.seconds / seconds, "bb_per_100": 100 * sums["deal_sum"][0] / deals}


def bench_equity(variant: str, street: int, rounds: int, **options: int) -> tuple[str, int, float]:
    """Method, holdings and best ms per call of ``range_equity`` against a full uniform range on ``street``."""
    rng = np.random.default_rng(street)
    deck = rng.permutation(52).tolist()
    hero = deck[:min(street, 7)]
    up = deck[7:7 + min(street - 2, 4)]
    free = [c for c in range(52) if c not in set(hero + up)]
    holdings = np.array(list(combinations(free, 3 if street == 7 else 2)))
    best = float("inf")
    method = ""
    for _ in range(rounds):
        started = time.perf_counter()
        result = equity_module.range_equity(hero, up, holdings, None, variant, **options)
        best = min(best, time.perf_counter() - started)
        method = result.method
    return method, len(holdings), 1000 * best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="duplicate deals per target (2 hands each)")
    parser.add_argument("--targets", nargs="+", default=["random", "razz_heuristic", "ppo_razz"])
    parser.add_argument("--rounds", type=int, default=3, help="timings per range-equity spot; the best is kept")
    parser.add_argument("--no-equity", action="store_true", help="skip the range-equity table")
    args = parser.parse_args()

    print(f"{'target':<16}{'mode':<12}{'hands':>7}{'seconds':>9}{'hands/s':>9}{'asked/hand':>12}"
          f"{'policy':>8}{'equity':>8}{'bb/100':>9}")
    for target in args.targets:
        for suit_blind in (False, True):
            row = bench_target(target, args.deals, suit_blind)
            mode = "suit_blind" if suit_blind else "exact"
            print(f"{target:<16}{mode:<12}{row['hands']:>7}{row['seconds']:>9.1f}{row['hands_per_second']:>9.2f}"
                  f"{row['asked_per_hand']:>12.0f}{row['policy_share']:>8.0%}{row['equity_share']:>8.0%}"
                  f"{row['bb_per_100']:>9.1f}", flush=True)
    if args.no_equity:
        return
    lbr = LocalBestResponse("random")
    print(f"\n{'variant':<8}{'street':>7}{'holdings':>10}  " + "".join(f"{name + ' method':>18}{'ms':>9}"
                                                                    for name in ("LBR", "defaults")))
    for variant in ("razz", "stud", "stud8"):
        settings = {"LBR": {"samples": lbr.samples, "max_outcomes": lbr.max_outcomes_for(variant)}, "defaults": {}}
        for street in STREETS:
            cells = []
            holdings = 0
            for options in settings.values():
                method, holdings, ms = bench_equity(variant, street, args.rounds, **options)
                cells.append(f"{method:>18}{ms:>9.1f}")
            print(f"{variant:<8}{street:>7}{holdings:>10}  " + "".join(cells), flush=True)


if __name__ == "__main__":
    main()
