"""The unit of work: one block of deals for one lineup, played in lockstep, sums out.

:func:`run_task` is a pure function of (config, task): it builds the agents,
deals ``task.deals`` decks from the task's seed, plays every deal once per seat
permutation (duplicate) or once (plain), and returns per-lineup-position sums of
big bets won. All tables of a block advance together, so each agent gets one
batched call per step (one network forward pass for learned agents), not one per
table. A broken agent (raises, exceeds its time, or picks an illegal action)
ends the task with an error record instead of an exception.
"""

from __future__ import annotations

import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from razz_env.agent import Agent, Observer, act_batch
from razz_env.encoding.actions import to_engine
from razz_env.engine.config import HandConfig
from razz_env.engine.dealing import shuffled_deck
from razz_env.engine.record import to_record
from razz_env.engine.state import HandState
from razz_env.evaluation.config import AgentSpec, TournamentConfig


@dataclass(frozen=True)
class Task:
    """A block of deals for one lineup (indices into ``config.agents``, one per seat)."""

    task_id: str
    lineup: tuple[int, ...]
    block: int
    deals: int
    seed: str

    @classmethod
    def for_block(cls, config: TournamentConfig, lineup: tuple[int, ...], block: int, deals: int) -> Task:
        """Block ``block`` of ``lineup``: its seed depends only on the tournament seed and the block number."""
        return cls(f"{'-'.join(str(i) for i in lineup)}/{block}", lineup, block, deals, f"{config.seed}/{block}")


def build_tasks(config: TournamentConfig) -> list[Task]:
    """Every block of the tournament, in a fixed order (lineup, then block).

    Block ``b`` holds deals ``b * block_deals`` onwards whatever ``deals`` is, so a longer
    tournament starts with exactly the blocks of a shorter one (only a short last block differs).
    """
    blocks = -(-config.deals // config.block_deals)
    return [Task.for_block(config, lineup, block, min(config.block_deals, config.deals - block * config.block_deals))
            for lineup in config.lineups() for block in range(blocks)]


class AgentFailure(Exception):
    """An agent raised, ran past its time limit, or chose an illegal action."""

    def __init__(self, position: int, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.position = position
        self.kind = kind
        self.message = message


def seat_permutations(seats: int, duplicate: bool, deal_index: int) -> list[tuple[int, ...]]:
    """Lineup position for each seat, for every replay of one deal.

    Duplicate: every rotation (heads-up, both seatings), so each lineup position
    plays each seat's cards once. Plain: a single rotation that moves on each deal.

    >>> seat_permutations(2, True, 0)
    [(0, 1), (1, 0)]
    """
    rotations = [tuple((seat + shift) % seats for seat in range(seats)) for shift in range(seats)]
    if duplicate:
        return rotations
    return [rotations[deal_index % seats]]


def build_agent(spec: AgentSpec, seed: int) -> Agent:
    """The agent ``spec`` describes, seeded with ``seed`` unless the spec sets one (``label`` is display only)."""
    from agents.registry import make_agent

    if not isinstance(spec, str):
        spec = {k: v for k, v in spec.items() if k != "label"}
    return make_agent(spec, seed=seed)


def make_agents(specs: Sequence[AgentSpec], lineup: Sequence[int], seed: str) -> dict[int, Agent]:
    """One agent per distinct lineup entry, each seeded from the task seed.

    An agent whose construction raises is a broken agent: :class:`AgentFailure` at its position.
    """
    built: dict[int, Agent] = {}
    for position, index in enumerate(lineup):
        if index not in built:
            try:
                built[index] = build_agent(specs[index], random.Random(f"{seed}/agent{position}").randrange(2**31))
            except Exception as err:  # noqa: BLE001 - any agent bug must be contained and reported
                raise AgentFailure(position, "exception", f"construction: {type(err).__name__}: {err}") from None
    _limit_torch_threads()
    return built


def _limit_torch_threads() -> None:
    """One torch thread when an agent brought torch in: its default threads thrash on 2 shared cores."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


class _Timeout(Exception):
    pass


def _with_time_limit(call: Callable[[], Any], seconds: float) -> Any:
    """Run ``call``; raise :class:`_Timeout` past ``seconds`` (enforced in the main thread only)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return call()

    def expire(signum: int, frame: Any) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class _Table:
    deal: int
    hand: HandState
    positions: tuple[int, ...]


def _decide(agent: Agent, position: int, tables: list[_Table], observer: Observer, timeout: float) -> None:
    observations = [observer(t.hand, t.hand.actor) for t in tables]
    try:
        ids = _with_time_limit(lambda: act_batch(agent, observations), timeout * len(tables))
    except _Timeout:
        raise AgentFailure(position, "timeout", f"no decision within {timeout:g} s per decision") from None
    except Exception as err:  # noqa: BLE001 - any agent bug must be contained and reported
        raise AgentFailure(position, "exception", f"{type(err).__name__}: {err}") from None
    if len(ids) != len(tables):
        raise AgentFailure(position, "exception", f"returned {len(ids)} actions for {len(tables)} decisions")
    for table, action_id in zip(tables, ids):
        hand = table.hand
        try:
            action = to_engine(int(action_id), hand.legal_actions())
        except (TypeError, ValueError) as err:
            raise AgentFailure(position, "illegal", f"seat {hand.actor}: {err}") from None
        hand.act(action)


def _observer(agent: Agent, position: int, hand_config: HandConfig) -> Observer:
    """The agent's observer; an agent that asks for an unknown encoding or part is a broken agent."""
    try:
        return Observer(agent, hand_config)
    except ValueError as err:
        raise AgentFailure(position, "exception", str(err)) from None


def play_deals(
    players: Sequence[Agent],
    hand_config: HandConfig,
    deals: int,
    seed: str,
    duplicate: bool = True,
    timeout: float = 2.0,
    first_deal: int = 0,
) -> list[_Table]:
    """Play ``deals`` decks with ``players[i]`` at lineup position ``i``, all tables in lockstep.

    Returns the finished tables; raises :class:`AgentFailure` for a broken agent.
    """
    seats = len(players)
    observers = [_observer(player, position, hand_config) for position, player in enumerate(players)]
    deck_rng = random.Random(seed)
    tables: list[_Table] = []
    for deal in range(deals):
        deck = shuffled_deck(deck_rng, cards=hand_config.variant.deck)
        for rotation in seat_permutations(seats, duplicate, first_deal + deal):
            tables.append(_Table(deal, HandState(hand_config, deck=deck), rotation))
    for table in tables:
        for seat, position in enumerate(table.positions):
            try:
                players[position].reset(seat, seats, hand_config.variant.name)
            except Exception as err:  # noqa: BLE001 - any agent bug must be contained and reported
                raise AgentFailure(position, "exception", f"reset: {type(err).__name__}: {err}") from None
    active = [t for t in tables if not t.hand.is_over]
    while active:
        waiting: dict[int, list[_Table]] = {}
        for table in active:
            waiting.setdefault(table.positions[table.hand.actor], []).append(table)
        for position, group in waiting.items():
            _decide(players[position], position, group, observers[position], timeout)
        active = [t for t in active if not t.hand.is_over]
    return tables


def run_task(config: TournamentConfig, task: Task) -> dict[str, Any]:
    """Play one task: sums per lineup position (or an ``error`` entry), tagged with the config and block.

    With ``config.records`` the result also carries ``records``: every hand's record, with the
    agents' display names as its ``players``.
    """
    seats = len(task.lineup)
    hand_config = config.hand_config(seats)
    block = {"task_id": task.task_id, "config": config.config_id, "lineup": list(task.lineup), "block": task.block,
             "deals": task.deals, "seed": task.seed}
    started = time.perf_counter()
    try:
        agents = make_agents(config.agents, task.lineup, task.seed)
        players = [agents[index] for index in task.lineup]
        tables = play_deals(players, hand_config, task.deals, task.seed, config.duplicate,
                            config.decision_timeout, task.block * config.block_deals)
    except AgentFailure as failure:
        return {**block, "error": {
            "agent": task.lineup[failure.position], "kind": failure.kind, "message": failure.message}}
    result = {**block, **summarise_tables(tables, seats, task.deals, hand_config.big_bet),
              "seconds": round(time.perf_counter() - started, 3)}
    if config.records:
        labels = config.labels
        result["records"] = [to_record(t.hand, players=[labels[task.lineup[p]] for p in t.positions])
                             for t in tables]
    return result


def summarise_tables(tables: list[_Table], seats: int, deals: int, big_bet: int) -> dict[str, Any]:
    """Per lineup position: sums of big bets per deal (mean over its replays) and per hand."""
    per_deal = [[0.0] * seats for _ in range(deals)]
    replays = [0] * deals
    hand_sum = [0.0] * seats
    hand_sumsq = [0.0] * seats
    for table in tables:
        replays[table.deal] += 1
        for seat, position in enumerate(table.positions):
            won = table.hand.payoffs[seat] / big_bet
            per_deal[table.deal][position] += won
            hand_sum[position] += won
            hand_sumsq[position] += won * won
    deal_sum = [0.0] * seats
    deal_sumsq = [0.0] * seats
    for deal, values in enumerate(per_deal):
        for position in range(seats):
            mean = values[position] / replays[deal]
            deal_sum[position] += mean
            deal_sumsq[position] += mean * mean
    return {"deals": deals, "hands": len(tables), "deal_sum": deal_sum, "deal_sumsq": deal_sumsq,
            "hand_sum": hand_sum, "hand_sumsq": hand_sumsq}
