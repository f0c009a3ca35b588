"""``studies/minirazz_ppo.py``: its settings are checked before anything trains."""

from __future__ import annotations


def test_unknown_settings_exit_2_naming_them_and_write_nothing(study, tmp_path):
    out = tmp_path / "out"
    study("minirazz_ppo").assert_refuses(["--settings", "self_play", "nobody", "--output", str(out)],
                                         "--settings: unknown 'nobody'; known: self_play, baselines")
    assert not out.exists()
