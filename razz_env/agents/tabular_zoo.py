"""The shipped solved policies: ``razz_env/agents/zoo/policies.json`` entries registered by name (``minirazz_cfr``).

Each entry names a :class:`~razz_env.solve.policy.TabularPolicy` file (``razz solve``'s
``policy.npz``), its SHA-256, the game and the command that reproduces it. The file is
checked against the manifest before it is read (numpy arrays only, never a pickle), and a
process reads each policy once and shares it among the agents it builds.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from razz_env.agents.registry import register
from razz_env.solve.agent import TabularPolicyAgent
from razz_env.solve.policy import TabularPolicy

ZOO_DIR = Path(__file__).resolve().parent / "zoo"
POLICIES = ZOO_DIR / "policies.json"


class PolicyIntegrityError(RuntimeError):
    """A shipped policy file is missing or its SHA-256 differs from the manifest: it is not loaded."""


def policies() -> dict[str, dict[str, Any]]:
    """The solved-policy manifest (empty when none is shipped)."""
    if not POLICIES.exists():
        return {}
    return json.loads(POLICIES.read_text(encoding="utf-8"))


@cache
def load_policy(name: str) -> Any:
    """The verified :class:`TabularPolicy` shipped as ``name``, read once per process."""
    entry = policies()[name]
    path = ZOO_DIR / entry["file"]
    if not path.exists():
        raise PolicyIntegrityError(f"zoo agent {name!r}: {path} is missing")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != entry["sha256"]:
        raise PolicyIntegrityError(f"zoo agent {name!r}: {path} has SHA-256 {digest}, the manifest says "
                                   f"{entry['sha256']}: not loaded")
    return TabularPolicy.load(path)


class ZooPolicyAgent(TabularPolicyAgent):
    """A shipped policy at the table; it pickles as its name and seed, so a worker reloads the verified file."""

    def __init__(self, name: str, seed: int | None = None) -> None:
        super().__init__(load_policy(name), seed=seed, name=name)
        self.seed = seed

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return ZooPolicyAgent, (self.name, self.seed)


def _register_all() -> None:
    for name, entry in policies().items():
        def factory(seed: int | None = None, _name: str = name) -> Any:
            return ZooPolicyAgent(_name, seed)

        factory.__doc__ = f"Shipped solved policy {name!r}: {entry['summary']}"
        factory.declaration = ZooPolicyAgent.declare(entry["variant"])
        register(name, replace=True)(factory)


_register_all()
