"""``studies/razz_first_hour.py``: its settings checked before anything trains, and (slow) a smoke run."""

from __future__ import annotations

import csv

import pytest


@pytest.mark.parametrize("args, named", [
    (["--method", "nfsp"], "--method: unknown 'nfsp'"),
    (["--lbr-deals", "0"], "--lbr-deals: must be at least 1, got 0"),
    (["--set", "ent_coef=0.1"], "--set: name the run with --tag"),
    (["--set", "entropy=1", "--tag", "x"], "--set: expected name=value with a trainer setting's name"),
    (["--set", "norm_adv=maybe", "--tag", "x"], "--set norm_adv: expected true or false, got 'maybe'"),
    (["--set", "ent_coef=lots", "--tag", "x"], "--set ent_coef: expected a float, got 'lots'"),
])
def test_bad_settings_exit_2_naming_them_and_write_nothing(study, tmp_path, args, named):
    study("razz_first_hour").assert_refuses([*args, "--output", str(tmp_path / "out")], named)
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_smoke_run_trains_saves_and_measures_its_policy(study, tmp_path):
    """About a minute: one update of razz, then LBR and a match of two deals each."""
    pytest.importorskip("torch")
    pytest.importorskip("numba")
    ran = study("razz_first_hour").run("--minutes", "0.01", "--lbr-deals", "2", "--match-deals", "2", "--output",
                                       str(tmp_path))
    assert ran.returncode == 0, ran.stderr
    folder = tmp_path / "mmd" / "seed1"
    with open(folder / "curve.csv", newline="") as handle:
        row, = list(csv.DictReader(handle))
    assert row["steps"] == "32768" and (folder / "policy_32768.pt").exists() and (folder / "final.pt").exists()
    assert float(row["lbr_low"]) <= float(row["lbr_bb100"]) <= float(row["lbr_high"])
    assert float(row["aivat_low"]) <= float(row["aivat_bb100"]) <= float(row["aivat_high"])
