"""A finished run's files kept where another machine finds them: the stage products a later stage goes on from.

A run folder (``runs/...``) is not in the repository, so a stage trained in one session is gone in the next
unless its products are kept. :func:`keep` copies a finished run's ``checkpoint.pt`` (what a later stage goes on
from), ``final.pt`` (the policy) and ``state.json`` into a release folder that is committed, with each file's
SHA-256 in ``kept.json``; :func:`restore` copies them back into an empty run folder when the kept run is the one
asked for (the same settings and steps), refusing files whose digest is not the one recorded.

    >>> import tempfile
    >>> restore(Path(tempfile.mkdtemp()) / "release", Path("runs/x"), {"seed": 1}, 32768)  # nothing kept there
    False
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from razz_env.engine.errors import ConfigError
from razz_env.train.budgeted import CHECKPOINT, FINAL, STATE, read_state, write_json

KEPT_FILES = (CHECKPOINT, FINAL, STATE)
"""What a finished stage keeps: its last checkpoint, its policy and its state (``state.json`` last: a cut copy is
never taken for a finished run)."""
MANIFEST = "kept.json"


def sha256(path: Path) -> str:
    """The file's SHA-256, hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def keep(folder: str | Path, release: str | Path) -> dict[str, str]:
    """Copy the finished run in ``folder`` into ``release`` with ``kept.json`` (each file's SHA-256); the digests."""
    folder, release = Path(folder), Path(release)
    missing = [name for name in KEPT_FILES if not (folder / name).is_file()]
    if missing:
        raise ConfigError(f"keep {folder}: not a finished run (no {', '.join(missing)}); finish it first")
    state = read_state(folder)
    release.mkdir(parents=True, exist_ok=True)
    digests = {}
    for name in KEPT_FILES:
        shutil.copyfile(folder / name, release / name)
        digests[name] = sha256(release / name)
    write_json(release / MANIFEST, {"steps": state["steps"], "sha256": digests})
    return digests


def restore(release: str | Path, folder: str | Path, settings: dict[str, Any], steps: int) -> bool:
    """Copy the run kept in ``release`` into ``folder`` when ``folder`` holds no run yet and the kept one was
    trained with ``settings`` to ``steps`` steps; whether it did. Files that do not match ``kept.json`` are refused
    and nothing is copied."""
    release, folder = Path(release), Path(folder)
    if read_state(folder) is not None or not (release / MANIFEST).is_file():
        return False
    kept = read_state(release)
    if kept is None or kept["settings"] != json.loads(json.dumps(settings)) or kept["steps"] != steps:
        return False
    recorded = json.loads((release / MANIFEST).read_text(encoding="utf-8"))["sha256"]
    for name in KEPT_FILES:
        if not (release / name).is_file() or sha256(release / name) != recorded.get(name):
            raise ConfigError(f"{release / name}: not the file {MANIFEST} records (SHA-256 {recorded.get(name)}); "
                              f"the kept stage is damaged: check it out again from git")
    folder.mkdir(parents=True, exist_ok=True)
    for name in KEPT_FILES:
        shutil.copyfile(release / name, folder / name)
    return True
