"""The shipped policy files: ``razz_env/agents/zoo/policies.json`` entries registered by name (``minirazz_cfr``).

Each entry names a :class:`~razz_env.solve.policy.TabularPolicy` file (a ``policy.npz`` of ``razz solve`` or of a
learned method's run in the MiniRazz equilibrium study), its SHA-256, the game, its exact exploitability and the
command that reproduces it; or a sampled solver's (:class:`~razz_env.solve.sampled_policy.SampledPolicy`, an entry
with its ``abstraction``), played as it was accepted (``threshold``, when the entry gives one). The file is
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
from razz_env.solve.policy import TabularPolicy, read_archive
from razz_env.solve.sampled_policy import FORMAT as SAMPLED_FORMAT
from razz_env.solve.sampled_policy import SampledCFRAgent, SampledPolicy

ZOO_DIR = Path(__file__).resolve().parent / "zoo"
POLICIES = ZOO_DIR / "policies.json"


class PolicyIntegrityError(RuntimeError):
    """A shipped policy file is missing or its SHA-256 differs from the manifest: it is not loaded."""


def policies() -> dict[str, dict[str, Any]]:
    """The tabular-policy manifest (empty when none is shipped)."""
    if not POLICIES.exists():
        return {}
    return json.loads(POLICIES.read_text(encoding="utf-8"))


@cache
def load_policy(name: str) -> Any:
    """The verified :class:`TabularPolicy` (or :class:`SampledPolicy`) shipped as ``name``, read once per process."""
    entry = policies()[name]
    path = ZOO_DIR / entry["file"]
    if not path.exists():
        raise PolicyIntegrityError(f"zoo agent {name!r}: {path} is missing")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != entry["sha256"]:
        raise PolicyIntegrityError(f"zoo agent {name!r}: {path} has SHA-256 {digest}, the manifest says "
                                   f"{entry['sha256']}: not loaded")
    return SampledPolicy.load(path) if "abstraction" in entry else TabularPolicy.load(path)


class ZooPolicyAgent(TabularPolicyAgent):
    """A shipped policy at the table; it pickles as its name and seed, so a worker reloads the verified file."""

    def __init__(self, name: str, seed: int | None = None) -> None:
        super().__init__(load_policy(name), seed=seed, name=name)
        self.seed = seed

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return ZooPolicyAgent, (self.name, self.seed)


class ZooSampledAgent(SampledCFRAgent):
    """A shipped sampled solver's policy; it pickles as its name, seed and way of play, so a worker reloads the
    verified file."""

    def __init__(self, name: str, seed: int | None = None, deterministic: bool = False,
                 threshold: float = 0.0) -> None:
        super().__init__(load_policy(name), seed=seed, name=name, deterministic=deterministic, threshold=threshold)
        self.seed = seed

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return ZooSampledAgent, (self.name, self.seed, self.deterministic, self.threshold)


def _register_all() -> None:
    for name, entry in policies().items():
        if "abstraction" in entry:
            def factory(seed: int | None = None, deterministic: bool = False,
                        threshold: float = entry.get("threshold", 0.0), _name: str = name) -> Any:
                return ZooSampledAgent(_name, seed, deterministic, 0.0 if deterministic else threshold)
        else:
            def factory(seed: int | None = None, _name: str = name) -> Any:
                return ZooPolicyAgent(_name, seed)

        factory.__doc__ = f"Shipped {'sampled' if 'abstraction' in entry else 'tabular'} policy {name!r}: " \
                          f"{entry['summary']}"
        factory.declaration = ZooPolicyAgent.declare(entry["variant"])
        register(name, replace=True)(factory)


_register_all()


class PolicyFileAgent(TabularPolicyAgent):
    """A tabular policy read from a ``.npz`` file; it pickles as its path, SHA-256 and seed, never its arrays."""

    def __init__(self, path: str, sha256: str, seed: int | None = None, name: str | None = None) -> None:
        super().__init__(_policy_file(path, sha256), seed=seed, name=name or Path(path).stem)
        self.path, self.sha256, self.seed = path, sha256, seed

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return PolicyFileAgent, (self.path, self.sha256, self.seed, self.name)


class SampledPolicyFileAgent(SampledCFRAgent):
    """A sampled solver's policy read from a ``.npz`` file; it pickles as its path, SHA-256 and seed, never its
    arrays (millions of keys for razz)."""

    def __init__(self, path: str, sha256: str, seed: int | None = None, name: str | None = None,
                 deterministic: bool = False, threshold: float = 0.0) -> None:
        super().__init__(_policy_file(path, sha256, sampled=True), seed=seed, name=name or Path(path).stem,
                         deterministic=deterministic, threshold=threshold)
        self.path, self.sha256, self.seed = path, sha256, seed

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return SampledPolicyFileAgent, (self.path, self.sha256, self.seed, self.name, self.deterministic,
                                        self.threshold)


@cache
def _policy_file(path: str, sha256: str, sampled: bool = False) -> Any:
    """The policy in the file at ``path`` once its bytes match ``sha256`` (read once per process and pair)."""
    where = Path(path)
    if not where.is_file():
        raise ValueError(f"policy file {path!r}: no such file")
    digest = hashlib.sha256(where.read_bytes()).hexdigest()
    if digest != sha256.lower():
        raise PolicyIntegrityError(f"policy file {path}: SHA-256 {digest}, expected {sha256}: not loaded")
    if sampled:
        return SampledPolicy.load(where)
    return TabularPolicy.load(where)


def load_policy_file(path: str | Path, *, sha256: str | None = None, seed: int | None = None,
                     name: str | None = None, deterministic: bool = False,
                     threshold: float = 0.0) -> PolicyFileAgent | SampledPolicyFileAgent:
    """A policy file as an agent: a ``razz solve`` tabular policy (``policy.npz``) or a sampled solver's
    (:class:`~razz_env.solve.sampled_policy.SampledPolicy`, which ``deterministic`` plays as its argmax and
    ``threshold`` thresholded), told apart by the file's header; ``sha256`` defaults to the file's as it is now."""
    where = Path(path).resolve()
    if not where.is_file():
        raise ValueError(f"policy file {str(path)!r}: no such file")
    if sha256 is None:
        sha256 = hashlib.sha256(where.read_bytes()).hexdigest()
    header, _ = read_archive(where, f"policy file {where}", "policy", ())
    if isinstance(header, dict) and header.get("format") == SAMPLED_FORMAT:
        return SampledPolicyFileAgent(str(where), sha256, seed, name, deterministic, threshold)
    if deterministic or threshold:
        raise ValueError(f"policy file {str(path)!r}: a tabular policy plays its probabilities; deterministic "
                         f"(argmax) and thresholded play are for a sampled solver's policy")
    return PolicyFileAgent(str(where), sha256, seed, name)
