"""Settings for the whole suite, and tiny stand-in agents for the environments' and batch tests."""

from __future__ import annotations

import random
import signal
from collections.abc import Callable

import pytest

from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, FOLD
from razz_env.encoding.interface import Declaration, Observation


def pytest_configure(config) -> None:
    """Ctrl-C back to Python's handler when the suite was started with SIGINT ignored (a background job: ``nohup``,
    ``&``): the CLI processes the tests interrupt inherit the disposition, and an ignored SIGINT never reaches them."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


class RandomStub:
    """Uniform over the legal ids, seeded."""

    name = "random-stub"
    declaration = Declaration()

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.seats: list[int] = []

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        self.seats.append(seat)

    def act(self, observation: Observation) -> int:
        return self.rng.choice(observation.action_mask.nonzero()[0].tolist())


class PreferenceStub:
    """Plays the first legal id of a fixed preference list (e.g. a folder or a calling station)."""
    declaration = Declaration()

    def __init__(self, name: str, preferences: tuple[int, ...]) -> None:
        self.name = name
        self.preferences = preferences

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Stateless."""

    def act(self, observation: Observation) -> int:
        mask = observation.action_mask
        return next(i for i in self.preferences if mask[i])


@pytest.fixture
def random_stub() -> Callable[..., RandomStub]:
    return RandomStub


@pytest.fixture
def folder() -> PreferenceStub:
    """Folds whenever it may, else brings in or checks."""
    return PreferenceStub("folder", (FOLD, BRING_IN, CHECK_CALL))


@pytest.fixture
def calling_station() -> PreferenceStub:
    """Checks or calls, never raises or folds."""
    return PreferenceStub("station", (CHECK_CALL, BRING_IN))


@pytest.fixture
def raiser() -> PreferenceStub:
    """Bets and raises whenever it may."""
    return PreferenceStub("raiser", (BET_RAISE, CHECK_CALL, BRING_IN))
