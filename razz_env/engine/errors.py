"""Errors the engine raises: each names what was wrong and what is allowed."""

from __future__ import annotations


class ConfigError(ValueError):
    """A hand configuration or record field is malformed (names the field and the problem)."""


class IllegalActionError(ValueError):
    """An action that is not legal for the seat to act; the state is left unchanged."""
