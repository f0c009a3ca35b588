"""Evaluation: matches and tournaments between agents, duplicate-dealt, with confidence intervals.

``match(agent_a, agent_b, deals=...)`` plays two agents heads-up; ``tournament(config)`` runs a round
robin or a table from a :class:`TournamentConfig`, a mapping or a YAML file (``razz tournament``).
They are imported on first use, so ``import razz_env.evaluate`` stays light.
"""

from __future__ import annotations

from razz_env.engine.lazy import lazy_exports

_LAZY = {
    "match": "razz_env.evaluate.api",
    "tournament": "razz_env.evaluate.api",
    "MatchResult": "razz_env.evaluate.api",
    "BlockRow": "razz_env.evaluate.api",
    "TournamentResult": "razz_env.evaluate.runner",
    "TournamentConfig": "razz_env.evaluate.config",
    "BlockError": "razz_env.evaluate.workers",
}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
