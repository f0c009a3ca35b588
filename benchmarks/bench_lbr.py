"""Local best response speed: one decision at a time against every table at once, per target, and range equity.

LBR plays heads-up duplicate razz deals against each target (default ``ppo_razz_psro``, ``razz_heuristic`` and
``monte_carlo``) through the tournament's lockstep player (``play_deals``), on one core (one torch thread, one
BLAS thread), two ways on the same deals, alternating, best of ``--rounds``:

* ``scalar``: LBR behind a wrapper that declares no batch, so the player calls ``act`` once per decision (each
  decision its own range update and its own policy queries);
* ``batched``: LBR's ``act_batch`` on every table where it acts (the range updates and the target's policy
  queries of all those tables gathered into one call per step, asked as one ``ObservationBatch`` whose views
  repeat each decision's row with the holdings' down cards).

Both must give the same hands (checked). For each target it prints hands per CPU second (the machine may be
shared; wall time would count the other processes), ``batched``'s speed over ``scalar``'s, the opponent
decisions LBR learns from per hand, the holdings in its range per LBR decision, the distinct observations it
asked the target per hand (each asked once), the share of time in the target's policy and in the equity, and
LBR's win rate (rough at these hand counts).

The second table times :func:`razz_env.engine.equity.range_equity` against a full uniform range on each
street (pairs on 3rd to 6th, triples on 7th), with LBR's settings and with the function's defaults,
for razz, stud and stud8: the method chosen, the holdings and milliseconds per call (best of
``--rounds``).

Run: ``python benchmarks/bench_lbr.py [--deals 20] [--targets ppo_razz_psro razz_heuristic monte_carlo]
[--rounds 2] [--no-equity]``.
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
from typing import Any

import numpy as np

import razz_env.agents.lbr as lbr_module
from razz_env.agents.lbr import LocalBestResponse
from razz_env.agents.registry import make_agent
from razz_env.encoding.interface import Declaration, Observation
from razz_env.engine import equity as equity_module
from razz_env.engine.config import HandConfig
from razz_env.evaluate.block_sums import summarise_tables
from razz_env.evaluate.blocks import play_deals

STREETS = (3, 4, 5, 6, 7)
CLOCK = time.process_time
MODES = ("scalar", "batched")


class _OneAtATime:
    """LBR declared without batch: the player asks it one decision at a time (``act``)."""

    def __init__(self, lbr: LocalBestResponse) -> None:
        self.lbr, self.name = lbr, lbr.name
        self.declaration = Declaration(variants=lbr.declaration.variants, seat_counts=(2,))

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        self.lbr.reset(seat, num_seats, variant)

    def act(self, observation: Observation) -> int:
        return self.lbr.act(observation)


class _Timed:
    """Wraps a callable and adds its CPU time to ``seconds``."""

    def __init__(self, call: Any) -> None:
        self.call = call
        self.seconds = 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        started = CLOCK()
        try:
            return self.call(*args, **kwargs)
        finally:
            self.seconds += CLOCK() - started


def bench_target(target: str, deals: int, mode: str) -> dict[str, Any]:
    """Play ``deals`` duplicate deals of LBR against ``target`` one way; hands per CPU second and what LBR did."""
    config = HandConfig.create("razz", num_seats=2, stacks=1000)
    lbr = LocalBestResponse(target, seed=1)
    opponent = make_agent(target, seed=2)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
    policy = _Timed(lbr._query)
    lbr._query = policy
    holdings = []
    choose = lbr._choose

    def counted(tables: list, masks: list) -> list[int]:
        holdings.extend(len(t.state.holdings) for t in tables)
        return choose(tables, masks)

    lbr._choose = counted
    timed_equity = _Timed(lbr_module.range_equity)
    original, lbr_module.range_equity = lbr_module.range_equity, timed_equity
    player = _OneAtATime(lbr) if mode == "scalar" else lbr
    try:
        started = CLOCK()
        tables = play_deals([player, opponent], config, deals, "bench/0", True, 3600.0)
        seconds = CLOCK() - started
    finally:
        lbr_module.range_equity = original
    sums = summarise_tables(tables, 2, deals, config.stakes.big_bet_size)
    hands = len(tables)
    return {"hands": hands, "seconds": seconds, "hands_per_second": hands / seconds,
            "learned_per_hand": lbr.target_actions / hands, "holdings": float(np.mean(holdings or [0])),
            "asked_per_hand": lbr.observations_asked / hands, "policy_share": policy.seconds / seconds,
            "equity_share": timed_equity.seconds / seconds, "bb_per_100": 100 * sums["deal_sum"][0] / deals,
            "play": [tuple(entry.action for entry in t.hand.history) for t in tables]}


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
    parser.add_argument("--targets", nargs="+", default=["ppo_razz_psro", "razz_heuristic", "monte_carlo"])
    parser.add_argument("--rounds", type=int, default=2, help="timings per target and mode, and per range-equity "
                                                              "spot; the best is kept")
    parser.add_argument("--no-equity", action="store_true", help="skip the range-equity table")
    args = parser.parse_args()

    print(f"{'target':<16}{'mode':<9}{'hands':>6}{'cpu s':>8}{'hands/s':>9}{'/scalar':>8}{'learned':>9}"
          f"{'holdings':>10}{'asked/hand':>12}{'policy':>8}{'equity':>8}{'bb/100':>9}")
    for target in args.targets:
        best: dict[str, dict[str, Any]] = {}
        for _ in range(args.rounds):
            for mode in MODES:
                row = bench_target(target, args.deals, mode)
                if mode not in best or row["seconds"] < best[mode]["seconds"]:
                    best[mode] = row
        for mode in MODES[1:]:
            if best[mode]["play"] != best["scalar"]["play"]:
                raise SystemExit(f"{target}: the {mode} LBR played other hands than the scalar one")
        for mode in MODES:
            row = best[mode]
            ratio = row["hands_per_second"] / best["scalar"]["hands_per_second"]
            print(f"{target:<16}{mode:<9}{row['hands']:>6}{row['seconds']:>8.1f}{row['hands_per_second']:>9.2f}"
                  f"{ratio:>8.2f}{row['learned_per_hand']:>9.2f}{row['holdings']:>10.0f}{row['asked_per_hand']:>12.0f}"
                  f"{row['policy_share']:>8.0%}{row['equity_share']:>8.0%}{row['bb_per_100']:>9.1f}", flush=True)
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
