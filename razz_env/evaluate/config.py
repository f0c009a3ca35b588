"""Tournament configuration: which agents, which game, how many deals, how they are dealt.

A :class:`TournamentConfig` comes from YAML (``configs/*.yaml``) or from the
embedded default that ``razz tournament`` runs with no argument. Every field is
checked on construction, type included (``records: 'no'`` is not a flag, ``seed:
1.5`` not a seed); unknown keys and bad values are refused with the key named.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import math
import pickle
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from razz_env.agents.exploiters import EXPLOITERS
from razz_env.engine.checks import as_flag, as_list, check_fields, limited
from razz_env.engine.config import MAX_SEATS, HandConfig, max_seats
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.settings import read_settings_file, with_overrides
from razz_env.engine.table import Table, TableOptions
from razz_env.engine.variants import get_variant

AgentSpec = str | dict[str, Any] | Any  # a name, model file or module:Class; a mapping with options; an agent

DEFAULT_AGENTS: tuple[AgentSpec, ...] = (
    "random",
    "calling_station",
    "razz_heuristic",
    "monte_carlo",
    "ppo_razz",
    "qrdqn_razz",
    "ppo_razz_pool",  # ppo_razz_multiway is this network widened to eight seats: heads-up it plays identically
    "ppo_razz_psro",
    "mccfr_razz",
    *EXPLOITERS,
)
"""The default tournament's lineup: heads-up razz's shipped agents (the main job, ``razz tournament``)."""
DEFAULT_LINEUPS: dict[str, tuple[AgentSpec, ...]] = {
    "razz": DEFAULT_AGENTS,
    "action_razz": ("random", "calling_station", "razz_heuristic", "monte_carlo", "mccfr_action_razz", *EXPLOITERS),
    "stud": ("random", "calling_station", "razz_heuristic", "monte_carlo", "ppo_stud", *EXPLOITERS),
    "stud8": ("random", "calling_station", "stud8_heuristic", "razz_heuristic", "monte_carlo", "mccfr_stud8",
              *EXPLOITERS),
}
"""Each seven-card game's default lineup (a config without ``agents``, ``razz tournament --variant V``): the
agents that play it, baselines, hand-crafted and trained ones and the exploiters. MiniRazz has none: its tabular
agents play the solved tree's 200-chip table, so a MiniRazz tournament lists its agents and its stacks."""
ENGINES = ("auto", "scalar", "batch")
RANKINGS = ("bb_per_100", "aivat_bb_per_100")
FORMATS = ("round_robin", "table")
MAX_BLOCKS = 100_000
MAX_DECISION_TIMEOUT = 3600.0
# What decides a block's result: a results folder holds blocks of one such identity only. Not
# ``deals`` (a tournament extends block by block), nor name, output, workers, records, the time limit
# (failed blocks are retried), the report's edge or the engine (both engines give the same results).
# ``fingerprints`` says what plays under each agent's name (:func:`agent_fingerprint`).
RESULT_FIELDS = ("variant", "format", "agents", "fingerprints", "duplicate", "block_deals", "seed", "stacks", "ante",
                 "bring_in", "small_bet", "big_bet", "street_bets", "raise_cap", "heads_up_uncapped",
                 "open_pair_big_bet")
RESULT_RULE_DEFAULTS = {"bring_in_tie_break": "suit", "later_street_tie_break": "suit",
                        "heads_up_tournament_uncapped": False, "chip": 1, "rules": "house"}
"""Table options that decide block results too, but join the identity only when they are not these (the house
defaults): a results folder made before they existed keeps its identity."""
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")
_SPEC_SIZE = 1000


def agent_label(spec: AgentSpec) -> str:
    """Display name of an agent spec: its ``label`` key, else its type (and options); an instance's ``name``; a
    model file spec's ``name``, else the file's short name (not its whole spec, hash included)."""
    if isinstance(spec, str):
        return spec
    if not isinstance(spec, Mapping):
        return str(getattr(spec, "name", None) or type(spec).__name__)
    if "label" in spec:
        return str(spec["label"])
    if spec.get("type") == "sb3_model" and isinstance(spec.get("path"), str):
        from razz_env.agents.sb3_zoo import model_label

        return str(spec.get("name") or model_label(spec["path"]))
    options = ",".join(f"{k}={v}" for k, v in sorted(spec.items()) if k not in ("type", "seed", "isolated"))
    return f"{spec['type']}({options})" if options else str(spec["type"])


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value or "\0" in value:
        raise ConfigError(f"{name}: expected a non-empty string, got {shown(value)}")
    return value


def _plain_data(where: str, value: Any, budget: list[int]) -> Any:
    """``value`` as JSON-ready data (str keys; str, number, bool, null, lists, mappings), within a size budget."""
    budget[0] -= 1
    if budget[0] < 0:
        raise ConfigError(f"{where}: too large or too deeply nested (at most {_SPEC_SIZE} values)")
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ConfigError(f"{where}: expected a finite number, got {value!r}")
        return value
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise ConfigError(f"{where}: keys must be names, got {shown(key)}")
            out[key] = _plain_data(f"{where}.{key}", item, budget)
        return out
    if isinstance(value, (list, tuple)):
        return [_plain_data(f"{where}[{i}]", item, budget) for i, item in enumerate(value)]
    raise ConfigError(f"{where}: expected plain data (text, numbers, true/false, lists, mappings), got "
                      f"{shown(value)}")


def _agent_spec(index: int, spec: Any) -> AgentSpec:
    """One entry of ``agents``: a registered name, model file or ``module:Class``, ``{type: name, label: shown name,
    **options}``, or an agent instance. A model file is pinned to its SHA-256 (so its results folder is too)."""
    from razz_env.agents.registry import is_agent, is_command, is_model_file, is_remote

    where = f"agents[{index}]"
    if is_agent(spec):
        return spec
    if isinstance(spec, str):
        name = _text(where, spec)
        return _pinned(where, {"type": name, "label": name}) if is_model_file(name) else name
    if not isinstance(spec, Mapping):
        raise ConfigError(f"{where}: expected an agent name, a mapping with 'type' or an agent (with reset and "
                          f"act), got {shown(spec)}")
    data = _plain_data(where, spec, [_SPEC_SIZE])
    if "type" not in data:
        raise ConfigError(f"{where}: a mapping needs a 'type' naming the agent, got {shown(spec)}")
    _text(f"{where}.type", data["type"])
    if "label" in data:
        _text(f"{where}.label", data["label"])
    if "isolated" in data:
        data["isolated"] = as_flag(f"{where}.isolated", data["isolated"])
        if data["isolated"] and is_command(data["type"]):
            raise ConfigError(f"{where}: a bot ({data['type']!r}) always plays in a sandboxed process of its own; "
                              f"drop 'isolated'")
        if data["isolated"] and is_remote(data["type"]):
            raise ConfigError(f"{where}: a remote bot ({data['type']!r}) plays on its own machine, over TCP; "
                              f"drop 'isolated'")
    return _pinned(where, {"label": data["type"], **data}) if is_model_file(data["type"]) else data


def _pinned(where: str, spec: dict[str, Any]) -> dict[str, Any]:
    """A model file's spec with its SHA-256 (unless given: the one its run folder recorded, else the file's as it is
    now): results stay those of these bytes."""
    from razz_env.agents.sb3_zoo import recorded_sha256

    if "sha256" not in spec:
        spec["sha256"] = recorded_sha256(spec["type"])
    if spec["sha256"] is None:
        try:
            spec["sha256"] = hashlib.sha256(Path(spec["type"]).read_bytes()).hexdigest()
        except OSError as err:
            raise ConfigError(f"{where}: cannot read the model file {spec['type']!r}: {err.strerror or err}") from None
    return spec


def agent_fingerprint(spec: AgentSpec) -> dict[str, Any] | None:
    """What plays under an agent's name: a model's SHA-256 (zoo agents, model files), else the SHA-256 of the
    source file defining its code (registered and ``module:Class`` agents, instances) or of a bot's program
    (``cmd:``), or a remote bot's address (``remote:``: nothing more can be known of it); LBR's target's too.

    None when the spec resolves to nothing (the agent checks refuse it, naming it).
    """
    from razz_env.agents.registry import COMMAND_PREFIX, get_factory, is_command, is_remote

    if not isinstance(spec, (str, Mapping)):
        return {"source_sha256": _source_sha256(type(spec))}
    name = spec if isinstance(spec, str) else spec["type"]
    if is_command(name):
        from razz_env.agents.external import command_line

        try:
            return {"source_sha256": hashlib.sha256(Path(command_line(name[len(COMMAND_PREFIX):])[0]).read_bytes())
                    .hexdigest()}
        except (ValueError, OSError):
            return None
    if is_remote(name):
        return {"remote": name}
    if isinstance(spec, Mapping) and "sha256" in spec:
        return {"model_sha256": spec["sha256"]}
    try:
        factory = get_factory(name)
    except Exception:  # noqa: BLE001 - an unknown or broken spec is refused, named, by the agent checks
        return None
    model = _zoo_sha256(name, factory)
    found: dict[str, Any] = {"model_sha256": model} if model else {"source_sha256": _source_sha256(factory)}
    target = spec.get("target") if isinstance(spec, Mapping) else None
    if isinstance(target, (str, Mapping)):
        found["target"] = agent_fingerprint(target)
    return found


def _zoo_sha256(name: str, factory: Any) -> str | None:
    """The manifest's SHA-256 of a shipped model or policy registered as ``name`` (None for code agents)."""
    import sys

    listing = {"razz_env.agents.sb3_zoo": "manifest", "razz_env.agents.tabular_zoo": "policies"}.get(factory.__module__)
    module = sys.modules.get(factory.__module__)
    entry = getattr(module, listing)().get(name) if listing and module is not None else None
    return entry["sha256"] if isinstance(entry, dict) and isinstance(entry.get("sha256"), str) else None


def _source_sha256(code: Any) -> str | None:
    """SHA-256 of the source file that defines ``code`` (a class or function); None when it has none."""
    import inspect

    try:
        path = inspect.getsourcefile(code)
        return hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else None
    except (TypeError, OSError):
        return None


def _instance_identity(index: int, agent: Any, workers: int) -> dict[str, Any]:
    """What a results folder records of an agent instance: its class, its name and the SHA-256 of its pickle.

    With ``workers`` above 1 the instance travels to worker processes, so one that does not pickle is refused.
    """
    try:
        digest = hashlib.sha256(pickle.dumps(agent)).hexdigest()
    except Exception as err:  # noqa: BLE001 - whatever pickling raises, the agent stays in this process
        if workers > 1:
            raise ConfigError(f"agents[{index}] ({agent_label(agent)}): an agent instance plays in worker processes "
                              f"only if it pickles ({type(err).__name__}: {' '.join(str(err).split())}); use "
                              f"workers: 1, or give the agent by name or spec") from None
        digest = None
    kind = type(agent)
    return {"instance": f"{kind.__module__}:{kind.__qualname__}", "label": agent_label(agent), "pickle_sha256": digest}


@dataclass(frozen=True)
class TournamentConfig(TableOptions):
    """One tournament.

    ``format``: ``round_robin`` (every pair heads-up) or ``table`` (all agents at one
    table, seats rotated). ``agents``: the lineup (left out, the variant's in :data:`DEFAULT_LINEUPS`).
    ``deals``: deals per pairing (or per table); with
    ``duplicate`` each deal is replayed once per seat permutation so card luck cancels.
    ``block_deals``: deals per unit of work (one result line, one resume point).
    ``engine``: ``auto`` plays a lineup on the batched engine (:mod:`razz_env.batch`) unless an agent in it reads
    the seat view one decision at a time (no ``act_batch``), then on the scalar one; ``scalar`` always on the
    scalar one; ``batch`` always on the batched one (refusing a lineup it cannot play). The results are the same
    either way.
    The table options are those of :class:`~razz_env.engine.table.Table`, but the seats, which the format sets:
    ``stacks`` (default 1000), ``ante``, ``bring_in``, ``small_bet``, ``big_bet``, ``street_bets``, ``raise_cap``
    (``0`` is no cap), ``heads_up_uncapped``, ``open_pair_big_bet``, ``bring_in_tie_break``,
    ``later_street_tie_break``, ``heads_up_tournament_uncapped``, ``chip``, ``rules`` (a preset); left out, the
    preset's, else the variant's (1/2/5/10 cap 4 in the seven-card games, 1/1/2/4 cap 2 in MiniRazz). The config
    holds the values it plays, defaults filled in, so its identity names the stakes; :attr:`table` is the table
    every hand is dealt at.
    ``aivat``: also score every hand with AIVAT (:mod:`razz_env.evaluate.aivat`), reported beside the raw figures;
    ``rank_by``: the standings' order, ``bb_per_100`` (raw) or ``aivat_bb_per_100`` (needs ``aivat``).
    """

    name: str = "default"
    format: str = limited("round_robin", choices=FORMATS)
    agents: tuple[AgentSpec, ...] | None = None
    deals: int = limited(4000, minimum=1)
    duplicate: bool = True
    block_deals: int = limited(250, minimum=1)
    seed: int = 0
    workers: int = limited(2, minimum=1)
    decision_timeout: float = limited(2.0, above=0, maximum=MAX_DECISION_TIMEOUT)
    records: bool = False
    engine: str = limited("auto", choices=ENGINES)
    aivat: bool = False
    rank_by: str = limited("bb_per_100", choices=RANKINGS)
    output: str = "results/default"
    edge_bb_per_100: float = limited(5.0, above=0)
    table: Table = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        name = _text("name", self.name)
        if not _PLAIN_NAME.fullmatch(name):
            raise ConfigError(f"name: expected a plain name (letters, digits, '_', '.', '+', '-'; no path), got "
                              f"{shown(name)}")
        get_variant(_text("variant", self.variant))
        check_fields(self)
        if self.agents is None:
            if self.variant not in DEFAULT_LINEUPS:
                raise ConfigError(f"agents: {self.variant} has no default lineup (those of "
                                  f"{', '.join(DEFAULT_LINEUPS)} do); list the agents")
            object.__setattr__(self, "agents", DEFAULT_LINEUPS[self.variant])
        agents = as_list("agents", self.agents, "a list of agent names or {type: name, ...} mappings")
        object.__setattr__(self, "agents", tuple(_agent_spec(i, spec) for i, spec in enumerate(agents)))
        if self.rank_by == "aivat_bb_per_100" and not self.aivat:
            raise ConfigError("rank_by: 'aivat_bb_per_100' ranks by the AIVAT figures, which need aivat: true")
        _text("output", self.output)
        # ``agents`` as plain data for the identity: an instance as its class, name and pickle digest.
        object.__setattr__(self, "_agent_data", [
            spec if isinstance(spec, (str, Mapping)) else _instance_identity(i, spec, self.workers)
            for i, spec in enumerate(self.agents)])
        self._check_lineups()
        table = self.table_at(self.seats)
        for key, value in table.to_dict().items():
            if key not in ("variant", "num_seats"):
                object.__setattr__(self, key, tuple(value) if isinstance(value, list) else value)
        object.__setattr__(self, "table", table)

    def _check_lineups(self) -> None:
        count = len(self.agents)
        if count < 2:
            raise ConfigError(f"agents: a tournament needs at least two agents, got {count}")
        most = max_seats(get_variant(self.variant))
        if self.format == "table" and count > most:
            deck = f" in {self.variant} (its deck deals that many)" if most < MAX_SEATS else ""
            raise ConfigError(f"agents: a table seats at most {most} agents{deck}, got {count}")
        seen: dict[str, int] = {}
        for index, label in enumerate(self.labels):
            if not label.strip() or any(unicodedata.category(ch) in ("Cc", "Cs") for ch in label):
                raise ConfigError(f"agents[{index}]: its name must be visible text without control characters, "
                                  f"got {shown(label)}")
            if label in seen:
                raise ConfigError(f"agents[{index}]: shown as {label!r} like agents[{seen[label]}]; give one a "
                                  f"distinct 'label' so results cannot be mixed up")
            seen[label] = index
        blocks = len(self.lineups()) * -(-self.deals // self.block_deals)
        if blocks > MAX_BLOCKS:
            raise ConfigError(f"deals: {self.deals} deals in blocks of {self.block_deals} make {blocks} blocks; at "
                              f"most {MAX_BLOCKS} (raise block_deals or lower deals)")

    @property
    def fingerprints(self) -> list[dict[str, Any] | None]:
        """:func:`agent_fingerprint` of each agent, computed once (and carried to worker processes)."""
        found = self.__dict__.get("_fingerprints")
        if found is None:
            found = [agent_fingerprint(spec) for spec in self.agents]
            object.__setattr__(self, "_fingerprints", found)
        return copy.deepcopy(found)

    @property
    def seats(self) -> int:
        """Seats at each table: 2 for round robin, every agent for a table."""
        return 2 if self.format == "round_robin" else len(self.agents)

    @property
    def labels(self) -> list[str]:
        """Display name of each agent (distinct: a config with two alike is refused)."""
        return [agent_label(spec) for spec in self.agents]

    def lineups(self) -> list[tuple[int, ...]]:
        """Agent indices at each table: every pair (round robin) or everyone (table), in a fixed order."""
        if self.format == "round_robin":
            return list(combinations(range(len(self.agents)), 2))
        return [tuple(range(len(self.agents)))]

    def hand_config(self) -> HandConfig:
        """The engine configuration of every hand (:attr:`table`'s)."""
        return self.table.hand_config()

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data (``summary.json``)."""
        data = {key: copy.deepcopy(getattr(self, key)) for key in self.config_keys() if key != "agents"}
        data["agents"] = list(self._agent_data)
        data["fingerprints"] = self.fingerprints
        for key in ("stacks", "street_bets"):
            if isinstance(data[key], tuple):
                data[key] = list(data[key])
        return data

    def identity(self) -> dict[str, Any]:
        """The fields that decide block results (:data:`RESULT_FIELDS`), and with ``aivat`` the value function's
        and the policy fit's stamps (its blocks carry AIVAT and fit sums too): results of another identity never
        mix."""
        data = self.to_dict()
        identity = {name: data[name] for name in RESULT_FIELDS}
        identity.update({name: data[name] for name, default in RESULT_RULE_DEFAULTS.items() if data[name] != default})
        if self.aivat:
            from razz_env.evaluate.aivat import SHOWDOWN_SHARE
            from razz_env.evaluate.policy_fit import POLICY_FIT_STAMP

            identity["aivat"] = SHOWDOWN_SHARE.stamp()
            identity["aivat_policy_fit"] = dict(POLICY_FIT_STAMP)
        return identity

    @functools.cached_property
    def config_id(self) -> str:
        """A short hash of :meth:`identity`, carried by every result line and the folder's stamp (computed once:
        every block and every results line reads it)."""
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], **overrides: Any) -> TournamentConfig:
        """Build from a YAML mapping; unknown keys are an error naming them and the known ones."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"tournament config: expected a mapping of settings, got {shown(data)}")
        known = cls.config_keys()
        unknown = [shown(key) for key in data if key not in known]
        if unknown:
            raise ConfigError(f"tournament config: unknown key(s) {', '.join(unknown)}; known: {', '.join(known)}")
        return cls(**with_overrides(data, overrides))

    @classmethod
    def from_yaml(cls, path: str | Path, **overrides: Any) -> TournamentConfig:
        """Load ``path`` (YAML); ``name`` defaults to the file name and ``output`` to ``results/<name>``."""
        data = read_settings_file(path, "tournament", "configs/tournament_*.yaml")
        data.setdefault("name", Path(path).stem)
        if isinstance(data["name"], str):
            data.setdefault("output", f"results/{data['name']}")
        return cls.from_dict(data, **overrides)
