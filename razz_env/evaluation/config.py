"""Tournament configuration: which agents, which game, how many deals, how they are dealt.

A :class:`TournamentConfig` comes from YAML (``configs/*.yaml``) or from the
embedded default that ``razz tournament`` runs with no argument. Unknown keys
and bad values are refused with the key named.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.settings import checked_fields, read_yaml, require_positive_ints, with_overrides

AgentSpec = str | dict[str, Any]

DEFAULT_AGENTS: tuple[AgentSpec, ...] = (
    "random",
    "calling_station",
    "razz_heuristic",
    "monte_carlo",
    "ppo_razz",
    "qrdqn_razz",
)


@dataclass(frozen=True)
class TournamentConfig:
    """One tournament.

    ``format``: ``round_robin`` (every pair heads-up) or ``table`` (all agents at one
    table, seats rotated). ``deals``: deals per pairing (or per table); with
    ``duplicate`` each deal is replayed once per seat permutation so card luck cancels.
    ``block_deals``: deals per unit of work (one result line, one resume point).
    """

    name: str = "default"
    variant: str = "razz"
    format: str = "round_robin"
    agents: tuple[AgentSpec, ...] = DEFAULT_AGENTS
    deals: int = 4000
    duplicate: bool = True
    block_deals: int = 250
    seed: int = 0
    starting_stack: int = 1000
    ante: int = 1
    bring_in: int = 2
    small_bet: int = 5
    big_bet: int = 10
    raise_cap: int | None = 4
    workers: int = 2
    decision_timeout: float = 2.0
    records: bool = False
    output: str = "results/default"
    edge_bb_per_100: float = 5.0

    def __post_init__(self) -> None:
        if self.format not in ("round_robin", "table"):
            raise ConfigError(f"format: expected 'round_robin' or 'table', got {self.format!r}")
        if len(self.agents) < 2:
            raise ConfigError(f"agents: a tournament needs at least two agents, got {len(self.agents)}")
        if self.format == "table" and len(self.agents) > 8:
            raise ConfigError(f"agents: a table seats at most 8 agents, got {len(self.agents)}")
        require_positive_ints(self, ("deals", "block_deals", "workers", "starting_stack"))
        if self.decision_timeout <= 0:
            raise ConfigError(f"decision_timeout: expected seconds > 0, got {self.decision_timeout!r}")
        object.__setattr__(self, "agents", tuple(self.agents))
        self.hand_config(2)

    @property
    def seats(self) -> int:
        """Seats at each table: 2 for round robin, every agent for a table."""
        return 2 if self.format == "round_robin" else len(self.agents)

    def hand_config(self, seats: int) -> HandConfig:
        """The engine configuration of every hand."""
        return HandConfig.create(
            self.variant, num_seats=seats, starting_stack=self.starting_stack, ante=self.ante,
            bring_in=self.bring_in, small_bet=self.small_bet, big_bet=self.big_bet, raise_cap=self.raise_cap,
        )

    def fingerprint(self) -> dict[str, Any]:
        """Everything that changes results (not workers, output or records): resume refuses a mismatch."""
        data = asdict(self)
        for name in ("workers", "output", "records", "decision_timeout"):
            data.pop(name)
        data["agents"] = [a if isinstance(a, str) else dict(a) for a in self.agents]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], **overrides: Any) -> TournamentConfig:
        """Build from a YAML mapping; unknown keys are an error naming them."""
        merged = with_overrides(checked_fields(cls, data, "tournament config"), overrides)
        if "agents" in merged:
            merged["agents"] = tuple(merged["agents"])
        return cls(**merged)

    @classmethod
    def from_yaml(cls, path: str | Path, **overrides: Any) -> TournamentConfig:
        """Load ``path`` (YAML); ``name`` and ``output`` default from the file name."""
        return cls.from_dict(read_yaml(path, "results"), **overrides)
