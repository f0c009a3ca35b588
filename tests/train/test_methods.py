"""``razz_env.train.methods``: every named method is a valid set of trainer settings."""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("torch")

from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.train.batch_ppo import Args, check_args  # noqa: E402
from razz_env.train.methods import METHODS, method_settings  # noqa: E402


@pytest.mark.parametrize("method", METHODS)
def test_each_method_names_real_settings_the_trainer_accepts(method):
    settings = method_settings(method, variant="minirazz")
    assert set(settings) <= {field.name for field in dataclasses.fields(Args)}
    check_args(Args(**settings))


def test_a_callers_settings_go_over_the_methods_and_an_unknown_method_is_refused():
    assert method_settings("mmd", magnet_coef=0.3)["magnet_coef"] == 0.3
    with pytest.raises(ConfigError, match="--method: unknown 'nfsp'; known: ppo, ppo_pool, mmd, mmd_moving, "
                                          "mmd_ema, fsp"):
        method_settings("nfsp")
