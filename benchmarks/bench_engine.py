"""Engine speed against PokerKit, measured in one run.

Random-legal-play razz hands/s of this engine and of PokerKit's ``FixedLimitRazz``
at 2, 6 and 8 seats, MiniRazz hands/s heads-up (PokerKit has no such game), and
7-card low evaluations/s (this engine single and batch, PokerKit). Prints a table
with ratios. Run: ``python benchmarks/bench_engine.py``.

Timings are CPU time of this process, and each figure is the best of ``--rounds``
rounds that alternate between the engines, so load from other processes on a
shared machine moves both sides alike.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from razz_env.engine.actions import Action
from razz_env.engine.config import HandConfig
from razz_env.engine.hand_value import razz_low, razz_low_batch
from razz_env.engine.state import HandState

STACK = 1000


def play_ours(seats: int, hands: int, seed: int = 0, variant: str = "razz") -> float:
    """Hands/s of random legal play (open folds excluded, as PokerKit refuses them)."""
    config = HandConfig.create(variant, num_seats=seats, stacks=STACK)
    rng = random.Random(seed)
    choice = rng.choice
    fold, check = Action.FOLD, Action.CHECK
    start = time.process_time()
    for _ in range(hands):
        hand = HandState(config, rng=rng)
        while not hand.is_over:
            legal = hand.legal_actions()
            action = choice(legal)
            if action is fold and check in legal:
                action = check
            hand.act(action)
    return hands / (time.process_time() - start)


def play_pokerkit(seats: int, hands: int, seed: int = 0) -> float:
    """Hands/s of PokerKit's FixedLimitRazz under random legal play, cards dealt by its automation."""
    from pokerkit import Automation, FixedLimitRazz

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING, Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(hands):
        state = FixedLimitRazz.create_state(automations, True, 1, 2, 5, 10, STACK, seats)
        while state.status:
            options = []
            if state.can_post_bring_in():
                options.append(state.post_bring_in)
            if state.can_complete_bet_or_raise_to():
                options.append(state.complete_bet_or_raise_to)
            if state.can_check_or_call():
                options.append(state.check_or_call)
            if state.can_fold():
                options.append(state.fold)
            rng.choice(options)()
    return hands / (time.process_time() - start)


def random_hands(count: int, seed: int = 0) -> np.ndarray:
    """``count`` random 7-card hands (distinct cards in each row) as an int array."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :7].astype(np.int64)


def eval_ours_single(hands: np.ndarray) -> float:
    rows = hands.tolist()
    start = time.perf_counter()
    for row in rows:
        razz_low(row)
    return len(rows) / (time.perf_counter() - start)


def eval_ours_batch(hands: np.ndarray) -> float:
    razz_low_batch(hands[:1000])
    start = time.perf_counter()
    razz_low_batch(hands)
    return len(hands) / (time.perf_counter() - start)


def eval_pokerkit(hands: np.ndarray) -> float:
    from pokerkit import Card, RegularLowHand

    from razz_env.engine.cards import card_str

    rows = [list(Card.parse("".join(card_str(c) for c in row))) for row in hands.tolist()]
    start = time.perf_counter()
    for row in rows:
        RegularLowHand.from_game(row)
    return len(rows) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=30000, help="heads-up hands for this engine (a third at 6, 8)")
    parser.add_argument("--pokerkit-hands", type=int, default=1500, help="heads-up hands for PokerKit (likewise)")
    parser.add_argument("--evals", type=int, default=200000)
    parser.add_argument("--batch", type=int, default=2000000)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; the best of each side counts")
    args = parser.parse_args()

    razz_low(range(7))
    print(f"{'measure':<40}{'this engine':>14}{'PokerKit':>12}{'ratio':>9}")
    for seats in (2, 6, 8):
        scale = 1 if seats == 2 else 3
        ours = theirs = 0.0
        for round_index in range(args.rounds):
            ours = max(ours, play_ours(seats, args.hands // scale // args.rounds, seed=round_index))
            theirs = max(theirs, play_pokerkit(seats, args.pokerkit_hands // scale // args.rounds, seed=round_index))
        print(f"{f'razz hands/s, {seats} seats, random play':<40}{ours:>14,.0f}{theirs:>12,.0f}{ours / theirs:>8.1f}x")
    mini = max(play_ours(2, args.hands // args.rounds, seed=r, variant="minirazz") for r in range(args.rounds))
    print(f"{'minirazz hands/s, 2 seats, random play':<40}{mini:>14,.0f}{'-':>12}{'-':>9}")
    hands = random_hands(args.evals)
    pokerkit_evals = eval_pokerkit(hands[: args.evals // 20])
    single = eval_ours_single(hands)
    batch = eval_ours_batch(random_hands(args.batch, seed=1))
    print(f"{'7-card razz low evals/s, single':<40}{single:>14,.0f}{pokerkit_evals:>12,.0f}"
          f"{single / pokerkit_evals:>8.0f}x")
    print(f"{'7-card razz low evals/s, numpy batch':<40}{batch:>14,.0f}{pokerkit_evals:>12,.0f}"
          f"{batch / pokerkit_evals:>8.0f}x")


if __name__ == "__main__":
    main()
