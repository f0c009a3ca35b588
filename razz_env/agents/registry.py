"""Agents by name: ``make_agent("razz_heuristic")`` or a YAML-style ``{"type": ..., **kwargs}``.

:func:`register` is the extension point: any module may register more factories under
new names (the trained SB3 agents do so in :mod:`razz_env.agents.sb3_zoo`). The built-in baselines
register themselves when their modules (:data:`BUILTIN_MODULES`) are imported, on the first
look-up. A name still unknown after that triggers one import of each lazy module (so
``make_agent("ppo_razz")`` works without importing the SB3 zoo first, and ``{"type": "lbr", ...}``
without importing ``razz_env.agents.lbr``); a lazy module that cannot be imported (no torch installed, say)
is skipped and its error shown if the name stays unknown.

An agent of the user's own code needs no registration: the type ``"module:Class"`` imports
``module`` from the Python path and uses the agent class it names, e.g. ``{"type": "mybots:MyBot",
"aggression": 2}``. The current directory is on that path (as with ``python -m``), so ``mybots.py``
beside a tournament config works; worker processes resolve the same reference. Only an agent class
is ever called: a function, a builtin or a class without ``reset``, ``act`` and a
:class:`~razz_env.encoding.interface.Declaration` as its ``declaration`` is refused before anything
is called (a config cannot run ``os:system``), as are an unknown module or a missing name: one
:class:`AgentSpecError` saying which.

A model file plays by its path: a name ending in ``.zip`` is a trained SB3 model
(:func:`razz_env.agents.sb3_zoo.load_model_path`), one ending in ``.npz`` a solved tabular policy
(:func:`razz_env.agents.tabular_zoo.load_policy_file`), one ending in ``.pt`` a policy network of the batched PPO
trainer (:func:`razz_env.agents.torch_policy.load_policy_path`); options go beside it in a mapping
(``{"type": "runs/x/final.zip", "variant": "stud"}``). A program in any language plays by its command:
``cmd:./mybot`` (:class:`~razz_env.agents.external.ExternalAgent`, ``docs/protocol.md``), and one that listens on
a TCP port by its address: ``remote:127.0.0.1:9000`` (:class:`~razz_env.agents.external.RemoteAgent`). An agent
instance is used as it is.
:func:`make_agent` is the one place every front door (match, tournament, exploitability, the CLI)
turns any of these into an agent.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from razz_env.agents.base import Agent
from razz_env.encoding.interface import Declaration, declaration_of
from razz_env.engine.errors import ConfigError

Factory = Callable[..., Agent]
F = TypeVar("F", bound=Factory)

BUILTIN_MODULES = ("razz_env.agents.simple", "razz_env.agents.razz_heuristic", "razz_env.agents.stud8_heuristic",
                   "razz_env.agents.monte_carlo", "razz_env.agents.tabular_zoo", "razz_env.agents.exploiters")
LAZY_MODULES = ("razz_env.agents.lbr", "razz_env.agents.mixture", "razz_env.agents.sb3_zoo")
COMMAND_PREFIX = "cmd:"
"""An agent name that starts with it is a program speaking the bot protocol (:mod:`razz_env.agents.external`)."""
REMOTE_PREFIX = "remote:"
"""An agent name that starts with it is the address of a bot speaking the bot protocol over TCP."""
MODEL_FILE_LOADERS = {".zip": "razz_env.agents.sb3_zoo:load_model_path",
                      ".npz": "razz_env.agents.tabular_zoo:load_policy_file",
                      ".pt": "razz_env.agents.torch_policy:load_policy_path"}

_FACTORIES: dict[str, Factory] = {}
_lazy_errors: dict[str, str] = {}


class AgentSpecError(ValueError):
    """An agent spec that names no agent: an unknown name or module, a missing class, not an agent."""

    def __str__(self) -> str:
        return str(self.args[0])


class UnknownAgentError(AgentSpecError, KeyError):
    """An agent name no factory is registered under, or a ``module:Class`` reference that finds nothing."""


class NotAnAgentError(AgentSpecError, TypeError):
    """A ``module:Class`` reference (or a factory's product) without an agent's ``reset``, ``act`` and declaration."""


def register(name: str, *, replace: bool = False) -> Callable[[F], F]:
    """Decorator registering a class or factory under ``name`` (``replace`` to override a name)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"agent names are non-empty strings, got {name!r}")

    def decorator(factory: F) -> F:
        current = _FACTORIES.get(name)
        if current is not None and current is not factory and not replace:
            raise ValueError(f"agent name {name!r} is already registered to {current!r}; pass replace=True")
        _FACTORIES[name] = factory
        return factory

    return decorator


def registered_in(module: str) -> dict[str, Factory]:
    """The factories registered by code of ``module`` (``"__main__"``: the user's script), by name: what a worker
    process that does not run that module must be given.

    >>> registered_in("razz_env.agents.simple")["random"].__name__
    'RandomAgent'
    """
    _import_builtins()
    return {name: factory for name, factory in _FACTORIES.items() if getattr(factory, "__module__", None) == module}


def _import_builtins() -> None:
    for module in BUILTIN_MODULES:
        importlib.import_module(module)


def _import_lazy() -> None:
    for module in LAZY_MODULES:
        if module in _lazy_errors:
            continue
        try:
            importlib.import_module(module)
        except ImportError as err:
            _lazy_errors[module] = f"{type(err).__name__}: {err}"
        else:
            _lazy_errors[module] = ""


def available_agents() -> list[str]:
    """Sorted names of the registered agents (built-ins, plus whatever the lazy modules add)."""
    _import_builtins()
    _import_lazy()
    return sorted(_FACTORIES)


def get_factory(name: str) -> Factory:
    """The factory registered under ``name``, or the class a ``module:Class`` reference names.

    :class:`UnknownAgentError` lists the known names; see :func:`load_reference` for references.
    """
    if is_command(name):
        from razz_env.agents.external import ExternalAgent

        return ExternalAgent
    if is_remote(name):
        from razz_env.agents.external import RemoteAgent

        return RemoteAgent
    if is_model_file(name):
        module, _, loader = MODEL_FILE_LOADERS[Path(name).suffix.lower()].partition(":")
        return getattr(importlib.import_module(module), loader)
    if ":" in name:
        return load_reference(name)
    _import_builtins()
    if name not in _FACTORIES:
        _import_lazy()
    factory = _FACTORIES.get(name)
    if factory is None:
        known = ", ".join(sorted(_FACTORIES)) or "none"
        skipped = "; ".join(f"{m} not loaded ({e})" for m, e in _lazy_errors.items() if e)
        raise UnknownAgentError(
            f"unknown agent {name!r}; known agents: {known}" + (f" ({skipped})" if skipped else "")
        )
    return factory


def is_command(name: str) -> bool:
    """Whether ``name`` is a bot's command (``cmd:./mybot``), not an agent's name.

    >>> is_command("cmd:./mybot"), is_command("mybots:MyBot")
    (True, False)
    """
    return name.startswith(COMMAND_PREFIX)


def is_remote(name: str) -> bool:
    """Whether ``name`` is a remote bot's address (``remote:127.0.0.1:9000``), not an agent's name.

    >>> is_remote("remote:127.0.0.1:9000"), is_remote("cmd:./mybot")
    (True, False)
    """
    return name.startswith(REMOTE_PREFIX)


def is_model_file(name: str) -> bool:
    """Whether ``name`` is a model file's path (ending in ``.zip``, ``.npz`` or ``.pt``), not an agent's name."""
    return Path(name).suffix.lower() in MODEL_FILE_LOADERS


def is_agent(candidate: Any) -> bool:
    """Whether ``candidate`` is an agent instance (callable ``reset`` and ``act``), not a spec naming one."""
    return not isinstance(candidate, (str, Mapping, type)) and all(
        callable(getattr(candidate, method, None)) for method in ("reset", "act"))


def load_reference(reference: str) -> Factory:
    """The agent class ``"module:Class"`` names (``Class`` may be dotted), imported from the user's code.

    The current directory joins the end of ``sys.path`` first (as ``python -m`` puts it at the start), so a
    module beside the config is found without installing it. Raises :class:`UnknownAgentError` for an unknown
    module or name and :class:`NotAnAgentError` for anything but an agent class, before calling it.
    """
    module_name, _, attribute = reference.partition(":")
    if not module_name or not attribute or ":" in attribute or not all(
            part.isidentifier() for part in (*module_name.split("."), *attribute.split("."))):
        raise UnknownAgentError(f"agent {reference!r}: expected 'module:Class' (a module on the Python path, "
                                f"a colon, the class or factory in it), e.g. 'mybots:MyBot'")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name is not None and (module_name + ".").startswith(err.name + "."):
            raise UnknownAgentError(f"agent {reference!r}: no module named {err.name!r} (put it in the current "
                                    f"directory, on PYTHONPATH, or install it)") from None
        raise AgentSpecError(f"agent {reference!r}: importing {module_name} failed: {_one_line(err)}") from None
    except Exception as err:  # noqa: BLE001 - any error in the user's module is reported as one line
        raise AgentSpecError(f"agent {reference!r}: importing {module_name} failed: {_one_line(err)}") from None
    found: Any = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise UnknownAgentError(f"agent {reference!r}: {module_name} has no {attribute!r} (module file: "
                                    f"{getattr(module, '__file__', None) or 'none'})")
        found = getattr(found, part)
    if not isinstance(found, type):
        raise NotAnAgentError(f"agent {reference!r}: {attribute} is not a class (it is of type "
                              f"{type(found).__name__}); name an agent class (with reset, act and a declaration), "
                              "which alone is called")
    _check_agent(reference, found, f"class {attribute}")
    if not isinstance(getattr(found, "declaration", None), Declaration):
        raise NotAnAgentError(f"agent {reference!r}: class {attribute} is not an agent: it has no declaration "
                              f"(give the class `declaration = Declaration(...)`, razz_env.encoding.interface)")
    return found


def _check_agent(reference: str, candidate: Any, what: str) -> None:
    """Refuse ``candidate`` (a class or an instance) unless it has callable ``reset`` and ``act``."""
    missing = [method for method in ("reset", "act") if not callable(getattr(candidate, method, None))]
    if missing:
        raise NotAnAgentError(f"agent {reference!r}: {what} is not an agent: it has no {' or '.join(missing)} "
                              f"method (an agent needs reset(seat, num_seats, variant) and act(observation))")


def _one_line(err: BaseException) -> str:
    return f"{type(err).__name__}: {' '.join(str(err).split())}"


def _accepts(factory: Factory, keyword: str) -> bool:
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == keyword or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def make_agent(spec: str | Mapping[str, Any] | Agent, seed: int | None = None) -> Agent:
    """Build an agent from a name, a ``{"type": name, **kwargs}`` mapping (as written in YAML) or an instance.

    The name may be a registered one, a ``module:Class`` reference to the user's own code, a model
    file's path, a bot's ``cmd:`` command or a remote bot's ``remote:`` address (see the module docs); an agent
    instance is returned as it is.

    ``seed`` is a default for factories that take one and whose spec does not set it, so a
    harness can seed a whole table without knowing which agents are random.

    >>> make_agent("calling_station").name
    'calling_station'
    """
    if is_agent(spec):
        return spec
    if isinstance(spec, str):
        name, kwargs = spec, {}
    elif isinstance(spec, Mapping):
        if "type" not in spec:
            raise ValueError(f"agent spec {dict(spec)!r} has no 'type' key naming the agent")
        kwargs = {k: v for k, v in spec.items() if k != "type"}
        name = spec["type"]
        if not isinstance(name, str):
            raise ValueError(f"agent spec 'type' must be a name, got {name!r}")
    else:
        raise TypeError(f"agent spec must be a name, a mapping with 'type' or an agent (with reset and act), "
                        f"got {spec!r}")
    factory = get_factory(name)
    if is_command(name):
        kwargs = {"command": name[len(COMMAND_PREFIX):], **kwargs}
    elif is_remote(name):
        kwargs = {"address": name[len(REMOTE_PREFIX):], **kwargs}
    elif is_model_file(name):
        if not Path(name).is_file():
            raise AgentSpecError(f"agent {name!r}: no such file (a name ending in {', '.join(MODEL_FILE_LOADERS)} "
                                 f"is a model file's path)")
        kwargs = {"path": name, **kwargs}
    if seed is not None and "seed" not in kwargs and _accepts(factory, "seed"):
        kwargs["seed"] = seed
    try:
        agent = factory(**kwargs)
    except TypeError as err:
        raise TypeError(f"agent {name!r}: bad arguments {sorted(kwargs)}: {err}") from err
    _check_agent(name, agent, f"what {getattr(factory, '__name__', 'its factory')} built "
                              f"({type(agent).__name__})")
    try:
        declaration_of(agent)
    except ConfigError as err:
        raise NotAnAgentError(str(err)) from None
    return agent


@dataclass(frozen=True)
class AgentInfo:
    """What ``razz agents`` lists: a name, its one-line idea and the tables it plays.

    ``variants`` / ``seat_counts`` are the agent's declarations (``None``: any); ``tables_known`` is False
    when the factory needs arguments, so only a spec's own arguments say which table it plays.
    """

    name: str
    idea: str
    variants: tuple[str, ...] | None
    seat_counts: tuple[int, ...] | None
    tables_known: bool = True


def describe_agent(name: str) -> AgentInfo:
    """The :class:`AgentInfo` of a registered name or ``module:Class`` reference.

    The idea is the factory's ``idea`` attribute, else the first sentence of its docstring. The tables come
    from the declaration of a factory function (``factory.declaration``), else of an agent built with no
    arguments (a trained agent loads its verified model for this); a factory that needs arguments leaves
    them to the spec.
    """
    factory = get_factory(name)
    declared = None if isinstance(factory, type) else getattr(factory, "declaration", None)
    if not isinstance(declared, Declaration):
        try:
            agent = factory()
        except TypeError:
            return AgentInfo(name, _idea(factory), None, None, False)
        declared = declaration_of(agent)
    return AgentInfo(name, _idea(factory), declared.variants, declared.seat_counts)


def _idea(factory: Factory) -> str:
    """The factory's ``idea``, else the first sentence of its docstring without reST markup or pointers."""
    idea = getattr(factory, "idea", None)
    if isinstance(idea, str) and idea.strip():
        return " ".join(idea.split())
    doc = inspect.getdoc(factory) or ""
    first = " ".join(doc.split("\n\n")[0].split()).replace("``", "")
    for cut in ("; see ", " (see ", ". "):
        if cut in first:
            first = first.split(cut)[0]
    return first.rstrip(".:") or "(no description)"
