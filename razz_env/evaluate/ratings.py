"""Ratings with openskill (Plackett-Luce): each finished block is one game ranked by chips won.

Blocks are rated in task order, so ratings are the same whatever the number of
workers. The reported rating is the conservative ``mu - 3 * sigma``.
"""

from __future__ import annotations

from typing import Any


def rate(num_agents: int, results: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """``(mu, sigma)`` per agent after rating every block result in order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    players = [model.rating(name=str(i)) for i in range(num_agents)]
    for result in results:
        lineup = result["lineup"]
        if len(set(lineup)) != len(lineup):
            continue
        teams = [[players[agent]] for agent in lineup]
        scores = list(result["deal_sum"])
        updated = model.rate(teams, scores=scores)
        for agent, team in zip(lineup, updated):
            players[agent] = team[0]
    return [(p.mu, p.sigma) for p in players]
