"""How much duplicate dealing narrows the 95% CI, measured: same pairings, same number of hands.

For each pairing, plays ``hands`` hands with duplicate dealing (``hands / 2`` deals,
each with the seats swapped) and ``hands`` plain hands (fresh deals, seats
alternating), and prints both CI half-widths and their ratio.

    python experiments/duplicate_vs_plain.py --hands 20000
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from razz_env.agents.registry import make_agent
from razz_env.engine.config import HandConfig
from razz_env.evaluate.blocks import play_deals, summarise_tables
from razz_env.evaluate.stats import win_rate

PAIRINGS = (("razz_heuristic", "random"), ("razz_heuristic", "calling_station"),
            ("monte_carlo", "calling_station"), ("razz_heuristic", "monte_carlo"))


@dataclass
class Args:
    """Hands per pairing and dealing mode, seed."""

    hands: int = 20000
    seed: int = 0


def measure(agent: str, opponent: str, hands: int, seed: int) -> tuple[float, float, float, float]:
    """(duplicate mean, duplicate half-width, plain mean, plain half-width) in bb/100."""
    config = HandConfig.create("razz", num_seats=2, starting_stack=1000)
    big_bet = config.stakes.big_bet_size
    players = [make_agent(agent, seed=seed), make_agent(opponent, seed=seed + 1)]
    dup = summarise_tables(play_deals(players, config, hands // 2, f"dup/{seed}", duplicate=True), 2,
                           hands // 2, big_bet)
    plain = summarise_tables(play_deals(players, config, hands, f"plain/{seed}", duplicate=False), 2, hands,
                             big_bet)
    d = win_rate(dup["deals"], dup["deal_sum"][0], dup["deal_sumsq"][0])
    p = win_rate(plain["deals"], plain["deal_sum"][0], plain["deal_sumsq"][0])
    return d.mean_bb100, d.half_width, p.mean_bb100, p.half_width


def main(args: Args) -> None:
    print(f"{'pairing':<36}{'duplicate bb/100':>22}{'plain bb/100':>22}{'CI ratio':>10}")
    for agent, opponent in PAIRINGS:
        dm, dh, pm, ph = measure(agent, opponent, args.hands, args.seed)
        print(f"{agent + ' vs ' + opponent:<36}{f'{dm:.1f} ± {dh:.1f}':>22}{f'{pm:.1f} ± {ph:.1f}':>22}"
              f"{ph / dh:>9.2f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=Args.hands)
    parser.add_argument("--seed", type=int, default=Args.seed)
    main(Args(**vars(parser.parse_args())))
