"""How far a better value function takes AIVAT: the declared ``showdown_share`` against exact all-in equity.

For one heads-up razz pairing it plays ``deals`` duplicate deals on the scalar engine with every decision's
stated policy kept (``play_deals(..., stated=True)``), then scores each hand three ways and prints the first
agent's per-deal SD and mean (bb/100) for each:

- ``raw``: the payoffs;
- ``showdown_share v1``: the harness's AIVAT (:func:`razz_env.evaluate.aivat.aivat`);
- ``equity + c``: AIVAT with ``V_i = e_i * (pot + 2G) - (paid_i + G)``, ``e_i`` seat i's exact all-in equity with
  every dealt card known (:func:`razz_env.engine.equity.equity`: the rest dealt out, exact by rank draws) and
  ``G = c`` times the street bets still to come (the bets of the streets after the one the cards are for) for
  each allowance ``c`` of ``allowances``, 0 when one seat is left. Exact equity is a martingale over the cards
  that could come, so a card's correction is ``(e_after - e_before) * (pot + 2G)``; a decision's is the value
  after it less its mean under the stated policy.

Exact equity costs tens of milliseconds a hand (3rd street: 1,820 x 1,820 rank draws; the study prints the CPU
time of each scoring), which is why the harness does not use it. Results: ``docs/studies/aivat_value_functions.md``.

    python studies/aivat_value_functions.py --deals 200
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from razz_env.agents.registry import make_agent
from razz_env.command_line import run_script
from razz_env.encoding.actions import ENGINE_TO_ID
from razz_env.engine.actions import Action
from razz_env.engine.cards import card_str
from razz_env.engine.checks import limited
from razz_env.engine.config import HandConfig
from razz_env.engine.equity import equity
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.evaluate.aivat import aivat
from razz_env.evaluate.blocks import play_deals
from razz_env.train.config import check_agent_spec


@dataclass
class Args:
    """What is played: the pairing, the deals, the allowances for bets to come, the seed."""

    pairing: str = "ppo_razz_psro:razz_heuristic"
    """``AGENT:OPPONENT``, registered agent names (razz, heads-up)"""
    deals: int = limited(200, minimum=2)
    """duplicate deals (two hands each)"""
    allowances: tuple[float, ...] = (0.0, 0.25, 0.5, 1.0)
    """multiples of the street bets still to come that the equity value adds to the pot"""
    seed: int = 0
    """seeds the deals and the agents"""


def shares(hand: HandState, folded: list[bool]) -> np.ndarray:
    """Each seat's exact all-in equity on the cards dealt so far (a folded seat 0, a lone seat 1)."""
    return np.array(_shares(tuple(tuple(cards) for cards in hand.cards), tuple(folded)))


@functools.cache
def _shares(cards: tuple[tuple[int, ...], ...], folded: tuple[bool, ...]) -> tuple[float, ...]:
    """:func:`shares` by the cards and folds (worked out once: every allowance asks the same)."""
    live = [seat for seat, out in enumerate(folded) if not out]
    result = [0.0] * len(cards)
    if len(live) == 1:
        result[live[0]] = 1.0
        return tuple(result)
    held = [" ".join(card_str(card) for card in cards[seat]) + " x" * (7 - len(cards[seat])) for seat in live]
    for seat, share in zip(live, equity(held, "razz").shares):
        result[seat] = share
    return tuple(result)


def bets_to_come(config: HandConfig, cards: int) -> int:
    """The street bets of the streets after the one that deals a seat its ``cards``-th card."""
    return sum(config.bet_size(street) for street in config.variant.street_numbers if street > cards)


def corrected(hand: HandState, policies: list, allowance: float) -> np.ndarray:
    """AIVAT payoffs of a finished hand with the equity value function and ``allowance``."""
    replay = HandState(hand.config, cards=hand.cards, community=hand.community)
    config = hand.config
    correction = np.zeros(hand.num_seats)
    now = shares(replay, replay.folded)
    for entry, policy in zip(hand.history, policies):
        seat, dealt = replay.actor, max(len(cards) for cards in replay.cards)
        if policy is not None:
            values = {}
            for action in replay.legal_actions():
                if policy[ENGINE_TO_ID[action]] or action is entry.action:
                    paid = np.array(replay.contributed, dtype=float)
                    paid[seat] += replay.chips_for(action)
                    folded = [*replay.folded]
                    folded[seat] = folded[seat] or action is Action.FOLD
                    after = shares(replay, folded) if action is Action.FOLD else now
                    more = allowance * bets_to_come(config, dealt) if folded.count(False) > 1 else 0.0
                    values[action] = after * (paid.sum() + 2 * more) - paid - more
            expected = sum(policy[ENGINE_TO_ID[action]] * value for action, value in values.items())
            correction += values[entry.action] - expected
        replay.act(entry.action)
        if replay.is_over:
            break
        if max(len(cards) for cards in replay.cards) != dealt:
            later = shares(replay, replay.folded)
            pot = sum(replay.contributed)
            correction += (later - now) * (pot + 2 * allowance * bets_to_come(config, dealt + 1))
            now = later
        elif entry.action is Action.FOLD:
            now = shares(replay, replay.folded)
    return np.asarray(hand.payoffs, dtype=float) - correction


def main(args: Args) -> None:
    """Play the pairing, score every hand each way, print one row per scoring."""
    pair = args.pairing.split(":")
    if len(pair) != 2:
        raise ConfigError(f"--pairing: expected AGENT:OPPONENT, got {args.pairing}")
    for name in pair:
        check_agent_spec("--pairing", name, "razz", 2)
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    config = HandConfig.create("razz", num_seats=2)
    players = [make_agent(name, seed=args.seed + index) for index, name in enumerate(pair)]
    tables = play_deals(players, config, args.deals, f"aivat-study/{args.seed}", stated=True)
    scorings = {"raw": lambda t: np.asarray(t.payoffs, dtype=float),
                "showdown_share v1": lambda t: aivat(t.hand, t.policies).corrected}
    for allowance in args.allowances:
        scorings[f"equity + {allowance:g}"] = lambda t, c=allowance: corrected(t.hand, t.policies, c)
    print(f"{args.pairing}, {args.deals} duplicate deals; per deal, bb/100 of {pair[0]}")
    print(f"{'scoring':<22}{'sd':>9}{'raw sd / sd':>13}{'mean':>9}{'CPU ms/hand':>13}")
    raw_sd = None
    for name, score in scorings.items():
        per_deal = np.zeros(args.deals)
        started = time.process_time()
        for table in tables:
            per_deal[table.deal] += score(table)[table.positions.index(0)] / config.big_bet / 2 * 100
        spent = (time.process_time() - started) / len(tables) * 1e3
        sd = per_deal.std(ddof=1)
        raw_sd = sd if raw_sd is None else raw_sd
        print(f"{name:<22}{sd:>9.2f}{raw_sd / sd:>13.2f}{per_deal.mean():>9.2f}{spent:>13.2f}")
    print("(the equity rows after the first reuse its equities: their time is the correction alone)")


if __name__ == "__main__":
    run_script(main, Args, __doc__)
