"""Errors the engine raises: each names what was wrong and what is allowed."""

from __future__ import annotations

_SHOWN = 60


class ConfigError(ValueError):
    """A hand configuration or record field is malformed (names the field and the problem)."""


class IllegalActionError(ValueError):
    """An action that is not legal for the seat to act; the state is left unchanged."""


def shown(value: object) -> str:
    """A short one-line ``repr`` of ``value`` for an error message (long values cut, huge ints summarised)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
    try:
        text = " ".join(repr(value).split())
    except Exception:  # a message must never fail, whatever the object (deep nesting included)
        text = f"<{type(value).__name__}>"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."
