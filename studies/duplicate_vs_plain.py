"""How much duplicate dealing narrows the 95% CI, measured: same pairings, same number of hands.

For each pairing, plays ``hands`` hands with duplicate dealing (``hands / 2`` deals, each with the seats
swapped) and ``hands`` plain hands (fresh deals, seats alternating), heads-up razz, and prints both CI
half-widths and their ratio. Results: ``docs/studies/duplicate_vs_plain.md``.

    python studies/duplicate_vs_plain.py --hands 10000
"""

from __future__ import annotations

from dataclasses import dataclass

from razz_env.agents.registry import make_agent
from razz_env.command_line import run_script
from razz_env.engine.checks import limited
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.evaluate.block_sums import Sums, summarise_tables
from razz_env.evaluate.blocks import play_deals
from razz_env.train.config import check_agent_spec


@dataclass
class Args:
    """What is played: the pairings, hands per pairing and dealing mode, the seed."""

    pairings: tuple[str, ...] = ("razz_heuristic:random", "razz_heuristic:calling_station",
                                 "monte_carlo:calling_station", "razz_heuristic:monte_carlo")
    """``AGENT:OPPONENT`` pairs of registered agent names"""
    hands: int = limited(10000, minimum=2)
    """hands per pairing and dealing mode (duplicate plays hands / 2 deals twice)"""
    seed: int = 0
    """seeds the deals and the agents"""


def measure(agent: str, opponent: str, hands: int, seed: int) -> tuple[float, float, float, float]:
    """(duplicate mean, duplicate half-width, plain mean, plain half-width) in bb/100."""
    config = HandConfig.create("razz", num_seats=2, stacks=1000)
    big_bet = config.stakes.big_bet_size
    players = [make_agent(agent, seed=seed), make_agent(opponent, seed=seed + 1)]
    dup = summarise_tables(play_deals(players, config, hands // 2, f"dup/{seed}", duplicate=True), 2,
                           hands // 2, big_bet)
    plain = summarise_tables(play_deals(players, config, hands, f"plain/{seed}", duplicate=False), 2, hands,
                             big_bet)
    d, p = Sums.of(dup, 0).per_deal, Sums.of(plain, 0).per_deal
    return d.mean_bb100, d.half_width, p.mean_bb100, p.half_width


def main(args: Args) -> None:
    """Measure every pairing and print one row each."""
    pairs = [pairing.split(":") for pairing in args.pairings]
    if any(len(pair) != 2 for pair in pairs):
        raise ConfigError(f"--pairings: expected AGENT:OPPONENT pairs, got {' '.join(args.pairings)}")
    for name in {name for pair in pairs for name in pair}:
        check_agent_spec("--pairings", name, "razz", 2)
    print(f"{'pairing':<36}{'duplicate bb/100':>22}{'plain bb/100':>22}{'CI ratio':>10}")
    for agent, opponent in pairs:
        dm, dh, pm, ph = measure(agent, opponent, args.hands, args.seed)
        print(f"{agent + ' vs ' + opponent:<36}{f'{dm:.1f} ± {dh:.1f}':>22}{f'{pm:.1f} ± {ph:.1f}':>22}"
              f"{ph / dh:>9.2f}x")


if __name__ == "__main__":
    run_script(main, Args, __doc__)
