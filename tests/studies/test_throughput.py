"""``studies/throughput.py``: a short training per setup, its steps/s and environment share printed."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")


def test_one_setup_prints_its_throughput(study):
    result = study("throughput").run("--steps", "256", "--setups", "dummy:2")
    assert result.returncode == 0, result.stderr
    setup, = result.stdout.splitlines()[1:]
    assert setup.startswith("dummy, 2 envs, 1 process ") and setup.endswith("%")


def test_bad_setups_exit_2_naming_them(study):
    for setups in ("dummy", "threads:2", "dummy:0"):
        study("throughput").assert_refuses(["--setups", setups], "--setups: expected VEC_ENV:N_ENVS")
