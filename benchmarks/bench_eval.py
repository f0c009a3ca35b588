"""Seven-card hand evaluations/s: this engine's evaluators against PokerKit and phevaluator, one run.

Times each evaluator on the same pre-made random seven-card hands (card conversion done beforehand)
and prints evaluations/s with the ratio to the matching PokerKit evaluator measured in this run:
razz lows against ``RegularLowHand.from_game``, eight-or-better lows against
``EightOrBetterLowHand.from_game_or_none``, stud high against ``StandardHighHand.from_game``.
Evaluators take turns for ``--rounds`` rounds and each keeps its best round, so load from other
processes skews the ratios less. Also prints the first-use table build times.

Run: ``python benchmarks/bench_eval.py [--n 100000] [--batch-n 2000000] [--pokerkit-n 1000]``.
"""

from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from razz_env.engine import hand_value
from razz_env.engine.cards import CARD_NAMES, DECK_SIZE


@dataclass
class Case:
    """One evaluator timed on ``count`` hands; ``baseline`` names the PokerKit case it is compared to."""

    name: str
    run: Callable[[], object]
    count: int
    baseline: str
    best_seconds: float = float("inf")

    @property
    def rate(self) -> float:
        return self.count / self.best_seconds


def random_hands(count: int, seed: int) -> np.ndarray:
    """``count`` random seven-card hands, shape (count, 7), distinct cards in each row."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, DECK_SIZE)), axis=1)[:, :7].astype(np.int8)


def loop(evaluate: Callable[[Sequence], object], hands: Sequence[Sequence]) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            evaluate(hand)

    return run


def splat_loop(evaluate: Callable[..., object], hands: list[tuple[int, ...]]) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            evaluate(*hand)

    return run


def build_times() -> list[tuple[str, float]]:
    """Seconds each table family takes to build on first use (run before anything else touches them)."""
    probes = [
        ("razz_low tables", lambda: hand_value.razz_low(range(0, 28, 4))),
        ("eight_low table", lambda: hand_value.eight_low(range(0, 28, 4))),
        ("stud_high tables", lambda: (hand_value.stud_high(range(0, 28, 4)), hand_value.stud_high(range(7)))),
        ("razz_low_batch table (7 cards)", lambda: hand_value.razz_low_batch(np.arange(7)[None])),
    ]
    times = []
    for name, probe in probes:
        start = time.perf_counter()
        probe()
        times.append((name, time.perf_counter() - start))
    return times


def make_cases(args: argparse.Namespace) -> list[Case]:
    batch = random_hands(args.batch_n, args.seed)
    hands = batch[: args.n].tolist()
    cases = [
        Case(f"{name} (single)", loop(evaluate, hands), len(hands), baseline)
        for name, evaluate, baseline in (
            ("razz_low", hand_value.razz_low, "low"),
            ("eight_low", hand_value.eight_low, "eight"),
            ("action_razz_value", hand_value.action_razz_value, "low"),
            ("stud_high", hand_value.stud_high, "high"),
        )
    ]
    cases += [
        Case(name, functools.partial(evaluate, batch), len(batch), baseline)
        for name, evaluate, baseline in (
            ("razz_low_batch", hand_value.razz_low_batch, "low"),
            ("eight_low_batch", hand_value.eight_low_batch, "eight"),
            ("action_razz_batch", hand_value.action_razz_batch, "low"),
        )
    ]
    try:
        from phevaluator import evaluate_cards
    except ImportError:
        print("phevaluator not installed: skipped")
    else:
        their_ids = [tuple((card + 48) % DECK_SIZE for card in hand) for hand in hands]  # its ranks run 2..A
        run = splat_loop(evaluate_cards, their_ids)
        cases.append(Case("phevaluator evaluate_cards", run, len(hands), "high"))
    try:
        from pokerkit import Card, EightOrBetterLowHand, RegularLowHand, StandardHighHand
    except ImportError:
        print("PokerKit not installed: no ratios")
    else:
        deck = list(Card.parse("".join(CARD_NAMES)))
        their_hands = [[deck[card] for card in hand] for hand in hands[: args.pokerkit_n]]
        cases += [
            Case(f"PokerKit {name}", loop(evaluate, their_hands), len(their_hands), baseline)
            for name, evaluate, baseline in (
                ("RegularLowHand.from_game", RegularLowHand.from_game, "low"),
                ("EightOrBetterLowHand.from_game_or_none", EightOrBetterLowHand.from_game_or_none, "eight"),
                ("StandardHighHand.from_game", StandardHighHand.from_game, "high"),
            )
        ]
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="hands for the single-hand evaluators")
    parser.add_argument("--batch-n", type=int, default=2_000_000, help="hands for the batch evaluators")
    parser.add_argument("--pokerkit-n", type=int, default=1_000, help="hands for PokerKit (slow)")
    parser.add_argument("--rounds", type=int, default=5, help="timings per evaluator; the best is kept")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    builds = build_times()
    cases = make_cases(args)
    for _ in range(args.rounds):
        for case in cases:
            start = time.perf_counter()
            case.run()
            case.best_seconds = min(case.best_seconds, time.perf_counter() - start)

    pokerkit = {case.baseline: case.rate for case in cases if case.name.startswith("PokerKit")}
    print(f"{'7-card evaluator':48} {'evals/s':>14} {'vs PokerKit':>12}")
    for case in cases:
        ratio = f"{case.rate / pokerkit[case.baseline]:,.0f}x" if case.baseline in pokerkit else "-"
        print(f"{case.name:48} {case.rate:>14,.0f} {ratio:>12}")
    print()
    for name, seconds in builds:
        print(f"first-use build, {name:31} {seconds * 1000:>8.0f} ms")


if __name__ == "__main__":
    main()
