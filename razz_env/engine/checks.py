"""Checks of values a user hands the library: integers, numbers, flags, sequences and cards (and the bytes of a model
file).

Constructors call these once, so the hot path can trust what it stores. Each check
names the field in a :class:`~razz_env.engine.errors.ConfigError`, accepts numpy
integers wherever a Python int is accepted (and stores a plain int, so records and
JSON stay clean), and refuses ``bool`` as a number or a card: ``True`` is not 1 chip.

>>> import numpy as np
>>> as_int("stakes.ante", np.int64(2)), as_card("deck[0]", np.uint8(51))
(2, 51)
>>> as_int("stacks[0]", True)
Traceback (most recent call last):
...
razz_env.engine.errors.ConfigError: stacks[0]: expected an integer, got True
"""

from __future__ import annotations

import dataclasses
import functools
import io
import math
import operator
import types
import typing
import zipfile
import zlib
from collections.abc import Callable, Mapping
from numbers import Real
from typing import Any

from razz_env.engine.cards import DECK_SIZE
from razz_env.engine.errors import ConfigError, shown


def as_int(name: str, value: Any, minimum: int | None = None, maximum: int | None = None,
           what: str = "an integer") -> int:
    """``value`` as a plain int in ``[minimum, maximum]``; numpy integers pass, bools and floats do not."""
    if isinstance(value, bool):
        raise ConfigError(f"{name}: expected {what}, got {value!r}")
    if value.__class__ is not int:
        try:
            value = operator.index(value)
        except TypeError:
            raise ConfigError(f"{name}: expected {what}, got {shown(value)}") from None
    if minimum is not None and value < minimum:
        raise ConfigError(f"{name}: must be at least {minimum}, got {shown(value)}")
    if maximum is not None and value > maximum:
        raise ConfigError(f"{name}: must be at most {maximum}, got {shown(value)}")
    return value


def as_real(name: str, value: Any, minimum: float | None = None, maximum: float | None = None, *,
            above: float | None = None, what: str = "a number") -> float:
    """``value`` as a finite float in ``[minimum, maximum]`` (and more than ``above``); ints and numpy numbers
    pass, bools, NaN, infinities and text do not.

    >>> as_real("bluff", 0.25, 0, 1), as_real("edge", 3, above=0)
    (0.25, 3.0)
    """
    number = float(value) if isinstance(value, Real) and not isinstance(value, bool) else math.nan
    if not math.isfinite(number):
        raise ConfigError(f"{name}: expected {what}, got {shown(value)}")
    if above is not None and not number > above:
        raise ConfigError(f"{name}: must be more than {above:g}, got {number:g}")
    if minimum is not None and number < minimum:
        raise ConfigError(f"{name}: must be at least {minimum:g}, got {number:g}")
    if maximum is not None and number > maximum:
        raise ConfigError(f"{name}: must be at most {maximum:g}, got {number:g}")
    return number


def as_index(value: Any, default: int | None = -1) -> int | None:
    """``operator.index(value)`` (numpy integers included), or ``default`` for anything that is not an integer."""
    try:
        return operator.index(value)
    except TypeError:
        return default


def as_flag(name: str, value: Any) -> bool:
    """``value`` as a bool: ``True``/``False`` or a numpy bool, nothing else (not 0 or 1)."""
    if isinstance(value, bool):
        return value
    if getattr(value, "dtype", None) is not None and value.dtype.kind == "b" and getattr(value, "ndim", 1) == 0:
        return bool(value)
    raise ConfigError(f"{name}: expected true/false, got {shown(value)}")


def limited(default: Any, *, minimum: float | None = None, maximum: float | None = None,
            above: float | None = None, choices: typing.Sequence[Any] | None = None, **metadata: Any) -> Any:
    """A dataclass field whose allowed values are declared with it (a range, or ``choices``): :func:`check_fields`
    checks them and a command line shows them, so each limit is written once.

    >>> @dataclasses.dataclass
    ... class Settings:
    ...     tables: int = limited(8, minimum=1)
    >>> check_fields(Settings(tables=0))
    Traceback (most recent call last):
    ...
    razz_env.engine.errors.ConfigError: tables: must be at least 1, got 0
    """
    limits = {"minimum": minimum, "maximum": maximum, "above": above, "choices": choices}
    return dataclasses.field(default=default, metadata={**{key: value for key, value in limits.items()
                                                           if value is not None}, **metadata})


def limits_text(kind: Any, limits: Mapping[str, Any]) -> str | None:
    """The values a field of type ``kind`` with :func:`limited`'s ``limits`` takes, in words (None: any)."""
    low, high, above = (_number_text(limits.get(key)) for key in ("minimum", "maximum", "above"))
    noun = "an integer" if kind is int else "a number"
    if low is not None and high is not None:
        return f"{noun} from {low} to {high}"
    if above is not None:
        return f"{noun} more than {above}" + ("" if high is None else f", at most {high}")
    if low is not None:
        return f"{noun} of at least {low}"
    return None if high is None else f"{noun} of at most {high}"


def _number_text(number: float | None) -> str | None:
    """A limit as text: an integer whole (4294967295), another number short (0.5)."""
    return None if number is None else str(number) if isinstance(number, int) else f"{number:g}"


_type_hints = functools.cache(typing.get_type_hints)  # read once per class: a config is built many times


def check_fields(settings: Any, name: Callable[[str], str] = str, every_type: bool = False) -> None:
    """Check every int, float and bool field the dataclass ``settings`` is built with (and every ``X | None`` one that
    declares :func:`limited` limits, given an X) against its type and limits, storing the plain value (a numpy
    integer as an int); with ``every_type``, every other field's value against its type hint too
    (:func:`check_type`: a settings file's values, where the owner has no check of its own). The error names the
    field as ``name`` writes it. The one checker of a config's, a command's and a script's settings."""
    hints = _type_hints(type(settings))
    for item in (item for item in dataclasses.fields(settings) if item.init):
        value, limits, label, kind = getattr(settings, item.name), item.metadata, name(item.name), hints[item.name]
        options = typing.get_args(kind)
        if type(None) in options and len(options) == 2 and (limits or not every_type):  # ``X | None``: None passes
            if value is None or not limits:
                continue
            kind = next(arg for arg in options if arg is not type(None))
        choices = limits.get("choices")
        if choices is not None and value not in choices:
            raise ConfigError(f"{label}: expected one of {', '.join(map(str, choices))}, got {shown(value)}")
        what = limits_text(kind, limits)
        if kind is int:
            value = as_int(label, value, limits.get("minimum"), limits.get("maximum"), what or "an integer")
        elif kind is float:
            value = as_real(label, value, limits.get("minimum"), limits.get("maximum"), above=limits.get("above"),
                            what=what or "a number")
        elif kind is bool:
            value = as_flag(label, value)
        else:
            if every_type:
                check_type(label, value, kind)
            continue
        object.__setattr__(settings, item.name, value)


def check_type(label: str, value: Any, hint: Any) -> None:
    """Refuse ``value`` unless it fits the type ``hint`` as a settings file gives it (:func:`fits_type`), naming
    ``label`` and the type in words.

    >>> check_type("net_arch", [64, "wide"], tuple[int, ...])
    Traceback (most recent call last):
    ...
    razz_env.engine.errors.ConfigError: net_arch: expected a list of integers, got [64, 'wide']
    """
    if not fits_type(value, hint):
        raise ConfigError(f"{label}: expected {describe_type(hint)}, got {shown(value)}")


def describe_type(hint: Any) -> str:
    """A type hint in words."""
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false", type(None): "null",
             Any: "anything"}
    if hint in names:
        return names[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(describe_type(arg) for arg in args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = describe_type(args[0])
        return "a list" if args[0] is Any else f"a list of {item.removeprefix('a ').removeprefix('an ')}s"
    if origin in (tuple, list):
        return f"a list [{', '.join(describe_type(arg) for arg in args)}]" if args else "a list"
    if origin in (dict, Mapping) or hint in (dict, Mapping) or dataclasses.is_dataclass(hint):
        return "a mapping"
    if origin is type:
        return "a Python class (cannot be given in YAML)"
    return f"{getattr(hint, '__name__', hint)} (cannot be given in YAML)"


def fits_type(value: Any, hint: Any) -> bool:
    """Whether a settings value fits a type hint (numbers: ``float`` takes integers; ``bool`` is not a number; a
    dataclass takes a mapping of its fields; another class its instances)."""
    if hint is Any:
        return True
    if hint is type(None) or hint is None:
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if dataclasses.is_dataclass(hint):
        return isinstance(value, (hint, Mapping))
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(fits_type(value, arg) for arg in args)
    if origin in (tuple, list):
        if not isinstance(value, (list, tuple)):
            return False
        if not args:
            return True
        if origin is list or (len(args) == 2 and args[1] is Ellipsis):
            return all(fits_type(item, args[0]) for item in value)
        return len(value) == len(args) and all(fits_type(item, arg) for item, arg in zip(value, args))
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        if not isinstance(value, Mapping):
            return False
        key_hint, value_hint = args or (Any, Any)
        return all(fits_type(k, key_hint) and fits_type(v, value_hint) for k, v in value.items())
    return isinstance(hint, type) and isinstance(value, hint)


def as_list(name: str, value: Any, what: str = "a list") -> list[Any]:
    """The items of an ordered collection (list, tuple, range, 1-D array); not a string, mapping or set."""
    if (isinstance(value, (str, bytes, bytearray, Mapping, set, frozenset))
            or not hasattr(value, "__len__") or not hasattr(value, "__iter__")):
        raise ConfigError(f"{name}: expected {what}, got {shown(value)}")
    try:
        return list(value)
    except TypeError:  # a 0-d array has __len__ and __iter__ but neither works
        raise ConfigError(f"{name}: expected {what}, got {shown(value)}") from None


def as_card(name: str, value: Any) -> int:
    """``value`` as a card id 0-51 (``rank * 4 + suit``, see :mod:`razz_env.engine.cards`)."""
    card = -1 if isinstance(value, bool) else as_index(value)
    if not 0 <= card < DECK_SIZE:
        raise ConfigError(f"{name}: {shown(value)} is not a card (an int 0-51, see razz_env.engine.cards)")
    return card


ZIP_STARTS = (b"PK\x03\x04", b"PK\x05\x06")  # a zip archive's first member, or the end record of an empty one


def archive_problem(data: bytes) -> str | None:
    """Why ``data`` is not a sound zip archive (what ``.zip``, ``.pt`` and ``.npz`` model files are), or None:
    for the error of a file that would not load."""
    if not data:
        return "empty (0 bytes)"
    if not data.startswith(ZIP_STARTS):
        return f"not a zip archive (it begins {data[:8]!r})"
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            bad = archive.testzip()
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError) as err:
        return f"a truncated or damaged zip archive ({len(data):,} bytes: {err})"
    return None if bad is None else f"a damaged zip archive (its member {bad!r} fails its CRC check)"
