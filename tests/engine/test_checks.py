"""Value checks (``razz_env.engine.checks``) and a fuzz of the public constructors: every bad value is named.

``HandConfig.create``, ``Stakes``, ``Rules`` and ``HandState`` get random values of every kind in every
argument; each call must either build a valid object or raise ``ConfigError`` (a ``ValueError``) whose
message starts with the name of the argument at fault — never a bare ``TypeError``, ``AttributeError`` or
``MemoryError`` from inside. ``RAZZ_FUZZ_EXAMPLES=5000`` runs a bigger batch and prints the figures.
"""

from __future__ import annotations

import atexit
import dataclasses
import math
import os
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from razz_env.engine import VARIANTS, ConfigError, HandConfig, HandState, Rules, Stakes
from razz_env.engine.checks import as_card, as_flag, as_index, as_int, as_list, as_real, check_fields, limited
from razz_env.engine.config import max_seats
from razz_env.engine.errors import shown
from razz_env.engine.table import TABLE_KEYS

EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nconstructor fuzz figures:", dict(sorted(FIGURES.items()))))


def test_as_int_takes_python_and_numpy_integers_and_nothing_else():
    assert as_int("x", 5) == 5 and type(as_int("x", np.int16(5))) is int
    for bad in (True, np.bool_(True), 5.0, np.float64(5), "5", None, [5], np.array([5])):
        with pytest.raises(ConfigError, match=r"^x: expected an integer, got "):
            as_int("x", bad)
    with pytest.raises(ConfigError, match="^x: must be at least 2, got 1$"):
        as_int("x", 1, 2)
    with pytest.raises(ConfigError, match="^x: must be at most 8, got 9$"):
        as_int("x", np.int64(9), 2, 8)


def test_as_real_takes_finite_numbers_in_range_and_nothing_else():
    assert as_real("x", 2) == 2.0 and as_real("x", np.float32(0.5), 0, 1) == 0.5 and type(as_real("x", 1)) is float
    for bad in (True, np.bool_(False), "1", None, [1.0], np.array([1.0]), math.nan, math.inf, -math.inf, 1j):
        with pytest.raises(ConfigError, match=r"^x: expected a weight, got "):
            as_real("x", bad, what="a weight")
    with pytest.raises(ConfigError, match="^x: must be more than 0, got 0$"):
        as_real("x", 0, above=0)
    with pytest.raises(ConfigError, match=r"^x: must be at least -1, got -1\.5$"):
        as_real("x", -1.5, -1, 1)
    with pytest.raises(ConfigError, match="^x: must be at most 1, got 2$"):
        as_real("x", np.int64(2), -1, 1)


def test_as_card_as_flag_as_list_and_as_index():
    assert as_card("c", np.uint8(51)) == 51
    for bad in (52, -1, True, "As", 1.0, None):
        with pytest.raises(ConfigError, match=r"^c: .* is not a card \(an int 0-51"):
            as_card("c", bad)
    assert as_flag("f", np.bool_(False)) is False and as_flag("f", True) is True
    for bad in (0, 1, "yes", None, np.array([True])):
        with pytest.raises(ConfigError, match="^f: expected true/false"):
            as_flag("f", bad)
    assert as_list("l", range(3)) == [0, 1, 2] and as_list("l", np.arange(2)) == [0, 1]
    for bad in ("abc", b"ab", {"a": 1}, {1, 2}, 3, iter([1]), np.int64(3), np.array(3)):
        with pytest.raises(ConfigError, match="^l: expected a list"):
            as_list("l", bad)
    assert as_index(np.int8(3)) == 3 and as_index("3") == -1 and as_index(2.0, None) is None


def test_shown_keeps_messages_short_whatever_the_value():
    assert shown("x" * 500).endswith("...") and len(shown("x" * 500)) == 60
    assert shown(10**5000) == "an integer of about 5000 digits"
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert shown(deep).startswith("<list") or len(shown(deep)) <= 60


def test_a_huge_ante_or_stack_is_just_a_number():
    config = HandConfig.create(stacks=[10**40, 10**40], ante=10**30, bring_in=10**31, small_bet=10**32,
                               big_bet=10**33)
    hand = HandState(config, seed=1)
    while not hand.is_over:
        hand.act(hand.legal_actions()[-1])
    assert sum(hand.payoffs) == 0


# ---------------------------------------------------------------------------- fuzz of the public constructors

anything = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 60), st.integers(-(10**30), 10**30), st.floats(allow_nan=True),
    st.text(max_size=6), st.binary(max_size=4), st.sampled_from(["razz", "stud8", "As", "7", "", "random"]),
    st.lists(st.integers(-3, 60), max_size=9), st.lists(st.booleans(), max_size=3),
    st.tuples(st.integers(0, 400), st.integers(0, 400)),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.sampled_from([np.int64(3), np.uint8(7), np.bool_(True), np.float32(2.0), np.array([100, 100]), np.array(5),
                     object(), range(3), {1, 2}, b"razz", 10**9]),
)


def _check(call, names: tuple[str, ...], category: str) -> None:
    """Run ``call``: it builds something or raises ConfigError starting with one of ``names``."""
    FIGURES[f"{category}: inputs"] += 1
    try:
        call()
    except ConfigError as err:
        message = str(err)
        assert message.startswith(names), message
        assert "\n" not in message and len(message) < 400, message
        FIGURES[f"{category}: clean error"] += 1
    else:
        FIGURES[f"{category}: valid result"] += 1


CREATE_ARGS = FIELD_NAMES = TABLE_KEYS


@FUZZ
@given(st.dictionaries(st.sampled_from(CREATE_ARGS), anything, max_size=4))
def test_hand_config_create_names_every_bad_argument(kwargs: dict) -> None:
    _check(lambda: HandConfig.create(**kwargs), FIELD_NAMES, "HandConfig.create")


@FUZZ
@given(anything, anything, anything, anything, anything)
def test_stakes_names_every_bad_argument(ante, bring_in, small_bet, big_bet, street_bets) -> None:
    _check(lambda: Stakes(ante, bring_in, small_bet, big_bet, street_bets), ("stakes",), "Stakes")


@FUZZ
@given(anything, anything, anything)
def test_rules_names_every_bad_argument(raise_cap, heads_up_uncapped, open_pair_big_bet) -> None:
    _check(lambda: Rules(raise_cap, heads_up_uncapped, open_pair_big_bet), ("rules",), "Rules")


@FUZZ
@given(st.sampled_from([2, 3, 8]), st.dictionaries(st.sampled_from(["seed", "rng", "deck", "cards", "community"]),
                                                  anything, max_size=3), st.integers(0, 2**32))
def test_hand_state_names_every_bad_argument(seats: int, kwargs: dict, salt: int) -> None:
    if "deck" in kwargs and random.Random(salt).random() < 0.5:
        kwargs["deck"] = random.Random(salt).sample(range(52), 52)
    if "cards" in kwargs and random.Random(salt).random() < 0.5:
        drawn = random.Random(salt).sample(range(52), 6 * seats)
        kwargs["cards"] = [drawn[6 * s:6 * s + random.Random(salt + s).randint(2, 6)] for s in range(seats)]
    config = HandConfig.create(num_seats=seats)

    def build() -> None:
        hand = HandState(config, **kwargs)
        while not hand.is_over:
            try:
                hand.act(hand.legal_actions()[0])
            except ConfigError as err:  # a partial deal: the action that needs a missing card is refused
                assert "refused, the hand is unchanged" in str(err)
                break

    _check(build, ("seed", "rng", "deck", "cards", "community", "config"), "HandState")


@FUZZ
@given(st.sampled_from(["minirazz", "minirazz_tiny", "minirazz_small", "minirazz_large"]),
       st.dictionaries(st.sampled_from(["seed", "deck", "cards", "community"]), anything, max_size=3),
       st.integers(0, 2**32))
def test_minirazz_hand_state_names_every_bad_argument(variant: str, kwargs: dict, salt: int) -> None:
    """As above on the short decks: cards drawn from the variant's deck or from all 52 (some outside it)."""
    rng = random.Random(salt)
    config = HandConfig.create(variant, num_seats=rng.randint(2, max_seats(VARIANTS[variant])))
    pool = list(VARIANTS[variant].deck) if rng.random() < 0.7 else list(range(52))
    if "deck" in kwargs and rng.random() < 0.7:
        kwargs["deck"] = rng.sample(pool, len(pool))
    if "cards" in kwargs and rng.random() < 0.7:
        drawn = rng.sample(pool, len(pool))
        per = len(pool) // config.num_seats
        kwargs["cards"] = [drawn[per * s:per * s + rng.randint(1, per)] for s in range(config.num_seats)]
    if "community" in kwargs and rng.random() < 0.5:
        kwargs["community"] = rng.choice(pool)

    def build() -> None:
        hand = HandState(config, **kwargs)
        while not hand.is_over:
            try:
                hand.act(hand.legal_actions()[-1])
            except ConfigError as err:
                assert "refused, the hand is unchanged" in str(err)
                break
        assert set(c for held in hand.cards for c in held) <= set(VARIANTS[variant].deck)

    _check(build, ("seed", "deck", "cards", "community", "config"), "HandState (MiniRazz)")


def test_a_zip_whose_compressed_data_is_damaged_is_named_not_raised():
    """A flipped bit in a member's deflate stream makes ``zipfile`` raise ``zlib.error`` (found by the policy-file
    fuzz test): it is a damaged archive like any other."""
    import io
    import zipfile

    from razz_env.engine.checks import archive_problem

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.npy", b"x" * 1000)
    data = bytearray(out.getvalue())
    data[30 + len("a.npy")] ^= 2  # the first byte of the member's deflate stream: its block type
    assert archive_problem(bytes(data)).startswith("a truncated or damaged zip archive (")


@dataclasses.dataclass(frozen=True)
class _Limited:
    tables: int = limited(8, minimum=1)
    share: float = limited(0.5, minimum=0, maximum=1)
    rate: float = limited(1e-3, above=0)
    kind: str = limited("a", choices=("a", "b"))
    fast: bool = True
    names: tuple[str, ...] = ()
    cap: int | None = limited(None, minimum=0)
    owner_checks: int | None = None


@pytest.mark.parametrize(("options", "message"), [
    ({"tables": 0}, "tables: must be at least 1, got 0"),
    ({"tables": True}, "tables: expected an integer of at least 1, got True"),
    ({"tables": 2.0}, "tables: expected an integer of at least 1, got 2.0"),
    ({"share": 1.5}, "share: must be at most 1, got 1.5"),
    ({"share": math.nan}, "share: expected a number from 0 to 1, got nan"),
    ({"rate": 0}, "rate: must be more than 0, got 0"),
    ({"rate": math.inf}, "rate: expected a number more than 0, got inf"),
    ({"kind": "c"}, "kind: expected one of a, b, got 'c'"),
    ({"fast": 1}, "fast: expected true/false, got 1"),
    ({"cap": -1}, "cap: must be at least 0, got -1"),
    ({"cap": 1.5}, "cap: expected an integer of at least 0, got 1.5"),
])
def test_check_fields_refuses_what_a_field_does_not_allow_by_name(options, message):
    with pytest.raises(ConfigError) as caught:
        check_fields(_Limited(**options), lambda name: "--" + name)
    assert str(caught.value) == "--" + message


def test_check_fields_stores_plain_values_and_leaves_other_types_alone():
    settings = _Limited(tables=np.int64(3), share=np.float32(0.25), rate=1, fast=np.bool_(False), names=("x",),
                        cap=np.int64(2), owner_checks=2.5)
    check_fields(settings)
    assert (settings.tables, settings.share, settings.rate, settings.fast, settings.cap) == (3, 0.25, 1.0, False, 2)
    assert type(settings.tables) is int and type(settings.share) is float and type(settings.fast) is bool
    assert settings.names == ("x",) and settings.owner_checks == 2.5  # an optional field without limits: its owner's
    check_fields(_Limited(cap=None))


def test_every_type_checks_each_field_against_its_hint_in_one_pass():
    check_fields(_Limited(names=("x", "y")), every_type=True)
    with pytest.raises(ConfigError, match=r"names: expected a list of strings, got \('x', 2\)"):
        check_fields(_Limited(names=("x", 2)), every_type=True)
    with pytest.raises(ConfigError, match="owner_checks: expected an integer or null, got 2.5"):
        check_fields(_Limited(owner_checks=2.5), every_type=True)
    with pytest.raises(ConfigError, match="tables: expected an integer of at least 1, got 'many'"):
        check_fields(_Limited(tables="many"), every_type=True)
