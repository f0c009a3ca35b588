"""``razz_env.train.kept``: a finished run kept in a release folder comes back byte for byte, only for the run asked
for, and never when a file is not the one recorded."""

from __future__ import annotations

import json

import pytest

from razz_env.engine.errors import ConfigError
from razz_env.train.kept import MANIFEST, keep, restore, sha256

SETTINGS = {"seed": 1, "hidden": [256, 256]}


@pytest.fixture
def finished(tmp_path):
    """A run folder as a finished run leaves it (its files' bytes stand for the real ones)."""
    folder = tmp_path / "runs" / "stage1"
    folder.mkdir(parents=True)
    (folder / "checkpoint.pt").write_bytes(b"networks and optimizer")
    (folder / "final.pt").write_bytes(b"policy")
    (folder / "state.json").write_text(json.dumps({"settings": SETTINGS, "clock": [60.0, 61.0], "steps": 65536}))
    (folder / "curve.csv").write_text("cpu_minutes\n1\n")
    return folder


def test_a_kept_run_is_restored_byte_for_byte(finished, tmp_path):
    release = tmp_path / "release" / "stage1"
    digests = keep(finished, release)
    assert sorted(digests) == ["checkpoint.pt", "final.pt", "state.json"] and not (release / "curve.csv").exists()
    assert json.loads((release / MANIFEST).read_text()) == {"steps": 65536, "sha256": digests}
    again = tmp_path / "elsewhere" / "stage1"
    assert restore(release, again, SETTINGS, 65536)
    assert all((again / name).read_bytes() == (finished / name).read_bytes() for name in digests)
    assert not restore(release, again, SETTINGS, 65536)  # a folder holding a run is never overwritten


@pytest.mark.parametrize("settings, steps", [({"seed": 2, "hidden": [256, 256]}, 65536), (SETTINGS, 32768)])
def test_another_run_is_not_restored(finished, tmp_path, settings, steps):
    keep(finished, tmp_path / "release")
    assert not restore(tmp_path / "release", tmp_path / "new", settings, steps)
    assert not (tmp_path / "new").exists()


def test_nothing_kept_restores_nothing(tmp_path):
    assert not restore(tmp_path / "release", tmp_path / "new", SETTINGS, 65536)


@pytest.mark.parametrize("damage", ["changed", "missing"])
def test_a_damaged_kept_file_is_refused_by_name_and_nothing_copied(finished, tmp_path, damage):
    release = tmp_path / "release"
    recorded = keep(finished, release)["checkpoint.pt"]
    if damage == "changed":
        (release / "checkpoint.pt").write_bytes(b"other bytes")
    else:
        (release / "checkpoint.pt").unlink()
    with pytest.raises(ConfigError, match=f"checkpoint.pt: not the file kept.json records \\(SHA-256 {recorded}\\)"):
        restore(release, tmp_path / "new", SETTINGS, 65536)
    assert not (tmp_path / "new").exists()


def test_an_unfinished_run_is_not_kept(finished, tmp_path):
    (finished / "final.pt").unlink()
    with pytest.raises(ConfigError, match="not a finished run \\(no final.pt\\); finish it first"):
        keep(finished, tmp_path / "release")
    assert not (tmp_path / "release").exists()


def test_the_digest_is_sha256(tmp_path):
    (tmp_path / "f").write_bytes(b"abc")
    assert sha256(tmp_path / "f") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
