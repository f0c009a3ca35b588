"""Environment speed against PettingZoo's own card games, measured in one run.

Steps random legal actions (drawn from each observation's action mask) through
the standard AEC loop (``agent_iter`` / ``last`` / ``step``, one hand per episode,
``reset`` between hands) for ``razz_env.env()``, ``razz_env.raw_env()`` and
PettingZoo's ``texas_holdem_v4.env()`` and ``leduc_holdem_v4.env()`` (these need
``rlcard`` and ``pygame``: ``pip install -e ".[bench]"``). Prints decisions/s and the ratio to
``texas_holdem_v4.env()``, plus the encoder alone in microseconds per encode.
Each row replays the same hands (same seed, same choices) in interleaved rounds;
rates use this process's CPU time of the fastest round, so other load on the
machine skews them less. Two rows measure the wrapper choice of
``env()`` (``LeanOrderEnforcingWrapper``): ``raw_env`` in PettingZoo's plain
``OrderEnforcingWrapper``, and in the classic games' set (plus ``AssertOutOfBoundsWrapper``).
``--profile`` adds a cProfile of the default ``razz_env.env()`` loop.

Run: ``python benchmarks/bench_env.py`` (about a minute; ``--hands``, ``--rounds``).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time
from collections.abc import Callable

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import razz_env
from razz_env.encoding import make_encoder
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState

CLOCK = time.process_time  # CPU time: other load on the machine does not count against a row
DEFAULT_HANDS = 150
DEFAULT_ROUNDS = 20
BIG_TABLE_DIVISOR = 6
PROFILE_LINES = 25
ENCODE_HANDS = 2000


def run_aec(env: AECEnv, hands: int, seed: int = 0) -> tuple[float, int]:
    """CPU seconds and decisions for ``hands`` hands of random legal play from ``reset(seed=seed)``.

    The same seed replays the same hands and choices, so repeated rounds do identical work.
    """
    rng = random.Random(seed)
    choice = rng.choice
    env.reset(seed=seed)
    decisions = 0
    start = CLOCK()
    for hand in range(hands):
        if hand:
            env.reset()
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                action = None
            else:
                action = choice(observation["action_mask"].nonzero()[0].tolist())
                decisions += 1
            env.step(action)
    return CLOCK() - start, decisions


def encode_micros(name: str, seats: int, seed: int = 0) -> float:
    """Mean microseconds per encode of the seat to act, at every decision of random hands (encoder alone)."""
    config = HandConfig.create("razz", num_seats=seats)
    encode = make_encoder(name, config).encode
    rng = random.Random(seed)
    hands = []
    for _ in range(ENCODE_HANDS // seats):
        hand = HandState(config, rng=rng)
        decisions = []
        while not hand.is_over:
            decisions.append(rng.choice(hand.legal_actions()))
            hand.act(decisions[-1])
        hands.append(decisions)
    elapsed = {}
    for with_encoder in (False, True):
        replay = random.Random(seed)
        start = CLOCK()
        for decisions in hands:
            hand = HandState(config, rng=replay)
            for action in decisions:
                if with_encoder:
                    encode(hand, hand.actor)
                hand.act(action)
        elapsed[with_encoder] = CLOCK() - start
    count = sum(len(decisions) for decisions in hands)
    return (elapsed[True] - elapsed[False]) / count * 1e6


def pettingzoo_card_games() -> dict[str, Callable[[], AECEnv]]:
    """PettingZoo's rlcard games, or an empty dict with a note when rlcard is missing."""
    try:
        from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4
    except ImportError as err:
        print(f"(skipping PettingZoo's rlcard games: {err}; install with `pip install rlcard pygame`)")
        return {}
    return {"texas_holdem_v4.env()": texas_holdem_v4.env, "leduc_holdem_v4.env()": leduc_holdem_v4.env}


def classic_wrapped() -> AECEnv:
    """``raw_env`` in the wrappers PettingZoo's classic games use, to measure what ``env()`` leaves out."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(razz_env.raw_env()))


def profile(hands: int) -> str:
    """cProfile of the default ``razz_env.env()`` loop, top functions by internal time."""
    env = razz_env.env()
    profiler = cProfile.Profile()
    profiler.enable()
    run_aec(env, hands)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(PROFILE_LINES)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS, help="hands per round (a sixth of it at 6+ seats)")
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                        help="interleaved rounds per row, each replaying the same hands; the fastest counts")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of razz_env.env()")
    args = parser.parse_args()

    few = max(1, args.hands // BIG_TABLE_DIVISOR)
    rows: list[tuple[str, AECEnv, int]] = [
        ("razz_env.env() 2p flat", razz_env.env(), args.hands),
        ("razz_env.raw_env() 2p flat", razz_env.raw_env(), args.hands),
        ("  in plain OrderEnforcingWrapper", wrappers.OrderEnforcingWrapper(razz_env.raw_env()), args.hands),
        ("  in classic wrapper set", classic_wrapped(), args.hands),
        ("razz_env.env() 2p ranks", razz_env.env(encoding="ranks"), args.hands),
        ("razz_env.env() 6p flat", razz_env.env(num_seats=6), few),
        ("razz_env.env() 8p flat", razz_env.env(num_seats=8), few),
        *((label, make(), args.hands) for label, make in pettingzoo_card_games().items()),
    ]
    best: dict[str, tuple[float, int, int]] = {}
    for _ in range(args.rounds):
        for label, env, hands in rows:
            seconds, decisions = run_aec(env, hands)
            if label not in best or seconds < best[label][0]:
                best[label] = (seconds, decisions, hands)
    rates = {label: (decisions / seconds, hands / seconds) for label, (seconds, decisions, hands) in best.items()}
    reference = rates.get("texas_holdem_v4.env()", (None, None))[0]
    print(f"{'environment (random play, CPU time)':<36}{'decisions/s':>12}{'hands/s':>10}{'vs texas_holdem_v4':>20}")
    for label, (decisions, hands) in rates.items():
        ratio = f"{decisions / reference:>19.2f}x" if reference else f"{'n/a':>20}"
        print(f"{label:<36}{decisions:>12,.0f}{hands:>10,.0f}{ratio}")
    print()
    for name in ("flat", "ranks"):
        for seats in (2, 6):
            micros = min(encode_micros(name, seats) for _ in range(args.rounds))
            print(f"encoder {name:<6} {seats}p: {micros:6.2f} us per encode (seat to act, random razz hands)")
    if args.profile:
        print()
        print(profile(args.hands * args.rounds))


if __name__ == "__main__":
    main()
