"""The agent registry: names, YAML-style specs, seeding, errors, extension and the lazy hook."""

from __future__ import annotations

import atexit
import doctest
import importlib
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import razz_env.agents.handread
import razz_env.agents.razz_heuristic
from razz_env.agents import registry
from razz_env.agents.base import Agent, BaseAgent
from razz_env.agents.monte_carlo import MonteCarloAgent
from razz_env.agents.razz_heuristic import RazzHeuristic
from razz_env.agents.registry import UnknownAgentError, available_agents, make_agent, register


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
        "from razz_env.agents.registry import register\n"
        "from razz_env.agents.simple import CallingStation\n"
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


def test_lbr_spec_builds_in_a_fresh_process() -> None:
    """``{"type": "lbr", ...}`` (the spec ``razz exploit`` stamps in its results) builds where nothing imported
    ``razz_env.agents.lbr`` first: a tournament config, a training pool or a spawned worker."""
    code = ("from razz_env.agents.registry import make_agent\n"
            "agent = make_agent({'type': 'lbr', 'target': 'razz_heuristic', 'suit_blind': True})\n"
            "print(type(agent).__name__, agent.target.name)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["LocalBestResponse", "razz_heuristic"]


@pytest.mark.parametrize("module", [razz_env.agents.handread, razz_env.agents.razz_heuristic, razz_env.agents.registry])
def test_doctests(module) -> None:
    assert doctest.testmod(module).failed == 0


USER_MODULE = '''
import numpy as np

from razz_env.encoding.interface import Declaration


class MyBot:
    """Raises when it can, else the first legal id: a user's own agent."""

    name = "mybot"
    declaration = Declaration(observes=())

    def __init__(self, aggression=1, seed=None):
        self.aggression = aggression
        self.seed = seed

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        legal = np.flatnonzero(observation.action_mask)
        return int(legal[-1] if self.aggression > 1 else legal[0])


class HeadsUpBot(MyBot):
    declaration = Declaration(observes=(), variants=("razz",), seat_counts=(2,))


class Undeclared(MyBot):
    declaration = None


class NoAct:
    def reset(self, seat, num_seats, variant):
        pass


def make_bot(aggression=1):
    return MyBot(aggression)


def make_nothing():
    return 42


CALLED = []


def counting(**kwargs):
    CALLED.append(kwargs)
    return MyBot()


LIMIT = 3
'''


@pytest.fixture
def user_module(monkeypatch, tmp_path):
    """A module of the user's own, ``h9_user_bots``, importable from ``tmp_path`` (sys.path restored after)."""
    (tmp_path / "h9_user_bots.py").write_text(USER_MODULE)
    (tmp_path / "h9_broken_bots.py").write_text("import not_a_module_anywhere\n")
    (tmp_path / "h9_syntax_bots.py").write_text("def broken(:\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "h9_user_bots"
    for name in ("h9_user_bots", "h9_broken_bots", "h9_syntax_bots"):
        sys.modules.pop(name, None)


def test_module_class_reference_builds_the_users_agent_with_options(user_module) -> None:
    bot = make_agent({"type": f"{user_module}:MyBot", "aggression": 2}, seed=5)
    assert type(bot).__name__ == "MyBot" and bot.aggression == 2 and bot.seed == 5
    assert isinstance(make_agent(f"{user_module}:HeadsUpBot"), Agent)


def test_a_users_agent_without_a_declaration_is_refused_in_one_line(user_module) -> None:
    with pytest.raises(registry.NotAnAgentError, match=r"^agent 'h9_user_bots:Undeclared': class Undeclared is not "
                                                        r"an agent: it has no declaration \(give the class "
                                                        r"`declaration = Declaration\(\.\.\.\)`"):
        make_agent(f"{user_module}:Undeclared")


@pytest.mark.parametrize(("reference", "what"), [("os:system", "builtin_function_or_method"),
                                                 ("h9_user_bots:make_bot", "function"),
                                                 ("h9_user_bots:counting", "function")])
def test_a_reference_to_anything_but_an_agent_class_is_refused_before_it_is_called(user_module, tmp_path,
                                                                                     reference, what) -> None:
    """``{type: "os:system", command: ...}`` ran the command before being refused as not an agent."""
    marker = tmp_path / "ran"
    with pytest.raises(registry.NotAnAgentError) as caught:
        make_agent({"type": reference, "command": f"touch {marker}"})
    assert f"is not a class (it is of type {what})" in str(caught.value) and reference in str(caught.value)
    assert not marker.exists() and not importlib.import_module(user_module).CALLED


@pytest.mark.parametrize(("reference", "error", "message"), [
    ("h9_no_such_module:Bot", UnknownAgentError, "no module named 'h9_no_such_module'"),
    ("h9_user_bots:Missing", UnknownAgentError, "h9_user_bots has no 'Missing'"),
    ("h9_user_bots:NoAct", registry.NotAnAgentError, "class NoAct is not an agent: it has no act method"),
    ("h9_user_bots:LIMIT", registry.NotAnAgentError, "LIMIT is not a class (it is of type int)"),
    ("h9_user_bots:make_nothing", registry.NotAnAgentError, "make_nothing is not a class (it is of type function)"),
    ("h9_broken_bots:Bot", registry.AgentSpecError, "importing h9_broken_bots failed: ModuleNotFoundError"),
    ("h9_syntax_bots:Bot", registry.AgentSpecError, "importing h9_syntax_bots failed: SyntaxError"),
    ("h9-user-bots:Bot", UnknownAgentError, "expected 'module:Class'"),
    ("h9_user_bots:", UnknownAgentError, "expected 'module:Class'"),
    (":MyBot", UnknownAgentError, "expected 'module:Class'"),
])
def test_bad_module_class_references_are_one_clear_line(user_module, reference, error, message) -> None:
    with pytest.raises(error) as caught:
        make_agent(reference)
    text = str(caught.value)
    assert message in text and reference in text and "\n" not in text
    assert isinstance(caught.value, ValueError)  # what razz play and the tournament checks catch


def test_a_module_in_the_current_directory_is_found(monkeypatch, tmp_path) -> None:
    (tmp_path / "h9_cwd_bots.py").write_text(USER_MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    try:
        assert make_agent("h9_cwd_bots:MyBot").name == "mybot"
        assert sys.path[-1] == str(tmp_path)
    finally:
        sys.modules.pop("h9_cwd_bots", None)


def test_describe_agent_gives_the_idea_and_the_tables(user_module) -> None:
    station = registry.describe_agent("calling_station")
    assert station.variants is None and station.seat_counts is None and station.tables_known
    assert station.idea.startswith("Checks or calls every bet")
    heads_up = registry.describe_agent(f"{user_module}:HeadsUpBot")
    assert (heads_up.variants, heads_up.seat_counts) == (("razz",), (2,))
    assert registry.describe_agent(f"{user_module}:MyBot").idea == ("Raises when it can, else the first legal id: a "
                                                                     "user's own agent")
    with pytest.raises(UnknownAgentError):
        registry.describe_agent("no_such_agent")


def test_describe_agent_reads_a_trained_agents_table_and_leaves_sb3_model_to_its_spec() -> None:
    pytest.importorskip("sb3_contrib", reason="the trained agents need the train extra")
    ppo = registry.describe_agent("ppo_razz")
    assert (ppo.variants, ppo.seat_counts, ppo.tables_known) == (("razz",), (2,), True)
    assert not registry.describe_agent("sb3_model").tables_known


# ------------------------------------------------------------------ fuzz
# RAZZ_FUZZ_EXAMPLES=2000 pytest tests/agents/test_agent_registry.py -n 0 -s -k fuzz prints the figures. Module names
# come from a fixed list (the user module, modules that do not exist): importing arbitrary names runs their code.

FUZZ_EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "40"))
FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nregistry fuzz figures:", dict(sorted(FIGURES.items()))))
attributes = st.sampled_from(["MyBot", "HeadsUpBot", "NoAct", "make_bot", "make_nothing", "LIMIT", "np", "MyBot.act",
                              "MyBot.name", ""]) | st.text(max_size=12)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(module=st.sampled_from(["h9_user_bots"] * 4 + ["h9_no_such_module", "h9_user_bots.sub", "", "h9 user"]),
       attribute=attributes, sep=st.sampled_from([":"] * 4 + ["::", ":x:"]),
       options=st.dictionaries(st.sampled_from(["aggression", "seed", "speed"]), st.integers(0, 3), max_size=2))
def test_fuzz_references_build_an_agent_or_raise_one_clean_line(user_module, module, attribute, sep, options):
    spec = {"type": f"{module}{sep}{attribute}", **options}
    try:
        agent = make_agent(spec)
    except (registry.AgentSpecError, TypeError) as err:
        FIGURES["references: clean error"] += 1
        assert "\n" not in str(err) and "Traceback" not in str(err)
        return
    FIGURES["references: agent"] += 1
    assert callable(agent.act) and callable(agent.reset)


@pytest.mark.parametrize("name", ["random", "calling_station", "razz_heuristic", "monte_carlo", "maniac",
                                  "check_raiser", "board_bully", "rock", "tag", "minirazz_cfr",
                                  {"type": "lbr", "target": "random"}])
def test_every_shipped_agent_declares_exactly_the_methods_it_has(name) -> None:
    agent = make_agent(name, seed=0)
    declared = agent.declaration
    assert declared.states_policy == callable(getattr(agent, "action_probabilities", None))
    assert declared.acts_in_batch == callable(getattr(agent, "act_batch", None))
    assert declared.acts_in_batch == callable(getattr(agent, "action_probabilities_batch", None)) or (
        not declared.states_policy)


def test_an_instance_is_its_own_spec_and_a_class_is_not() -> None:
    from razz_env.agents.simple import CallingStation

    station = CallingStation()
    assert make_agent(station, seed=3) is station
    with pytest.raises(TypeError, match="a name, a mapping with 'type' or an agent"):
        make_agent(CallingStation)


def test_a_policy_file_builds_by_its_path_pickles_small_and_refuses_other_bytes(tmp_path) -> None:
    import pickle

    from razz_env.agents.tabular_zoo import PolicyFileAgent, PolicyIntegrityError
    from razz_env.solve.game import build_game
    from razz_env.solve.policy import TabularPolicy

    path = TabularPolicy.uniform(build_game("minirazz_tiny")).save(tmp_path / "uniform.npz")
    agent = make_agent(str(path), seed=1)
    assert isinstance(agent, PolicyFileAgent) and agent.name == "uniform"
    assert agent.declaration.variants == ("minirazz_tiny",)
    assert len(pickle.dumps(agent)) < 1000 and pickle.loads(pickle.dumps(agent)).sha256 == agent.sha256
    with pytest.raises(PolicyIntegrityError, match="not loaded"):
        make_agent({"type": str(path), "sha256": "0" * 64})
    with pytest.raises(ValueError, match="no such file"):
        make_agent(str(tmp_path / "missing.npz"))


@pytest.mark.parametrize("name", ["missing.npz", "missing.pt", "missing.zip", "h9_user_bots:.PT"])
def test_a_model_file_that_does_not_exist_is_a_spec_error_naming_it(name, tmp_path) -> None:
    """Found by the fuzz test: ``module:.PT`` reads as a model file's path, and a missing one raised a plain
    ValueError from deep in the loader instead of the registry's one-line spec error."""
    with pytest.raises(registry.AgentSpecError, match=r"no such file \(a name ending in \.zip, \.npz, \.pt"):
        make_agent(str(tmp_path / name) if "/" not in name and ":" not in name else name)


def test_a_model_file_builds_by_its_path_with_the_table_of_its_run_folder(tmp_path) -> None:
    import json
    import shutil

    pytest.importorskip("sb3_contrib")
    from razz_env.agents.sb3_zoo import ZOO_DIR

    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(ZOO_DIR / "ppo_razz.zip", run / "final.zip")
    entry = json.loads((ZOO_DIR / "manifest.json").read_text())["ppo_razz"]
    agent = make_agent(str(run / "final.zip"))  # no run folder: razz heads-up, flat, as this model
    assert agent.name == "final" and agent.declaration.variants == ("razz",)
    assert agent.spec["sha256"] == entry["sha256"]
    (run / "config.json").write_text(json.dumps({"variant": "razz", "num_seats": [2, 3], "encoding": "flat"}))
    with pytest.raises(ValueError, match="give the variant, num_seats and encoding"):
        make_agent(str(run / "final.zip"))  # the run folder says 3 seats: not this model's table
    assert make_agent({"type": str(run / "final.zip"), "num_seats": 2}).declaration.variants == ("razz",)
