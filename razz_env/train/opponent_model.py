"""The opponent model a sampled CFR run exploits: what given agents were seen to play, by abstraction key.

A restricted Nash response (:class:`~razz_env.solve.sampled_cfr.SampledCFR` with an
:class:`~razz_env.solve.sampled_cfr.OpponentModel`) needs, for each modelled agent, the ids it chose at the
abstraction's keys. :func:`observe` plays the agent against weighted partners (the imitation collector,
:func:`razz_env.train.imitation.collect`: its seat rotating, each hand's partner drawn by weight, decks from the
seed) and keys each of its decisions with the solver's own key function on what its seat saw;
:func:`build_model` does that for every agent of a :class:`ModelSpec` and counts the ids per key. A spec's
``streets`` keeps only the decisions of those streets, so the model is the agent there and the adversary is free
everywhere else (a model of a 3rd-street stealer, say). Everything follows the spec and the agents' seeds, so a
chain's model is rebuilt the same by its recipe.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from razz_env.engine.checks import as_int, as_real
from razz_env.engine.errors import ConfigError, labelled

if TYPE_CHECKING:
    from razz_env.engine.config import HandConfig
    from razz_env.solve.sampled_cfr import OpponentModel


@dataclass(frozen=True)
class ModelSpec:
    """Agents to model (names, each with the chance of its type in an iteration, ``weights``), the partners they
    are seen against (names, equally likely), how many hands each is watched, the seed of the deals and draws,
    ``full``: the decisions at a key at which the model is trusted fully (``min(1, n / full)``), and ``streets``:
    the streets (numbered by the cards a seat holds, stud's 3-7) whose decisions are modelled (empty: all)."""

    agents: tuple[str, ...]
    weights: tuple[float, ...]
    partners: tuple[str, ...]
    hands: int = 100_000
    seed: int = 0
    full: int = 10
    streets: tuple[int, ...] = ()

    @classmethod
    def create(cls, settings: dict[str, Any]) -> ModelSpec:
        """A spec from its settings (a recipe's or a study's ``model``), each checked by name.

        >>> ModelSpec.create({"agents": ["razz_heuristic"], "weights": [0.5], "partners": ["random"]}).hands
        100000
        """
        if not isinstance(settings, dict):
            raise ConfigError(f"model: expected a mapping of agents, weights, partners, hands, seed, full, streets; "
                              f"got {settings!r}")
        known = ("agents", "weights", "partners", "hands", "seed", "full", "streets")
        unknown = sorted(set(settings) - set(known))
        if unknown:
            raise ConfigError(f"model: unknown key {unknown[0]!r}; known: {', '.join(known)}")
        missing = [key for key in known[:3] if key not in settings]
        if missing:
            raise ConfigError(f"model: {missing[0]} missing; a model names its agents, weights and partners")
        names = {}
        for key in ("agents", "partners"):
            value = settings[key]
            if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value or not all(
                    isinstance(name, str) and name for name in value):
                raise ConfigError(f"model: {key}: expected a list of agent names, got {value!r}")
            names[key] = tuple(value)
        weights = settings["weights"]
        if isinstance(weights, str) or not isinstance(weights, (list, tuple)):
            raise ConfigError(f"model: weights: expected a list of numbers, one per agent, got {weights!r}")
        from razz_env.solve.sampled_cfr import model_weights

        with labelled("model"):
            weights = tuple(model_weights([as_real("weights", w, what="a number in (0, 1]") for w in weights],
                                          len(names["agents"])))
        streets = settings.get("streets", [])
        if isinstance(streets, str) or not isinstance(streets, (list, tuple)):
            raise ConfigError(f"model: streets: expected a list of street numbers (stud's 3-7), got {streets!r}")
        return cls(names["agents"], weights, names["partners"],
                   hands=as_int("model: hands", settings.get("hands", cls.hands), 1),
                   seed=as_int("model: seed", settings.get("seed", cls.seed), 0, 2**32 - 1),
                   full=as_int("model: full", settings.get("full", cls.full), 1),
                   streets=tuple(sorted({as_int("model: streets", street, 1) for street in streets})))

    def settings(self) -> dict[str, Any]:
        """The spec as plain data (``state.json``, a recipe), read back by :meth:`create` (``streets`` only when
        given, so a spec of every street reads as one written before the key existed)."""
        data = {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(self).items()}
        if not self.streets:
            del data["streets"]
        return data


def observe(agent: Any, partners: list[Any], config: HandConfig, abstraction: str, hands: int,
            seed: int, streets: tuple[int, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """The keys under ``abstraction`` (int64) and the ids (int64) of ``agent``'s decisions over ``hands`` hands at
    ``config``'s table against ``partners`` (one drawn a hand, equally likely); with ``streets``, of its decisions
    on those streets only."""
    from razz_env.batch.kernels import O_STREET
    from razz_env.solve.abstraction import abstraction_encoder, abstraction_layout, infoset_keys
    from razz_env.train.imitation import collect

    numbers = config.variant.street_numbers
    unknown = [street for street in streets if street not in numbers]
    if unknown:
        raise ConfigError(f"model: streets: {config.variant.name} plays streets {numbers[0]} to {numbers[-1]}, got "
                          f"{unknown[0]}")
    seen = collect(agent, partners, [1.0] * len(partners), config, abstraction_encoder(config), hands, seed)
    layout = abstraction_layout(config)
    keys, ids = infoset_keys(abstraction, seen.vectors, seen.masks, layout), seen.actions
    if not streets:
        return keys, ids
    start = layout[O_STREET]
    street = np.asarray(numbers)[seen.vectors[:, start:start + len(numbers)].argmax(axis=1)]
    kept = np.isin(street, streets)
    return keys[kept], np.asarray(ids)[kept]


def build_model(spec: ModelSpec, config: HandConfig, abstraction: str) -> OpponentModel:
    """The model of every agent of ``spec`` (each watched ``spec.hands`` hands, agent ``i`` from seed ``spec.seed
    + i``), as the solver takes it."""
    from razz_env.agents.registry import make_agent
    from razz_env.solve.sampled_cfr import opponent_model

    observed = []
    for number, name in enumerate(spec.agents):
        seed = spec.seed + number
        agent = make_agent(name, seed=seed)
        partners = [make_agent(partner, seed=seed) for partner in spec.partners]
        with _one_torch_thread():
            observed.append(observe(agent, partners, config, abstraction, spec.hands, seed, spec.streets))
    return opponent_model(observed, spec.weights, spec.full)


@contextmanager
def _one_torch_thread() -> Iterator[None]:
    """Torch (where an agent loaded it) on one thread while the agents are watched, so a network agent's sampled
    choices, and the model, do not depend on the machine's thread count; the count is restored after."""
    torch = sys.modules.get("torch")
    if torch is None:
        yield
        return
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)
