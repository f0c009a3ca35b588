"""List the agents: the variants and table sizes each declares it can play, and its idea (``razz agents``).

Every registered agent by default (rule agents play every game), or the ones named; a module:Class reference to
your own code is described the same way.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from razz_env.agents.registry import AgentSpecError, available_agents, describe_agent
from razz_env.engine.config import MAX_SEATS, MIN_SEATS
from razz_env.engine.errors import ConfigError


@dataclass(frozen=True)
class Args:
    """``razz agents``'s settings (its arguments; :func:`run`)."""

    names: tuple[str, ...] = field(default=(), metadata={"positional": True})
    """agents to describe (default: every registered one)"""
    json: bool = False
    """print a JSON list instead of a table"""


def run(args: Args) -> int:
    """``razz agents``: a table (agent, variants, seats, idea), or a JSON list."""
    try:
        infos = [describe_agent(name) for name in (args.names or available_agents())]
    except AgentSpecError as err:
        raise ConfigError(str(err)) from None
    if args.json:
        print(json.dumps([asdict(info) for info in infos], indent=2))
        return 0
    rows = [("agent", "variants", "seats", "idea")]
    for info in infos:
        if not info.tables_known:
            variants = seats = "as its spec says"
        else:
            variants = ", ".join(info.variants) if info.variants is not None else "all"
            seats = "/".join(map(str, info.seat_counts)) if info.seat_counts is not None else f"{MIN_SEATS}-{MAX_SEATS}"
        rows.append((info.name, variants, seats, info.idea))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])
    return 0
