"""AIVAT (:mod:`razz_env.evaluate.aivat`): what it costs per hand and how much it narrows the spread, heads-up razz.

For each pairing of shipped rule agents (``random``, ``calling_station``, ``razz_heuristic``; each states its
policy) it plays ``--hands`` hands on the scalar engine (seats alternate), each seat acting by its stated
probabilities (recorded per decision, as the harness records ``action_probabilities``), then corrects every
hand with :func:`aivat`. It prints, in CPU microseconds per hand, playing the hand (engine, observations and
the agents' policies: the peer) and correcting it, their ratio, and for the first-named agent the standard
deviation of the raw payoff, of the chance-only estimate (no policy known) and of the full AIVAT estimate,
with the ratios raw/AIVAT (the confidence interval narrows by that factor: its square is the factor in hands
saved), the means, and the mean of AIVAT less raw with its standard error (zero within it, expectedly;
unbiasedness is proven in ``tests/evaluate/test_aivat.py``).

Second peer: the batched engine's tournament speed (``play_deals_batched``, ``random`` vs ``calling_station``,
``--hands`` deals) measured in the same run, where ``razz_env.batch`` is installed: the issue's target is that
an AIVAT tournament takes at most twice the time of one without it.

Run: ``python benchmarks/bench_aivat.py [--hands 20000] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from itertools import combinations

import numpy as np

from razz_env.agents.registry import make_agent
from razz_env.encoding.actions import NUM_ACTIONS, to_engine
from razz_env.encoding.interface import observe
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.evaluate.aivat import SHOWDOWN_SHARE, aivat

AGENTS = ("random", "calling_station", "razz_heuristic")


def play(names: tuple[str, str], hands: int, seed: int) -> tuple[list[HandState], list[list[np.ndarray]], float]:
    """``hands`` hands of the pairing (seats alternate by hand), their stated policies and the CPU seconds taken."""
    config = HandConfig.create("razz", num_seats=2)
    agents = [make_agent(name) for name in names]
    rng = random.Random(seed)
    played, stated_all = [], []
    start = time.process_time()
    for index in range(hands):
        seats = agents if index % 2 == 0 else agents[::-1]
        for seat, agent in enumerate(seats):
            agent.reset(seat, 2, "razz")
        hand = HandState(config, seed=rng.getrandbits(64))
        stated = []
        while not hand.is_over:
            observation = observe(hand, hand.actor)
            probabilities = np.asarray(seats[hand.actor].action_probabilities(observation), dtype=np.float64)
            stated.append(probabilities)
            chosen = rng.choices(range(NUM_ACTIONS), weights=probabilities)[0]
            hand.act(to_engine(chosen, hand.legal_actions(), allow_open_fold=True))
        played.append(hand)
        stated_all.append(stated)
    return played, stated_all, time.process_time() - start


def batched_play_us(hands: int) -> float | None:
    """CPU microseconds per hand of the batched engine (random vs calling_station), or None without it."""
    try:
        from razz_env.evaluate.blocks import play_deals_batched

        config = HandConfig.create("razz")
        players = [make_agent("random"), make_agent("calling_station")]
        play_deals_batched(players, config, 2, "warm")
        start = time.process_time()
        play_deals_batched(players, config, hands // 2, "bench")  # duplicate: two hands a deal
        return (time.process_time() - start) / hands * 1e6
    except (ImportError, ValueError) as err:
        print(f"batched engine unavailable ({err}); no batched peer")
        return None


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"value function: {SHOWDOWN_SHARE.stamp()}; heads-up razz, {args.hands} hands a pairing, CPU time")
    batched = batched_play_us(args.hands)
    if batched is not None:
        print(f"batched engine (tournament path), random vs calling_station: {batched:.1f} us/hand")
    header = (f"{'pairing':34} {'play us':>8} {'aivat us':>9} {'ratio':>6} {'sd raw':>7} {'sd chance':>9} "
              f"{'sd aivat':>8} {'raw/chance':>10} {'raw/aivat':>9} {'mean raw':>9} {'mean aivat':>10}")
    print(header)
    for names in combinations(AGENTS, 2):
        hands, stated, play_seconds = play(names, args.hands, args.seed)
        start = time.process_time()
        results = [aivat(hand, policies) for hand, policies in zip(hands, stated)]
        aivat_seconds = time.process_time() - start
        seat = np.arange(len(results)) % 2  # the first-named agent's seat in each hand
        raw = np.array([r.payoffs[s] for r, s in zip(results, seat)])
        full = np.array([r.corrected[s] for r, s in zip(results, seat)])
        chance = raw - np.array([r.chance[s] for r, s in zip(results, seat)])
        n = len(raw)
        play_us, aivat_us = play_seconds / n * 1e6, aivat_seconds / n * 1e6
        sd_raw, sd_chance, sd_full = raw.std(ddof=1), chance.std(ddof=1), full.std(ddof=1)
        print(f"{' vs '.join(names):34} {play_us:8.0f} {aivat_us:9.0f} {aivat_us / play_us:6.2f} {sd_raw:7.2f} "
              f"{sd_chance:9.2f} {sd_full:8.2f} {sd_raw / sd_chance:10.2f} {sd_raw / sd_full:9.2f} "
              f"{raw.mean():+9.3f} {full.mean():+10.3f}")
        gap = full - raw
        print(f"{'':34} standard errors of the means: raw {sd_raw / math.sqrt(n):.3f}, aivat "
              f"{sd_full / math.sqrt(n):.3f}; aivat - raw {gap.mean():+.3f} ± {gap.std(ddof=1) / math.sqrt(n):.3f}"
              + (f"; aivat / batched play: {aivat_us / batched:.1f}x" if batched else ""))


if __name__ == "__main__":
    main()
