"""The agent registry: names, YAML-style specs, seeding, errors, extension and the lazy hook."""

from __future__ import annotations

import doctest
import sys

import pytest
import yaml

import agents.handread
import agents.razz_heuristic
from agents import registry
from agents.base import Agent, BaseAgent
from agents.monte_carlo import MonteCarloAgent
from agents.razz_heuristic import RazzHeuristic
from agents.registry import UnknownAgentError, available_agents, make_agent, register


def test_names() -> None:
    assert {"random", "calling_station", "razz_heuristic", "monte_carlo"} <= set(available_agents())
    assert available_agents() == sorted(available_agents())


@pytest.mark.parametrize("name", ["random", "calling_station", "razz_heuristic", "monte_carlo"])
def test_name_spec_builds_an_agent(name: str) -> None:
    agent = make_agent(name)
    assert isinstance(agent, Agent)
    assert agent.name == name


def test_yaml_dict_specs() -> None:
    specs = yaml.safe_load(
        """
        - {type: monte_carlo, samples: 32, margin: 0.2, seed: 5}
        - type: razz_heuristic
          bluff: 0.0
        - random
        """
    )
    mc, heuristic, rand = (make_agent(spec) for spec in specs)
    assert isinstance(mc, MonteCarloAgent) and (mc.samples, mc.margin) == (32, 0.2)
    assert isinstance(heuristic, RazzHeuristic) and heuristic.bluff == 0.0
    assert rand.name == "random"


def test_default_seed_only_where_accepted() -> None:
    make_agent("calling_station", seed=3)  # takes no seed: not passed
    first, second = make_agent("random", seed=3), make_agent({"type": "random", "seed": 3}, seed=99)
    assert [first.rng.random() for _ in range(3)] == [second.rng.random() for _ in range(3)]


def test_unknown_name_lists_known_agents() -> None:
    with pytest.raises(UnknownAgentError) as err:
        make_agent("no_such_agent")
    message = str(err.value)
    assert "no_such_agent" in message
    for name in ("random", "calling_station", "razz_heuristic", "monte_carlo"):
        assert name in message
    assert isinstance(err.value, KeyError)


@pytest.mark.parametrize("spec", [{"samples": 3}, {"type": 3}, 42])
def test_malformed_specs(spec) -> None:
    with pytest.raises((ValueError, TypeError)):
        make_agent(spec)


def test_bad_keyword_names_the_agent() -> None:
    with pytest.raises(TypeError, match="monte_carlo"):
        make_agent({"type": "monte_carlo", "sample": 10})


def test_register_extension_point(monkeypatch) -> None:
    monkeypatch.setattr(registry, "_FACTORIES", dict(registry._FACTORIES))

    @register("always_fold_test")
    class Folder(BaseAgent):
        name = "always_fold_test"

        def act(self, observation) -> int:
            return self.first_legal(observation, (0, 1, 3))

    assert isinstance(make_agent("always_fold_test"), Folder)
    with pytest.raises(ValueError, match="already registered"):
        register("always_fold_test")(lambda: None)


def test_lazy_module_registers_on_demand(monkeypatch, tmp_path) -> None:
    (tmp_path / "lazy_zoo_test.py").write_text(
        "from agents.registry import register\n"
        "from agents.simple import CallingStation\n"
        "register('lazy_station')(lambda: CallingStation())\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_FACTORIES", dict(registry._FACTORIES))
    monkeypatch.setattr(registry, "_lazy_errors", {})
    monkeypatch.setattr(registry, "LAZY_MODULES", ("missing_zoo_test", "lazy_zoo_test"))
    assert make_agent("lazy_station").name == "calling_station"
    with pytest.raises(UnknownAgentError, match="missing_zoo_test"):  # the import error is shown, not raised
        make_agent("still_unknown")
    sys.modules.pop("lazy_zoo_test", None)


@pytest.mark.parametrize("module", [agents.handread, agents.razz_heuristic])
def test_doctests(module) -> None:
    assert doctest.testmod(module).failed == 0
