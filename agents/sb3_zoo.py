"""The shipped trained agents: ``agents/zoo/manifest.json`` entries registered by name.

``make_agent("ppo_razz")`` reads ``agents/zoo/ppo_razz.zip`` once, checks its
SHA-256 against the manifest and loads the model from those same bytes in
memory: SB3 archives can hold pickled objects, so only bytes whose hash matches
the manifest committed with the code are ever unpickled (swapping the file after
the check changes nothing). A changed or missing file raises
:class:`ZooIntegrityError` and nothing is loaded. Each entry records the table
the agent was trained for (``variant``, ``num_players``), which the agent
declares as ``variants`` / ``seat_counts``, and the config and command that
reproduce it and its training time.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from agents.registry import register
from agents.sb3_agent import SB3Agent, UntrustedModelError, load_model, read_verified

ZOO_DIR = Path(__file__).resolve().parent / "zoo"
MANIFEST = ZOO_DIR / "manifest.json"


class ZooIntegrityError(UntrustedModelError):
    """A zoo file is missing or its hash differs from the manifest: it is not loaded."""


def manifest() -> dict[str, dict[str, Any]]:
    """The zoo manifest (empty when no agent is shipped)."""
    if not MANIFEST.exists():
        return {}
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


def verified_bytes(name: str) -> bytes:
    """The bytes of the zoo file for ``name``, read once, once their SHA-256 matches the manifest."""
    entry = manifest()[name]
    path = ZOO_DIR / entry["file"]
    if not path.exists():
        raise ZooIntegrityError(f"zoo agent {name!r}: {path} is missing")
    try:
        return read_verified(path, entry["sha256"])
    except UntrustedModelError as err:
        raise ZooIntegrityError(f"zoo agent {name!r}: {err}") from err


@cache
def _load_model(name: str) -> Any:
    return load_model(verified_bytes(name), manifest()[name]["algorithm"])


def load_zoo_agent(name: str, deterministic: bool = True, seed: int | None = None) -> SB3Agent:
    """A shipped agent by name (the model is loaded once per process and shared)."""
    entry = manifest()[name]
    seats = entry.get("num_players")
    return SB3Agent(_load_model(name), name=name, deterministic=deterministic, encoding=entry["encoding"],
                    seed=seed, variants=(entry["variant"],) if "variant" in entry else None,
                    seat_counts=(seats,) if seats is not None else None)


def _register_all() -> None:
    for name in manifest():
        def factory(deterministic: bool = True, seed: int | None = None, _name: str = name) -> SB3Agent:
            return load_zoo_agent(_name, deterministic, seed)

        factory.__doc__ = f"Shipped trained agent {name!r} (see agents/zoo/manifest.json)."
        register(name, replace=True)(factory)


_register_all()
