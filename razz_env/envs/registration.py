"""Gymnasium ids for the single-seat view: ``gymnasium.make("razz_env/Razz-v0", **options)``.

One id per variant of :data:`~razz_env.engine.variants.VARIANTS` (:data:`GYMNASIUM_IDS`: ``razz_env/Razz-v0``,
``razz_env/ActionRazz-v0``, ``razz_env/Stud-v0``, ``razz_env/Stud8-v0``, ``razz_env/MiniRazz-v0``,
``razz_env/MiniRazzTiny-v0``, ``razz_env/MiniRazzSmall-v0``, ``razz_env/MiniRazzLarge-v0``), each building
:class:`razz_env.envs.single_agent.SingleAgentEnv` with that ``variant`` (a ``variant`` option naming another game
is refused: the id names it); every other
keyword of ``gymnasium.make`` / ``gymnasium.make_vec`` is an option of that class
(``opponents``, ``seat``, ``num_seats``, ``stacks``, stakes, ``table``, ``encoding``, ``render_mode`` ...);
the stakes and the cap default to the variant's.
Without ``opponents`` every other seat plays uniformly at random from the environment's
seeded generator, so ``reset(seed=...)`` repeats whole hands.

Gymnasium 1.x has no plugin entry points: a package registers its ids when it is
imported. This module registers them on import (idempotently); ``import razz_env``
imports it when gymnasium is already loaded (``import gymnasium`` first), and so does
the single-agent module. In any import order, name this module in the id and
Gymnasium imports it first::

    gymnasium.make("razz_env.envs.registration:razz_env/Razz-v0")

A child process starts without the parent's imports. Forked children (Gymnasium's ``AsyncVectorEnv`` on
Linux) inherit the registry. For ``forkserver`` children (SB3's ``SubprocVecEnv`` default on Linux) this
module asks multiprocessing's fork server to import it before it forks, so the plain id works there even when
the script imported razz_env only inside a function (a fork server started before that keeps its own
modules). A ``spawn`` child imports nothing of the parent's: give it :func:`make_env`
(``functools.partial(make_env, "razz_env/Razz-v0", opponents=...)``), which pickles by reference, imports
this module in the child, registers the ids and then makes the environment, or the module-named id above.
"""

from __future__ import annotations

from typing import Any

import gymnasium

from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.variants import VARIANTS

__all__ = ["ENTRY_POINT", "GYMNASIUM_IDS", "make_env", "register_envs"]

ENTRY_POINT = "razz_env.envs.single_agent:SingleAgentEnv"
_ID_WORDS = {"minirazz": "MiniRazz"}


def _env_name(variant: str) -> str:
    """``minirazz_tiny`` -> ``MiniRazzTiny``: each word capitalised (``_ID_WORDS`` spells the odd one)."""
    return "".join(_ID_WORDS.get(word, word.capitalize()) for word in variant.split("_"))


GYMNASIUM_IDS = {variant: f"razz_env/{_env_name(variant)}-v0" for variant in VARIANTS}


class VariantEnv:
    """The entry point of one variant's id: :data:`ENTRY_POINT`'s class playing that variant; a ``variant``
    option naming another game is refused (``ConfigError``), since the id names the game."""

    def __init__(self, variant: str) -> None:
        self.variant = variant

    @property
    def metadata(self) -> dict[str, Any]:
        """The environment class's metadata (Gymnasium reads its render modes from the entry point)."""
        from razz_env.envs.single_agent import SingleAgentEnv

        return SingleAgentEnv.metadata

    def __call__(self, **options: Any) -> gymnasium.Env:
        from razz_env.envs.single_agent import SingleAgentEnv

        given = options.get("variant", self.variant)
        if given != self.variant:
            env_id = GYMNASIUM_IDS[self.variant]
            other = GYMNASIUM_IDS.get(given) if isinstance(given, str) else None
            hint = (f"gymnasium.make({other!r}) plays {given}" if other else
                    f"the ids: {', '.join(GYMNASIUM_IDS.values())}")
            raise ConfigError(f"variant: {env_id} plays {self.variant}, not {shown(given)}; {hint}")
        return SingleAgentEnv(**options)


def register_envs() -> None:
    """Register every id of :data:`GYMNASIUM_IDS` not yet in Gymnasium's registry."""
    for variant, env_id in GYMNASIUM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=VariantEnv(variant), kwargs={"variant": variant})


def make_env(env_id: str = "razz_env/Razz-v0", **kwargs: Any) -> gymnasium.Env:
    """``gymnasium.make(env_id, **kwargs)`` with the ids registered first: an ``env_fn`` for child processes
    (picklable by reference, so the child imports this module and its ids before making the environment)."""
    register_envs()
    return gymnasium.make(env_id, **kwargs)


def preload_in_forkserver_children() -> None:
    """Add this module to the fork server's preloaded modules (kept: the ones already listed, ``__main__``
    first), so every child it forks has the ids registered."""
    from multiprocessing import forkserver

    modules = getattr(getattr(forkserver, "_forkserver", None), "_preload_modules", None)
    if isinstance(modules, list) and __name__ not in modules:
        forkserver.set_forkserver_preload([*modules, __name__])


register_envs()
preload_in_forkserver_children()
