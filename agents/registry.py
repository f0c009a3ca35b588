"""Agents by name: ``make_agent("razz_heuristic")`` or a YAML-style ``{"type": ..., **kwargs}``.

:func:`register` is the extension point: any module may register more factories under
new names (the trained SB3 agents do so in :mod:`agents.sb3_zoo`). The built-in baselines
register themselves when their modules (:data:`BUILTIN_MODULES`) are imported, on the first
look-up. A name still unknown after that triggers one import of each lazy module (so
``make_agent("ppo_razz")`` works without importing the SB3 zoo first); a lazy module that
cannot be imported (no torch installed, say) is skipped and its error shown if the name
stays unknown.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from agents.base import Agent

Factory = Callable[..., Agent]
F = TypeVar("F", bound=Factory)

BUILTIN_MODULES = ("agents.simple", "agents.razz_heuristic", "agents.monte_carlo")
LAZY_MODULES = ("agents.sb3_zoo",)

_FACTORIES: dict[str, Factory] = {}
_lazy_errors: dict[str, str] = {}


class UnknownAgentError(KeyError):
    """An agent name no factory is registered under."""

    def __str__(self) -> str:
        return str(self.args[0])


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
    """The factory registered under ``name``; :class:`UnknownAgentError` listing the known names."""
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


def _accepts(factory: Factory, keyword: str) -> bool:
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == keyword or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def make_agent(spec: str | Mapping[str, Any], seed: int | None = None) -> Agent:
    """Build an agent from a name or a ``{"type": name, **kwargs}`` mapping (as written in YAML).

    ``seed`` is a default for factories that take one and whose spec does not set it, so a
    harness can seed a whole table without knowing which agents are random.
    """
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
        raise TypeError(f"agent spec must be a name or a mapping with 'type', got {spec!r}")
    factory = get_factory(name)
    if seed is not None and "seed" not in kwargs and _accepts(factory, "seed"):
        kwargs["seed"] = seed
    try:
        return factory(**kwargs)
    except TypeError as err:
        raise TypeError(f"agent {name!r}: bad arguments {sorted(kwargs)}: {err}") from err
