"""OpenSpiel speed: random razz hands through ``razz_env_razz`` against OpenSpiel's PokerKit-wrapper razz.

Plays random hands through the OpenSpiel API (``chance_outcomes`` / ``legal_actions`` /
``apply_action``, one new state per hand) for this project's ``razz_env_razz`` game and for
``python_pokerkit_wrapper(variant=FixedLimitRazz)`` at the same stakes (ante 1, bring-in 2,
5/10, stacks 200), and prints hands/s and the ratio. A second row adds what an algorithm reads
at every decision: the information state of the seat to act (a tensor here; the PokerKit wrapper
has no tensors, so its row reads the information-state string). Rows run in interleaved rounds on
the same seed; rates use this process's CPU time of the fastest round.

Run: ``python benchmarks/bench_openspiel.py`` (about a minute; ``--hands``, ``--rounds``, ``--players 2 6``).
Needs the ``openspiel`` extra (``pip install -e .[openspiel]``), and ``pokerkit`` for the peer.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import pyspiel

import razz_env.openspiel  # noqa: F401  (registers the games)

CLOCK = time.process_time
DEFAULT_HANDS = 100
DEFAULT_ROUNDS = 5
STAKES = {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10, "stack": 200}


def play(game: pyspiel.Game, hands: int, read: Callable[[pyspiel.State], object] | None = None,
         seed: int = 0) -> float:
    """CPU seconds for ``hands`` hands of uniform random play (``read`` called at every decision)."""
    rng = random.Random(seed)
    choice = rng.choice
    start = CLOCK()
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                if read is not None:
                    read(state)
                state.apply_action(choice(state.legal_actions()))
    return CLOCK() - start


def games(players: int) -> dict[str, pyspiel.Game]:
    """This project's razz and the PokerKit wrapper's, at the same stakes (the latter only if it loads)."""
    out = {"razz_env_razz": pyspiel.load_game("razz_env_razz", {
        "num_seats": players, "ante": STAKES["ante"], "bring_in": STAKES["bring_in"],
        "small_bet": STAKES["small_bet"], "big_bet": STAKES["big_bet"], "stacks": str(STAKES["stack"])})}
    try:
        from open_spiel.python.games import pokerkit_wrapper  # noqa: F401  (registers the wrapper)
    except ImportError as err:
        print(f"PokerKit wrapper unavailable ({err}); measuring razz_env_razz alone")
        return out
    out["pokerkit_wrapper razz"] = pyspiel.load_game("python_pokerkit_wrapper", {
        "variant": "FixedLimitRazz", "num_players": players, "bring_in": STAKES["bring_in"],
        "small_bet": STAKES["small_bet"], "big_bet": STAKES["big_bet"],
        "antes": " ".join([str(STAKES["ante"])] * players),
        "stack_sizes": " ".join([str(STAKES["stack"])] * players)})
    return out


def reader(game: pyspiel.Game) -> Callable[[pyspiel.State], object]:
    """What an algorithm reads at a decision: the information-state tensor, or the string where there is none."""
    if game.get_type().provides_information_state_tensor:
        return lambda state: state.information_state_tensor()
    return lambda state: state.information_state_string()


def measure(players: int, hands: int, rounds: int) -> None:
    """Print hands/s of both games, with and without the information-state read, and the ratios."""
    tables = games(players)
    rows = [(name, kind, game, read) for name, game in tables.items()
            for kind, read in (("random play", None), ("+ information state", reader(game)))]
    best = {(name, kind): float("inf") for name, kind, _, _ in rows}
    for _ in range(rounds):
        for name, kind, game, read in rows:
            best[name, kind] = min(best[name, kind], play(game, hands, read))
    print(f"{players} seats, {hands} hands x {rounds} rounds (CPU time, best round), hands/s:")
    names = list(tables)
    print(f"  {'':<20}" + "".join(f"{name:>24}" for name in names) + ("       ratio" if len(names) > 1 else ""))
    for kind in ("random play", "+ information state"):
        rates = [hands / best[name, kind] for name in names]
        ratio = f"  {rates[0] / rates[1]:9.1f}x" if len(rates) > 1 else ""
        print(f"  {kind:<20}" + "".join(f"{rate:>24,.0f}" for rate in rates) + ratio)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS, help="hands per round and row")
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS, help="interleaved rounds (the best is kept)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 6], help="table sizes to measure (2-8)")
    args = parser.parse_args(argv)
    for players in args.players:
        measure(players, args.hands, args.rounds)


if __name__ == "__main__":
    main()
