"""The shipped trained agents: ``razz_env/agents/zoo/manifest.json`` entries registered by name.

``make_agent("ppo_razz")`` reads ``razz_env/agents/zoo/ppo_razz.zip`` once, checks its
SHA-256 against the manifest and loads the model from those same bytes in
memory: SB3 archives can hold pickled objects, so only bytes whose hash matches
the manifest committed with the code are ever unpickled (swapping the file after
the check changes nothing). A changed or missing file raises
:class:`ZooIntegrityError` and nothing is loaded. Each entry records the table
the agent was trained for (``variant``, ``num_seats``), which the agent
declares as ``variants`` / ``seat_counts``, the recipe beside it that made it
(``<name>.recipe.yaml``, run by ``razz zoo reproduce``) and its training time. An entry whose ``algorithm`` is
``batch_ppo`` is a policy file of the batched PPO trainer (``.pt``, :mod:`razz_env.agents.torch_policy`), loaded
as tensors only after the same check; it plays as it learned, sampling its softmax (seeded), unless asked for
``deterministic=True``.

Any other trained model file plays as the agent type ``sb3_model`` (see
:func:`load_model_file`): the spec names the file, its SHA-256 and the table it was
trained for, e.g. the spec :func:`razz_env.train.best_response.train_best_response`
returns. The same rule holds: only bytes matching the given SHA-256 are loaded.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from razz_env.agents.registry import register
from razz_env.agents.sb3_agent import (
    ALGORITHMS,
    SB3Agent,
    UntrustedModelError,
    load_model,
    read_verified,
    trained_seat_counts,
)
from razz_env.agents.torch_policy import ALGORITHM as BATCH_PPO
from razz_env.agents.torch_policy import declaration as policy_declaration
from razz_env.encoding.interface import Declaration
from razz_env.engine.checks import archive_problem, as_flag, as_int
from razz_env.engine.errors import ConfigError
from razz_env.engine.table import TABLE_KEYS, Table

ZOO_DIR = Path(__file__).resolve().parent / "zoo"
MANIFEST = ZOO_DIR / "manifest.json"


class ZooIntegrityError(UntrustedModelError):
    """A zoo file is missing or its hash differs from the manifest: it is not loaded."""


def manifest() -> dict[str, dict[str, Any]]:
    """The zoo manifest (empty when no agent is shipped)."""
    if not MANIFEST.exists():
        return {}
    try:
        entries = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ZooIntegrityError(f"{MANIFEST}: damaged, not JSON ({err}); restore it from the repository "
                                f"or reinstall razz-env") from None
    if not isinstance(entries, dict) or not all(isinstance(entry, dict) for entry in entries.values()):
        raise ZooIntegrityError(f"{MANIFEST}: damaged, expected a mapping of agent name to entry")
    return entries


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


def plays_argmax(name: str) -> bool:
    """How a shipped agent plays unless told: an SB3 model its argmax, a batched-PPO policy its sampled softmax
    (as it learned)."""
    return manifest()[name]["algorithm"] != BATCH_PPO


def load_zoo_agent(name: str, deterministic: bool | None = None, seed: int | None = None) -> Any:
    """A shipped agent by name (the model is loaded once per process and shared); ``deterministic`` left out (None):
    as :func:`plays_argmax` says."""
    entry = manifest()[name]
    deterministic = plays_argmax(name) if deterministic is None else deterministic
    if entry["algorithm"] == BATCH_PPO:
        from razz_env.agents.torch_policy import TorchPolicyAgent

        verified_bytes(name)  # a missing or changed file is a ZooIntegrityError before anything loads
        return TorchPolicyAgent(ZOO_DIR / entry["file"], sha256=entry["sha256"], name=name,
                                deterministic=deterministic, seed=seed)
    declared = zoo_declaration(name)
    return SB3Agent(_load_model(name), name=name, deterministic=deterministic, encoding=entry["encoding"],
                    seed=seed, variants=declared.variants, seat_counts=declared.seat_counts)


def zoo_table(name: str) -> Table:
    """The table a shipped agent was trained at: its manifest entry's :class:`Table` fields."""
    entry = manifest()[name]
    return Table.from_mapping({key: entry[key] for key in TABLE_KEYS if key in entry}, f"zoo agent {name!r}")


def zoo_declaration(name: str) -> Declaration:
    """What the shipped agent ``name`` declares, read from its manifest entry without loading its model."""
    entry = manifest()[name]
    table = zoo_table(name)
    if entry["algorithm"] == BATCH_PPO:
        return policy_declaration(table.variant.name, table.num_seats, table.hand_config(), deterministic=False)
    counts = trained_seat_counts(entry["encoding"], table.variant.name, table.num_seats)
    return SB3Agent.declare(entry["encoding"], (table.variant.name,), counts)


def _zoo_factory(name: str) -> Callable[..., Any]:
    """The registry's factory for the shipped agent ``name``: its options are the agent's, never its name."""
    argmax = plays_argmax(name)

    def factory(deterministic: bool = argmax, seed: int | None = None) -> Any:
        return load_zoo_agent(name, as_flag("deterministic", deterministic), seed)  # null is no flag

    factory.__doc__ = f"Shipped trained agent {name!r} (see razz_env/agents/zoo/manifest.json)."
    factory.declaration = zoo_declaration(name)
    return factory


def _register_all() -> None:
    for name in manifest():
        register(name, replace=True)(_zoo_factory(name))


_register_all()

MODEL_FILE_TYPE = "sb3_model"
SHA256_PATTERN = re.compile(r"[0-9a-f]{64}")
MODEL_CACHE_SIZE = 16


class ModelFileAgent(SB3Agent):
    """An :class:`SB3Agent` loaded from a model file by its SHA-256 (agent type ``sb3_model``).

    It pickles as its spec: unpickling (in a worker process, say) builds it again through
    :func:`load_model_file`, so the file is verified there too and no model travels.
    """

    def __init__(self, model: Any, spec: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(model, **kwargs)
        self.spec = spec

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _rebuild, (self.spec,)


def _rebuild(spec: dict[str, Any]) -> ModelFileAgent:
    return load_model_file(**spec)


@lru_cache(maxsize=MODEL_CACHE_SIZE)
def _verified_model(path: str, sha256: str, algorithm: str) -> Any:
    """The model in the file at ``path`` once its bytes match ``sha256`` (once per process and triple); a file that
    does not load is a ``ValueError`` naming it."""
    data = read_verified(path, sha256)
    try:
        return load_model(data, algorithm)
    except ConfigError:  # a missing SB3 install: the extra to install
        raise
    except Exception as err:  # noqa: BLE001 - SB3, zipfile and torch raise many kinds on a damaged file
        problem = archive_problem(data) or " ".join(str(err).split())
        raise ValueError(f"model file {path}: {problem}") from None


def _check_model_file_spec(path: Any, sha256: Any, variant: Any, num_seats: Any, algorithm: Any,
                           encoding: Any, deterministic: Any, seed: Any, name: Any) -> None:
    from razz_env.encoding import ENCODINGS
    from razz_env.engine.config import seats_problem
    from razz_env.engine.errors import shown
    from razz_env.engine.variants import VARIANTS

    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise ValueError(f"{MODEL_FILE_TYPE}: path: expected the model file's path, got {shown(path)}")
    if not isinstance(sha256, str) or not SHA256_PATTERN.fullmatch(sha256.lower()):
        raise ValueError(f"{MODEL_FILE_TYPE}: sha256: expected the file's SHA-256 as 64 hex digits, "
                         f"got {shown(sha256)}")
    if variant not in VARIANTS:
        raise ValueError(f"{MODEL_FILE_TYPE}: variant: expected the variant the model was trained for, one of "
                         f"{', '.join(VARIANTS)}; got {shown(variant)}")
    seats = as_int(f"{MODEL_FILE_TYPE}: num_seats", num_seats, what="the seat count the model was trained for")
    problem = seats_problem(VARIANTS[variant], seats)
    if problem is not None:
        raise ConfigError(f"{MODEL_FILE_TYPE}: num_seats: expected the seat count the model was trained for; {problem}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"{MODEL_FILE_TYPE}: algorithm: expected one of {', '.join(ALGORITHMS)}, "
                         f"got {shown(algorithm)}")
    if encoding not in ENCODINGS:
        raise ValueError(f"{MODEL_FILE_TYPE}: encoding: expected one of {', '.join(ENCODINGS)}, "
                         f"got {shown(encoding)}")
    as_flag(f"{MODEL_FILE_TYPE}: deterministic", deterministic)
    if seed is not None:
        as_int(f"{MODEL_FILE_TYPE}: seed", seed, 0, 2**63 - 1, what="an integer, or null")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise ValueError(f"{MODEL_FILE_TYPE}: name: expected a non-empty name, got {shown(name)}")


def _check_spaces(model: Any, path: str, variant: str, num_seats: int, encoding: str) -> None:
    """Refuse a model whose observation or action space is not the declared table's."""
    from razz_env.encoding import make_encoder
    from razz_env.encoding.actions import NUM_ACTIONS
    from razz_env.engine.config import HandConfig

    expected = make_encoder(encoding, HandConfig.create(variant, num_seats=num_seats)).observation_space.shape
    actual = getattr(model.observation_space, "shape", None)
    if actual != expected or getattr(model.action_space, "n", None) != NUM_ACTIONS:
        raise ValueError(f"{MODEL_FILE_TYPE} {path}: the model reads observations of shape {actual} and "
                         f"{getattr(model.action_space, 'n', '?')} actions, but the {encoding} encoding of "
                         f"{variant} at {num_seats} seats has shape {expected} and {NUM_ACTIONS} actions; "
                         f"give the variant, num_seats and encoding it was trained with")


@register(MODEL_FILE_TYPE)
def load_model_file(path: str | os.PathLike[str], sha256: str, variant: str, num_seats: int,
                    algorithm: str = "maskable_ppo", encoding: str = "flat", name: str | None = None,
                    deterministic: bool = True, seed: int | None = None) -> ModelFileAgent:
    """A trained model file (path, SHA-256, table) as an agent: only bytes with that SHA-256 are loaded.

    ``variant`` and ``num_seats`` are the table it was trained for (declared as ``variants`` /
    ``seat_counts``, every size of the variant for a padded encoding; checked against the model's
    observation space with ``encoding``). The file is
    read once, checked, and the model loaded from those bytes (:class:`UntrustedModelError` when
    they differ); a process loads each (path, SHA-256, algorithm) once and shares the model.
    """
    _check_model_file_spec(path, sha256, variant, num_seats, algorithm, encoding, deterministic, seed, name)
    resolved = str(Path(path).resolve())
    model = _verified_model(resolved, sha256.lower(), algorithm)
    _check_spaces(model, resolved, variant, num_seats, encoding)
    spec = {"path": resolved, "sha256": sha256.lower(), "variant": variant, "num_seats": num_seats,
            "algorithm": algorithm, "encoding": encoding, "name": name, "deterministic": deterministic,
            "seed": seed}
    return ModelFileAgent(model, spec, name=name or Path(resolved).stem, deterministic=deterministic,
                          encoding=encoding, seed=seed, variants=(variant,),
                          seat_counts=trained_seat_counts(encoding, variant, num_seats))


RUN_CONFIG = "config.json"


def _run_settings(path: Path) -> dict[str, Any]:
    """The table, algorithm and encoding in the ``config.json`` of the ``razz train`` run folder holding ``path``
    (beside it, or one folder up for a checkpoint); empty when there is none."""
    for folder in (path.parent, path.parent.parent):
        config = folder / RUN_CONFIG
        if config.is_file():
            try:
                data = json.loads(config.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError):
                return {}
            settings = {key: data[key] for key in ("variant", "num_seats", "algorithm", "encoding") if key in data}
            if isinstance(settings.get("num_seats"), list) and settings["num_seats"]:
                settings["num_seats"] = max(settings["num_seats"])
            return settings
    return {}


def recorded_sha256(path: str | os.PathLike[str]) -> str | None:
    """The SHA-256 that the ``razz train`` run folder holding ``path`` recorded for it in ``hashes.json`` when it
    wrote it (beside it, or one folder up for a checkpoint); ``None`` when the file is in no run folder."""
    where = Path(path).resolve()
    for folder in (where.parent, where.parent.parent):
        record = folder / "hashes.json"
        if record.is_file():
            try:
                hashes = json.loads(record.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError):
                return None
            digest = hashes.get(where.relative_to(folder).as_posix()) if isinstance(hashes, dict) else None
            return digest if isinstance(digest, str) and SHA256_PATTERN.fullmatch(digest) else None
    return None


def model_label(path: str | os.PathLike[str]) -> str:
    """A model file's short name: its stem, after its ``razz train`` run folder's name when it sits in one
    (``runs/mine/final.zip``: ``mine/final``; ``runs/mine/checkpoints/step_64.zip``: ``mine/step_64``)."""
    where = Path(path)
    run = next((folder for folder in (where.parent, where.parent.parent) if (folder / RUN_CONFIG).is_file()), None)
    return where.stem if run is None else f"{run.resolve().name}/{where.stem}"


def load_model_path(path: str | os.PathLike[str], *, sha256: str | None = None, variant: str | None = None,
                    num_seats: int | None = None, algorithm: str | None = None, encoding: str | None = None,
                    name: str | None = None, deterministic: bool = True, seed: int | None = None) -> ModelFileAgent:
    """A model file given by its path (``make_agent("runs/x/final.zip")``), through :func:`load_model_file`.

    What is not given comes from the ``razz train`` run folder the file sits in (its ``config.json``), else
    razz heads-up, ``maskable_ppo``, ``flat``; ``sha256`` defaults to the one the run folder recorded when it
    wrote the file (``hashes.json``), else the file's as it is now, so every process that rebuilds the agent (a
    worker) loads these same bytes or refuses.
    """
    where = Path(path)
    if not where.is_file():
        raise ValueError(f"model file {str(path)!r}: no such file")
    found = _run_settings(where)
    if sha256 is None:
        sha256 = recorded_sha256(where)
    if sha256 is None:
        import hashlib

        sha256 = hashlib.sha256(where.read_bytes()).hexdigest()
    return load_model_file(
        where, sha256, variant or found.get("variant", "razz"), num_seats or found.get("num_seats", 2),
        algorithm or found.get("algorithm", "maskable_ppo"), encoding or found.get("encoding", "flat"),
        name=name or where.stem, deterministic=deterministic, seed=seed)
