"""A tournament's work as tasks: blocks of deals for one lineup, their seat rotations, and the agents they seat.

A task's seed depends only on the tournament seed and its block number, so any task can be played anywhere
(a worker, a Ray actor, a resumed run) and gives the same result.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from razz_env.encoding.interface import Agent
from razz_env.evaluate.config import AgentSpec, TournamentConfig
from razz_env.evaluate.containment import failure_of


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


def build_agent(spec: AgentSpec, seed: int, hidden: Sequence[str] = ()) -> Agent:
    """The agent ``spec`` describes, seeded with ``seed`` unless the spec sets one (``label`` is display only);
    an agent instance plays as it is, with its own randomness. A spec with ``isolated: true`` plays in a process
    of its own (:class:`~razz_env.evaluate.isolation.IsolatedAgent`) that cannot see the ``hidden`` folders, as does
    a bot's ``cmd:`` (:class:`~razz_env.agents.external.ExternalAgent`)."""
    from collections.abc import Mapping

    from razz_env.agents.registry import get_factory, is_command, make_agent

    if isinstance(spec, str) and is_command(spec):
        spec = {"type": spec}
    if isinstance(spec, Mapping) and is_command(spec["type"]):
        spec = {**spec, "hidden": [*spec.get("hidden", ()), *hidden]}
    if isinstance(spec, Mapping):
        isolated = spec.get("isolated", False)
        spec = {k: v for k, v in spec.items() if k not in ("label", "isolated")}
        if isolated:
            from razz_env.evaluate.isolation import IsolatedAgent

            return IsolatedAgent(spec, seed, modules=(get_factory(spec["type"]).__module__,), hidden=hidden)
    return make_agent(spec, seed=seed)


def make_agents(specs: Sequence[AgentSpec], lineup: Sequence[int], seed: str,
                hidden: Sequence[str] = ()) -> dict[int, Agent]:
    """One agent per distinct lineup entry, each seeded from the task seed (isolated ones blind to ``hidden``).

    An agent whose construction raises is a broken agent: :class:`AgentFailure` at its position.
    """
    built: dict[int, Agent] = {}
    for position, index in enumerate(lineup):
        if index not in built:
            try:
                built[index] = build_agent(specs[index], random.Random(f"{seed}/agent{position}").randrange(2**31),
                                           hidden)
            except (Exception, SystemExit) as err:  # noqa: BLE001 - any agent bug must be contained and reported
                raise failure_of(position, "construction: ", err) from None
    torch = sys.modules.get("torch")
    if torch is not None:  # an agent brought torch in: one thread, its default threads thrash on 2 shared cores
        torch.set_num_threads(1)
    return built
