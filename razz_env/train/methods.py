"""Named learning methods for the batched trainer (:mod:`razz_env.train.batch_ppo`): each is a set of its settings.

These are the methods ``studies/minirazz_equilibrium.py`` measures exactly on MiniRazz
(``docs/studies/minirazz_equilibrium.md``), named once here so that every study and recipe that trains "mmd" or
"fsp" trains the same thing. :data:`BASE` holds what they share; a method's settings go over it, and a caller's
(the table, the budget) over both.

>>> settings = method_settings("mmd", variant="razz")
>>> settings["magnet_coef"], settings["clip_coef"], settings["variant"]
(0.05, 100.0, 'razz')
"""

from __future__ import annotations

import typing
from typing import Any

from razz_env.engine.errors import ConfigError

BASE: dict[str, Any] = {"anneal_lr": False, "num_tables": 1024, "num_steps": 32, "hidden": (256, 256),
                        "ent_coef": 0.01, "torch_threads": 1}
"""Shared by every method: 1,024 tables x 32 steps a rollout, a constant learning rate (a CPU budget, not a step
horizon, ends these runs), a 256-256 MLP, entropy 0.01, one torch thread."""

METHODS: dict[str, dict[str, Any]] = {
    "ppo": {"self_play_fraction": 1.0},
    "ppo_pool": {"self_play_fraction": 0.5, "pool_fraction": 0.5, "max_snapshots": 10, "snapshot_every": 20},
    "mmd": {"self_play_fraction": 1.0, "magnet_coef": 0.05, "kl_coef": 1.0, "clip_coef": 100.0},
    "mmd_moving": {"self_play_fraction": 1.0, "magnet_coef": 0.05, "kl_coef": 1.0, "clip_coef": 100.0,
                   "magnet": "moving", "magnet_every": 200},
    "mmd_ema": {"self_play_fraction": 1.0, "magnet_coef": 0.05, "kl_coef": 1.0, "clip_coef": 100.0,
                "magnet": "ema", "magnet_ema": 0.01},
    "fsp": {"self_play_fraction": 0.0, "pool_fraction": 1.0, "max_snapshots": 0, "snapshot_every": 20},
}
"""``ppo``: self-play, the current network in both seats; ``ppo_pool``: half the tables against its newest 10
snapshots; ``mmd``: magnetic mirror descent (Sokota et al., 2023), PPO's loss plus alpha KL(policy || uniform) and
KL(policy || the rollout's policy) with the clipping off; ``mmd_moving``: the magnet a copy of the actor renewed
every 200 updates; ``mmd_ema``: the magnet an exponential moving average of the actor's weights (EMAgnet,
Maidment et al., 2026); ``fsp``: fictitious self-play, a best response to the uniform mixture of every snapshot."""


def method_settings(method: str, **over: Any) -> dict[str, Any]:
    """:data:`BASE`, then ``method``'s settings, then ``over``; ``ConfigError`` for an unknown method."""
    if method not in METHODS:
        raise ConfigError(f"--method: unknown {method!r}; known: {', '.join(METHODS)}")
    return {**BASE, **METHODS[method], **over}


def overrides(items: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """Trainer settings given as ``name=value`` text (a study's ``--set``), each read as its ``batch_ppo.Args``
    type (a tuple as comma-separated values, a bool as true/false); ``ConfigError`` naming a bad one.

    >>> overrides(["ent_coef=0.05", "hidden=64,64", "norm_adv=false"])
    {'ent_coef': 0.05, 'hidden': (64, 64), 'norm_adv': False}
    """
    from razz_env.train.batch_ppo import Args

    hints = typing.get_type_hints(Args)
    out: dict[str, Any] = {}
    for item in items:
        name, equals, text = item.partition("=")
        if name not in hints or not equals:
            raise ConfigError(f"--set: expected name=value with a trainer setting's name, got {item!r}; known: "
                              f"{', '.join(hints)}")
        kind = hints[name]
        try:
            if typing.get_origin(kind) is tuple:
                out[name] = tuple(typing.get_args(kind)[0](part) for part in text.split(","))
            elif kind is bool:
                if text.lower() not in ("true", "false"):
                    raise ValueError(text)
                out[name] = text.lower() == "true"
            else:
                out[name] = kind(text)
        except ValueError:
            what = "true or false" if kind is bool else f"a {getattr(kind, '__name__', kind)}"
            raise ConfigError(f"--set {name}: expected {what}, got {text!r}") from None
    return out
