"""The shipped trained agents: ``agents/zoo/manifest.json`` entries registered by name.

``make_agent("ppo_razz")`` loads ``agents/zoo/ppo_razz.zip`` after checking its
SHA-256 against the manifest: SB3 archives can hold pickled objects, so only
files whose hash matches the manifest committed with the code are loaded. A
changed or unknown file raises :class:`ZooIntegrityError` and nothing is loaded.
Each entry records the config and command that reproduce it and its training time.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from agents.registry import register
from agents.sb3_agent import SB3Agent

ZOO_DIR = Path(__file__).resolve().parent / "zoo"
MANIFEST = ZOO_DIR / "manifest.json"


class ZooIntegrityError(RuntimeError):
    """A zoo file is missing or its hash differs from the manifest: it is not loaded."""


def manifest() -> dict[str, dict[str, Any]]:
    """The zoo manifest (empty when no agent is shipped)."""
    if not MANIFEST.exists():
        return {}
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


def verified_path(name: str) -> Path:
    """Path of the zoo file for ``name`` once its SHA-256 matches the manifest."""
    entry = manifest()[name]
    path = ZOO_DIR / entry["file"]
    if not path.exists():
        raise ZooIntegrityError(f"zoo agent {name!r}: {path} is missing")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != entry["sha256"]:
        raise ZooIntegrityError(f"zoo agent {name!r}: {path.name} has SHA-256 {digest}, the manifest says "
                                f"{entry['sha256']}; refusing to load a file that may carry pickled code")
    return path


@cache
def _load_model(name: str) -> Any:
    from agents.sb3_agent import algorithm_class

    entry = manifest()[name]
    return algorithm_class(entry["algorithm"]).load(str(verified_path(name)), device="cpu")


def load_zoo_agent(name: str, deterministic: bool = True, seed: int | None = None) -> SB3Agent:
    """A shipped agent by name (the model is loaded once per process and shared)."""
    entry = manifest()[name]
    return SB3Agent(_load_model(name), name=name, deterministic=deterministic, encoding=entry["encoding"],
                    seed=seed)


def _register_all() -> None:
    for name in manifest():
        def factory(deterministic: bool = True, seed: int | None = None, _name: str = name) -> SB3Agent:
            return load_zoo_agent(_name, deterministic, seed)

        factory.__doc__ = f"Shipped trained agent {name!r} (see agents/zoo/manifest.json)."
        register(name, replace=True)(factory)


_register_all()
