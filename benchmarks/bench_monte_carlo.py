"""Decisions/s of the Monte Carlo player, in batch and one at a time, and the time of a short heads-up match with it.

**Batch** (the issue's figure: ``act_batch`` against its scalar form): for each variant and seat count,
``--batch-decisions`` mixed decisions (every street; seeded hands played to the end by a seeded chooser that
folds 15% of the time it may) are decided by one ``act_batch`` call and by ``act`` one at a time, the same
player and observations, which must give the same ids; the ratio is batch over scalar.
**Streets**: the decisions are reached by passive play (bring-in, check or call) in seeded hands, so every
street has them: for each variant, seat count and street, ``--decisions`` observations of the seat to act,
answered with ``act``. Each implementation keeps its best of ``--rounds`` rounds (CPU time), the
implementations taking turns so that load from other processes skews the ratio less.
``--reference FILE [FILE ...]`` times other copies of ``razz_env/agents/monte_carlo.py`` beside the installed
one (e.g. ``git show HEAD~1:razz_env/agents/monte_carlo.py > /tmp/old_monte_carlo.py``; their ``act`` one at a
time, each named by its file's stem) and checks that all decide the same on every observation; the batch table
adds ``act`` over each reference's ``act``. The match: ``--match-deals`` duplicate deals of heads-up
``--match-variant`` (each played twice, the seats swapped) between the player and ``razz_heuristic``, as ``razz
tournament`` plays them (scalar engine, one ``act_batch`` call per agent and step over all tables of the block),
wall clock.

Run: ``python benchmarks/bench_monte_carlo.py [--reference FILE ...] [--variants razz stud8] [--samples 200]
[--parts batch streets match]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from unittest import mock

from razz_env.agents import monte_carlo
from razz_env.agents.razz_heuristic import RazzHeuristic
from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import Observation, ObservationBatch, Observer, act_batch, observe
from razz_env.engine.actions import Action
from razz_env.engine.config import HandConfig
from razz_env.engine.dealing import shuffled_deck
from razz_env.engine.state import HandState
from razz_env.engine.variants import SEVEN_CARD_GAMES

PASSIVE = (Action.BRING_IN, Action.CHECK, Action.CALL)
PARTS = ("batch", "streets", "match")


def load_reference(path: str) -> ModuleType:
    """Another copy of the agent module, loaded under its own name (not registered as an agent)."""
    spec = importlib.util.spec_from_file_location(f"reference_monte_carlo_{Path(path).stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    with mock.patch("razz_env.agents.registry.register", lambda name, **_: lambda factory: factory):
        spec.loader.exec_module(module)
    return module


def decisions(variant: str, seats: int, street: int, count: int) -> list[Observation]:
    """``count`` decisions on ``street``: seeded hands played passively until that street's first decision."""
    found, seed = [], 0
    while len(found) < count:
        hand = HandState(HandConfig.create(variant, num_seats=seats), seed=seed)
        seed += 1
        while not hand.is_over and hand.street < street:
            legal = hand.legal_actions()
            hand.act(next((a for a in PASSIVE if a in legal), legal[0]))
        if not hand.is_over:
            found.append(observe(hand, hand.actor))
    return found


def mixed_decisions(variant: str, seats: int, count: int) -> list[Observation]:
    """``count`` decisions of every street: seeded hands played to the end, folding 15% of the time it may."""
    rng = random.Random(f"{variant}/{seats}")
    found: list[Observation] = []
    while len(found) < count:
        hand = HandState(HandConfig.create(variant, num_seats=seats), seed=rng.randrange(2**32))
        while not hand.is_over and len(found) < count:
            found.append(observe(hand, hand.actor))
            legal = hand.legal_actions()
            fold = Action.FOLD in legal and rng.random() < 0.15
            hand.act(Action.FOLD if fold else rng.choice([a for a in legal if a is not Action.FOLD]))
    return found


def batch_rates(player: monte_carlo.MonteCarloAgent, observations: list[Observation], rounds: int,
                references: dict[str, object]) -> dict[str, float]:
    """Decisions/s of one ``act_batch`` call on ``observations``, of ``act`` one at a time and of each of the
    ``references``' ``act`` (by name), best of ``rounds`` (CPU time); every way must give the same ids."""
    batch = ObservationBatch.of(observations)
    ways = {"act_batch": lambda: player.act_batch(batch), "act": lambda: [player.act(o) for o in observations]}
    for name, reference in references.items():
        ways[f"{name} act"] = lambda reference=reference: [reference.act(o) for o in observations]
    best = dict.fromkeys(ways, float("inf"))
    for _ in range(rounds):
        chosen = []
        for name, way in ways.items():
            start = time.process_time()
            chosen.append(way())
            best[name] = min(best[name], time.process_time() - start)
        if any(ids != chosen[0] for ids in chosen):
            raise SystemExit(f"{sum(a != b for a, b in zip(*chosen[:2]))} decisions differ between "
                             f"{' and '.join(ways)}")
    return {name: len(observations) / seconds for name, seconds in best.items()}


def best_rates(players: dict[str, object], observations: list[Observation], rounds: int) -> dict[str, float]:
    """Decisions/s of each player on ``observations``, best of ``rounds`` (CPU time)."""
    best = dict.fromkeys(players, float("inf"))
    for _ in range(rounds):
        for name, player in players.items():
            start = time.process_time()
            for observation in observations:
                player.act(observation)
            best[name] = min(best[name], time.process_time() - start)
    return {name: len(observations) / seconds for name, seconds in best.items()}


def match_seconds(player: object, variant: str, deals: int, block: int = 250) -> float:
    """Wall time of ``deals`` duplicate heads-up deals against ``razz_heuristic``, in blocks of ``block``."""
    config = HandConfig.create(variant, num_seats=2)
    opponent = RazzHeuristic()
    rng = random.Random(0)
    start = time.perf_counter()
    for first in range(0, deals, block):
        tables = []
        for _ in range(first, min(first + block, deals)):
            deck = shuffled_deck(rng)
            tables += [(HandState(config, deck=list(deck)), seating) for seating in ((player, opponent),
                                                                                       (opponent, player))]
        observers = {id(agent): Observer(agent, config) for agent in (player, opponent)}
        while live := [(hand, seating) for hand, seating in tables if not hand.is_over]:
            for agent in (player, opponent):
                mine = [hand for hand, seating in live if not hand.is_over and seating[hand.actor] is agent]
                ids = act_batch(agent, [observers[id(agent)](hand, hand.actor) for hand in mine])
                for hand, action_id in zip(mine, ids):
                    hand.act(to_engine(action_id, hand.legal_actions()))
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", nargs="+", default=[],
                        help="other razz_env/agents/monte_carlo.py copies to time beside the installed one")
    parser.add_argument("--variants", nargs="+", default=["razz", "stud8"], choices=SEVEN_CARD_GAMES)
    parser.add_argument("--seats", nargs="+", type=int, default=[2, 6])
    parser.add_argument("--streets", nargs="+", type=int, default=[3, 5, 7])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--match-deals", type=int, default=500)
    parser.add_argument("--match-variant", default="razz", choices=SEVEN_CARD_GAMES)
    parser.add_argument("--batch-decisions", type=int, default=1024)
    parser.add_argument("--batch-seats", nargs="+", type=int, default=[2, 6, 8])
    parser.add_argument("--parts", nargs="+", default=PARTS, choices=PARTS)
    args = parser.parse_args(argv)
    modules = {"now": monte_carlo} | {Path(path).stem: load_reference(path) for path in args.reference}
    players = {name: module.MonteCarloAgent(samples=args.samples, seed=1) for name, module in modules.items()}
    references = {name: player for name, player in players.items() if name != "now"}
    if "batch" in args.parts:
        print(f"samples {args.samples}; decisions/s of {args.batch_decisions} mixed decisions, best of {args.rounds}")
        names = ["act_batch", "act"] + [f"{name} act" for name in references]
        ratios = ["act_batch / act"] + [f"act / {name} act" for name in references]
        print("| variant | seats | " + " | ".join(names + ratios) + " |")
        print("|---" * (2 + len(names) + len(ratios)) + "|")
        for variant in args.variants:
            for seats in args.batch_seats:
                observations = mixed_decisions(variant, seats, args.batch_decisions)
                rates = batch_rates(players["now"], observations, args.rounds, references)
                shown = [f"{rates[name]:,.0f}" for name in names]
                shown += [f"{rates['act_batch'] / rates['act']:.2f}"]
                shown += [f"{rates['act'] / rates[name]:.2f}" for name in names[2:]]
                print(f"| {variant} | {seats} | " + " | ".join(shown) + " |", flush=True)
    if "streets" in args.parts:
        print(f"samples {args.samples}; decisions/s of act, best of {args.rounds} rounds of {args.decisions} "
              "decisions")
        print("| variant | seats | street | " + " | ".join(players)
              + "".join(f" | now / {name}" for name in references) + " |")
        print("|---" * (3 + len(players) + len(references)) + "|")
        for variant in args.variants:
            for seats in args.seats:
                for street in args.streets:
                    observations = decisions(variant, seats, street, args.decisions)
                    for player in players.values():  # first use builds the evaluators' tables
                        player.act(observations[0])
                    for name, reference in references.items():
                        differ = sum(players["now"].act(o) != reference.act(o) for o in observations)
                        if differ:
                            raise SystemExit(f"{variant} {seats} seats street {street}: {differ} decisions differ "
                                             f"from {name}")
                    rates = best_rates(players, observations, args.rounds)
                    ratio = "".join(f" | {rates['now'] / rates[name]:.2f}" for name in references)
                    print(f"| {variant} | {seats} | {street} | " + " | ".join(f"{r:,.0f}" for r in rates.values())
                          + ratio + " |", flush=True)
    if "match" in args.parts:
        for name, player in players.items():
            seconds = match_seconds(player, args.match_variant, args.match_deals)
            print(f"{name}: {args.match_deals} duplicate deals ({2 * args.match_deals} hands) of heads-up "
                  f"{args.match_variant} against razz_heuristic in {seconds:.2f} s", flush=True)


if __name__ == "__main__":
    main()
