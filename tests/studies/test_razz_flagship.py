"""``studies/razz_flagship.py``: a later stage needs the one before, and (slow) two stages chain into one run, which
an arm's stage 2 goes on from with other tables."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest


@pytest.mark.parametrize("args, named", [
    (["--stage", "0"], "--stage: must be at least 1, got 0"),
    (["--stage", "2"], "--stage 2: stage 1 of seed 1 is not finished"),
    (["--checkpoint-every", "0"], "--checkpoint-every: must be more than 0, got 0"),
    (["--select"], "--select: stage 1 of seed 1 is not finished"),
    (["--lbr"], "--lbr: stage 1 of seed 1 is not finished"),
    (["--agent", "ppo_razz_psro"], "--agent: measures a shipped agent by the selection rule; give --select too"),
    (["--arm", "opponents"], "--arm opponents: stage 1 is self-play in every arm; an arm begins at stage 2"),
    (["--arm", "pool"], "argument --arm: invalid choice: 'pool' (choose from 'self_play', 'opponents')"),
])
def test_bad_settings_and_a_missing_earlier_stage_exit_2_and_write_nothing(study, tmp_path, args, named):
    study("razz_flagship").assert_refuses([*args, "--output", str(tmp_path / "out")], named)
    assert not (tmp_path / "out").exists()


def test_two_selection_seeds_pool_as_one_match(load_study):
    def result(mean, half, aivat, aivat_half):
        return SimpleNamespace(bb_per_100=mean, ci95_low=mean - half, aivat_bb_per_100=aivat,
                               aivat_ci95_low=aivat - aivat_half)

    figures = load_study("razz_flagship").pooled([result(10.0, 3.0, 8.0, 6.0), result(20.0, 4.0, 4.0, 8.0)])
    assert figures == pytest.approx({"bb100": 15.0, "low": 12.5, "high": 17.5, "aivat_bb100": 6.0,
                                     "aivat_low": 1.0, "aivat_high": 11.0})


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
    armed = flagship.run("--stage", "2", "--arm", "opponents", "--stage-updates", "1", "--output", str(tmp_path))
    assert armed.returncode == 0, armed.stderr
    other = json.loads((tmp_path / "seed1" / "stage2-opponents" / "state.json").read_text())
    assert (other["update"], other["settings"]["self_play_fraction"]) == (2, 0.5)
    assert other["settings"]["opponents"][:2] == ["monte_carlo", "razz_heuristic"]
    again = flagship.run("--stage", "2", "--stage-updates", "1", "--output", str(tmp_path))
    assert again.returncode == 0 and "finished already" in again.stdout
    measured = flagship.run("--stage", "2", "--stage-updates", "1", "--output", str(tmp_path), "--select",
                            "--deals", "2")
    assert measured.returncode == 0, measured.stderr
    selection = json.loads((tmp_path / "seed1" / "stage2" / "selection.json").read_text())
    assert selection["seeds"] == [41001, 41002] and set(selection["opponents"]) == {"razz_heuristic", "monte_carlo",
                                                                                     "ppo_razz_psro"}
    assert selection["score"] == min(item["aivat_low"] for item in selection["opponents"].values())
    assert all(item["hands"] == 8 for item in selection["opponents"].values())
    assert measured.stdout.startswith("| 1 | 2 | 65,536 |")
    bounded = flagship.run("--stage", "2", "--stage-updates", "1", "--output", str(tmp_path), "--lbr",
                           "--lbr-deals", "2")
    assert bounded.returncode == 0, bounded.stderr
    bounds = json.loads((tmp_path / "seed1" / "stage2" / "lbr.json").read_text())
    assert bounds["deals"] == 2 and all(bounds[p]["low"] <= bounds[p]["bb100"] <= bounds[p]["high"]
                                        for p in ("sampled", "argmax"))
    assert "LBR sampled" in bounded.stdout and "argmax" in bounded.stdout
    scaled = flagship.run("--select", "--agent", "razz_heuristic", "--deals", "2", "--output", str(tmp_path))
    assert scaled.returncode == 0, scaled.stderr
    assert set(json.loads(scaled.stdout)["opponents"]) == {"monte_carlo", "ppo_razz_psro"}
