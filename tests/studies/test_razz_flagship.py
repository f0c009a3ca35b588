"""``studies/razz_flagship.py``: a later stage needs the one before, and (slow) two stages chain into one run."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("args, named", [
    (["--stage", "0"], "--stage: must be at least 1, got 0"),
    (["--stage", "2"], "--stage 2: stage 1 of seed 1 is not finished"),
    (["--checkpoint-every", "0"], "--checkpoint-every: must be more than 0, got 0"),
])
def test_bad_settings_and_a_missing_earlier_stage_exit_2_and_write_nothing(study, tmp_path, args, named):
    study("razz_flagship").assert_refuses([*args, "--output", str(tmp_path / "out")], named)
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_two_stages_train_one_run(study, tmp_path):
    """About a minute: two stages of one update of razz each."""
    pytest.importorskip("torch")
    pytest.importorskip("numba")
    flagship = study("razz_flagship")
    for stage in ("1", "2"):
        ran = flagship.run("--stage", stage, "--stage-updates", "1", "--output", str(tmp_path))
        assert ran.returncode == 0, ran.stderr
    first, second = (json.loads((tmp_path / "seed1" / f"stage{i}" / "state.json").read_text()) for i in (1, 2))
    assert (first["update"], first["steps"], second["update"], second["steps"]) == (1, 32768, 2, 65536)
    assert second["clock"][0] > first["clock"][0] and (tmp_path / "seed1" / "stage2" / "final.pt").exists()
    again = flagship.run("--stage", "2", "--stage-updates", "1", "--output", str(tmp_path))
    assert again.returncode == 0 and "finished already" in again.stdout
