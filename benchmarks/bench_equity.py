"""Equity calls/s of :func:`razz_env.engine.equity.equity` on typical stud spots, against two peers in one run.

Spots: razz on 3rd street (three known cards each, four to come: the published A23 vs 678 and A2K vs
678), 5th and 7th street (an opponent's down cards unseen), heads-up and 3-way; stud and stud8 exact
on 7th street and sampled earlier. For each spot it prints this library's calls/s (its automatic
method: exact by rank multisets or by card combinations, else 200,000 sampled deals) and two peers:

* **scalar enumeration**: a plain Python loop over the same deals (every card deal when the result
  is exact, as many random deals when it is sampled) scoring each hand with the engine's scalar
  table-lookup evaluators (``razz_low``, ``stud_high``, ``eight_low``). Most spots have far too many
  deals to finish (A23 vs 678: 18 billion), so the loop runs for ``--budget`` seconds and its calls/s
  is extrapolated from its deals/s (marked ``~``); where it finishes, its first share is printed too.
* **PokerKit** 0.7.7 ``calculate_equities``: it handles stud games when every known card (up or down)
  is given as a hole card, ``hole_dealing_count=7`` and no board, with ``RegularLowHand`` for razz and
  ``StandardHighHand`` (plus ``EightOrBetterLowHand`` for stud8) for stud; dead cards are left out of
  its deck. It only samples (``sample_count`` random deals, unseeded: the benchmark seeds ``random``),
  so it runs ``--pokerkit-samples`` deals; this library is also timed sampling the same number of
  deals (``method="monte_carlo"``), which is the like-for-like ratio. Action Razz is left out: PokerKit
  has no Action Razz hand type.

Timings are CPU time of this process; each figure is the best of ``--rounds`` rounds (at least
``--min-time`` seconds of repeated calls each), the sides taking turns, so load from other processes
moves all sides alike. Run: ``python benchmarks/bench_equity.py [--rounds 3] [--pokerkit-samples 1000]``.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from razz_env.engine.cards import DECK_SIZE, parse_cards
from razz_env.engine.equity import Equity, equity, parse_holding
from razz_env.engine.hand_value import eight_low, razz_low, stud_high
from razz_env.engine.variants import get_variant

SCALAR = {"razz": razz_low, "eight": eight_low, "high": stud_high}


@dataclass(frozen=True)
class Spot:
    """One equity question: each player's cards (``x`` unseen), the variant and the dead cards."""

    name: str
    variant: str
    hands: tuple[str, ...]
    dead: str = ""


SPOTS = (
    Spot("razz 3rd HU  A23 v 678", "razz", ("As 2s 3s", "6h 7h 8h")),
    Spot("razz 3rd HU  A2K v 678", "razz", ("As 2s Ks", "6h 7h 8h")),
    Spot("razz 3rd 3way", "razz", ("As 2s 3s", "6h 7h 8h", "4d 9c Tc")),
    Spot("razz 5th HU", "razz", ("As 2s 3s 5d 8c", "x x 6h 7h Kc"), "9d Jc"),
    Spot("razz 5th 3way", "razz", ("As 2s 3s 5d 8c", "x x 6h 7h Kc", "x x 4c Tc 2d"), "9d"),
    Spot("razz 7th HU", "razz", ("As 2s 3s 5d 8c Kd Qh", "x x 6h 7h 9c 4d x")),
    Spot("razz 7th 3way", "razz", ("As 2s 3s 5d 8c Kd Qh", "x x 6h 7h 9c 4d x", "x x Jh Tc 2d 4c x")),
    Spot("stud 3rd HU", "stud", ("Ks Kd 5c", "Qh Jh Th")),
    Spot("stud 5th HU", "stud", ("Ks Kd 5c 9h 2s", "x x Qh Jh Th")),
    Spot("stud 7th HU", "stud", ("Ks Kd 5c 9h 2s 9c 3d", "x x Qh Jh Th 4h x")),
    Spot("stud8 3rd HU", "stud8", ("As 2d 3c", "Kh Qh 7h")),
    Spot("stud8 7th HU", "stud8", ("As 2d 3c 9h Ks 5c 8d", "x x Kh Qh 7h 4d x")),
    Spot("stud8 5th 3way", "stud8", ("As 2d 3c 9h Ks", "x x Kh Qh 7h", "x x 4s 5s 6d"), "Jd"),
)


def calls_per_second(call: Callable[[], object], min_time: float) -> float:
    """Calls/s of ``call`` over at least ``min_time`` CPU seconds."""
    calls, start = 0, time.process_time()
    while True:
        call()
        calls += 1
        elapsed = time.process_time() - start
        if elapsed >= min_time:
            return calls / elapsed


# --------------------------------------------------------------------------- scalar enumeration


def _deals(spot: Spot, exact: bool, samples: int, seed: int) -> tuple[Iterator[list[list[int]]], int]:
    """Every card deal (or ``samples`` random ones) as each player's seven cards, and how many there are."""
    holdings = [parse_holding(hand) for hand in spot.hands]
    dead = parse_cards(spot.dead) if spot.dead else []
    seen = {c for h in holdings for c in h.known} | set(dead)
    unseen = [c for c in range(DECK_SIZE) if c not in seen]
    needed = sum(h.unseen for h in holdings)
    owners = [i for i, h in enumerate(holdings) for _ in range(h.unseen)]

    def dealt(cards: Sequence[int], order: Sequence[int]) -> list[list[int]]:
        hands = [list(h.known) for h in holdings]
        for card, owner in zip(cards, order):
            hands[owner].append(card)
        return hands

    if exact:
        patterns = sorted(set(permutations(owners)))
        total = math.comb(len(unseen), needed) * len(patterns)
        return (dealt(cards, p) for cards in combinations(unseen, needed) for p in patterns), total
    rng = random.Random(seed)
    return (dealt(rng.sample(unseen, needed), owners) for _ in range(samples)), samples


def _share(hands: list[list[int]], halves: Sequence[str]) -> float:
    """The first player's pot share in one deal (stud8: the high takes all when no low qualifies)."""
    shares = []
    for half in halves:
        values = [SCALAR[half](hand) for hand in hands]
        best = max(values)
        if half == "eight" and best == 0:
            return shares[0]
        shares.append((values[0] == best) / values.count(best))
    return sum(shares) / len(shares)


def scalar_enumeration(spot: Spot, exact: bool, samples: int, budget: float) -> tuple[float, float | None]:
    """Calls/s of the scalar loop (extrapolated when it does not finish in ``budget``) and, if it finished,
    the first player's share."""
    deals, total = _deals(spot, exact, samples, seed=0)
    halves = get_variant(spot.variant).showdown
    done, share_sum, start = 0, 0.0, time.process_time()
    for hands in deals:
        share_sum += _share(hands, halves)
        done += 1
        if done % 256 == 0 and time.process_time() - start >= budget:
            break
    elapsed = max(time.process_time() - start, 1e-9)
    return done / elapsed / total, share_sum / total if done == total else None


# --------------------------------------------------------------------------- PokerKit


def pokerkit_call(spot: Spot, samples: int) -> Callable[[], list[float]]:
    """A call of PokerKit's ``calculate_equities`` for ``spot`` with ``samples`` random deals."""
    from pokerkit import Card, Deck, EightOrBetterLowHand, RegularLowHand, StandardHighHand, calculate_equities

    hand_types = {"razz": (RegularLowHand,), "stud": (StandardHighHand,),
                  "stud8": (StandardHighHand, EightOrBetterLowHand)}[spot.variant]
    known = [[tuple(Card.parse("".join(c for c in hand.split() if c not in ("x", "X"))))] for hand in spot.hands]
    dead = set(Card.parse(spot.dead.replace(" ", ""))) if spot.dead else set()
    deck = tuple(card for card in Deck.STANDARD if card not in dead)

    def call() -> list[float]:
        return calculate_equities(known, (), 7, 0, deck, hand_types, sample_count=samples)

    return call


# --------------------------------------------------------------------------- report


def measure(spot: Spot, args: argparse.Namespace) -> str:
    """One table row: this library, the scalar loop and PokerKit on ``spot``, the sides taking turns."""
    ours_call = functools.partial(equity, list(spot.hands), spot.variant, spot.dead)
    sampled_call = functools.partial(ours_call, method="monte_carlo", samples=args.pokerkit_samples)
    theirs_call = None if args.no_pokerkit else pokerkit_call(spot, args.pokerkit_samples)
    result: Equity = ours_call()
    ours = scalar = ours_sampled = theirs = 0.0
    scalar_share = theirs_share = None
    for _ in range(args.rounds):
        ours = max(ours, calls_per_second(ours_call, args.min_time))
        rate, share = scalar_enumeration(spot, result.exact, result.outcomes, args.budget)
        scalar, scalar_share = max(scalar, rate), share if share is not None else scalar_share
        ours_sampled = max(ours_sampled, calls_per_second(sampled_call, args.min_time))
        if theirs_call is not None:
            start = time.process_time()
            theirs_share = theirs_call()[0]
            theirs = max(theirs, 1 / (time.process_time() - start))
    shares = f"{100 * result.shares[0]:.2f}%"
    shares += "" if theirs_share is None else f" / {100 * theirs_share:.1f}%"
    shares += "" if scalar_share is None else f" (scalar loop: {100 * scalar_share:.2f}%)"
    scalar_text = ("" if scalar_share is not None else "~") + f"{scalar:.2g}"
    pokerkit = f"{theirs:>10.2f}{ours_sampled / theirs:>7.0f}x" if theirs else f"{'-':>10}{'-':>8}"
    return (f"{spot.name:<24}{result.method:>12}{result.outcomes:>16,}{ours:>10.1f}{scalar_text:>11}"
            f"{ours / scalar:>8.2g}x{ours_sampled:>9.1f}{pokerkit}   {shares}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; each side keeps its best")
    parser.add_argument("--min-time", type=float, default=0.3, help="CPU seconds of repeated calls per figure")
    parser.add_argument("--budget", type=float, default=0.5, help="CPU seconds the scalar loop runs per round")
    parser.add_argument("--pokerkit-samples", type=int, default=1000, help="random deals per PokerKit call")
    parser.add_argument("--no-pokerkit", action="store_true", help="leave PokerKit out")
    args = parser.parse_args()

    random.seed(0)  # PokerKit samples from the global generator
    print(f"{'spot':<24}{'method':>12}{'deals':>16}{'calls/s':>10}{'scalar':>11}{'ratio':>9}"
          f"{f'MC {args.pokerkit_samples}':>9}{'PokerKit':>10}{'ratio':>8}   P1 share: ours / PokerKit")
    for spot in SPOTS:
        print(measure(spot, args), flush=True)


if __name__ == "__main__":
    main()
