"""Errors the engine raises: each names what was wrong and what is allowed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

_SHOWN = 60


class ConfigError(ValueError):
    """A hand configuration or record field is malformed (names the field and the problem)."""


class IllegalActionError(ValueError):
    """An action that is not legal for the seat to act; the state is left unchanged."""


@contextmanager
def labelled(label: str, *kinds: type[Exception]) -> Iterator[None]:
    """Raise what the block raises of ``kinds`` (default :class:`ConfigError`) as one :class:`ConfigError`,
    ``label: message`` (no chained traceback): an error that also names where it happened."""
    caught = kinds or (ConfigError,)
    try:
        yield
    except caught as err:
        raise ConfigError(f"{label}: {err}") from None


def shown(value: object) -> str:
    """A short one-line ``repr`` of ``value`` for an error message (long values cut, huge ints summarised)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
    try:
        text = " ".join(repr(value).split())
    except Exception:  # a message must never fail, whatever the object (deep nesting included)
        text = f"<{type(value).__name__}>"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


EXTRAS = {"sb3_contrib": "train", "stable_baselines3": "train", "torch": "train", "tensorboard": "train",
          "numba": "batch", "ray": "ray", "pyspiel": "openspiel", "open_spiel": "openspiel", "yaml": "eval",
          "matplotlib": "eval", "tqdm": "eval", "openskill": "eval", "gymnasium": "env", "pettingzoo": "env",
          "starlette": "serve", "uvicorn": "serve"}


def missing_extra(err: ModuleNotFoundError) -> ConfigError | None:
    """A :class:`ConfigError` naming the install extra that provides the module ``err`` misses (None: no extra).

    >>> str(missing_extra(ModuleNotFoundError("No module named 'sb3_contrib'", name="sb3_contrib")))
    "this needs sb3_contrib, which is not installed: pip install 'razz-env[train]'"
    """
    top = (err.name or "").partition(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return None
    return ConfigError(f"this needs {top}, which is not installed: pip install 'razz-env[{extra}]'")
