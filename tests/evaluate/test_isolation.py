"""Isolated play: an agent marked ``isolated: true`` plays from a process that never holds a hand, so walking the
garbage collector's objects finds no hidden card; its results are those of the same agent in process.

The agent lives in this module: the isolated process imports it by name, as any module registering agents.
"""

from __future__ import annotations

import gc

import pytest

from razz_env.agents.registry import register
from razz_env.encoding.interface import Declaration
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.evaluate.api import match
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.workers import BlockError


@register("test_peeker", replace=True)
class Peeker:
    """Calls or checks; with ``peek``, first looks through every object of its process for a hand."""

    name = "peeker"
    declaration = Declaration()

    def __init__(self, peek: bool = True, seed: int | None = None) -> None:
        self.peek = peek

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        if self.peek and any(isinstance(o, HandState) for o in gc.get_objects()):
            raise RuntimeError("found a HandState")
        return int(observation.action_mask.nonzero()[0][-1])


@register("test_hand_counter", replace=True)
class HandCounter(Peeker):
    """Calls or checks, and fails when told of its second hand's end: a sign the hook reached its process."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(peek=False)

    def hand_over(self, outcome):
        if outcome.hand == 1:
            raise RuntimeError(f"told of hand {outcome.hand} at seat {outcome.seat}")


@register("test_isolated_failer", replace=True)
class Failer(Peeker):
    """Raises a ``ValueError`` at its first decision: its process names the error once, not wrapped."""

    def act(self, observation):
        raise ValueError("told to fail")


@pytest.mark.timeout(120)
def test_an_isolated_agent_with_the_hook_is_told_how_its_hands_ended():
    with pytest.raises(BlockError, match=r"agent counter failed: exception: hand_over: RuntimeError: told of hand "
                                         r"1 at seat 1$"):
        match({"type": "test_hand_counter", "isolated": True, "label": "counter"}, "random", deals=2, block_deals=2)
    assert match({"type": "test_peeker", "peek": False, "isolated": True}, "random", deals=2).hands == 4


@pytest.mark.timeout(120)
@pytest.mark.parametrize("workers", [1, 2])
def test_an_isolated_agent_finds_no_hand_and_plays_as_it_would_in_process(workers):
    with pytest.raises(BlockError, match="agent test_peeker failed: exception: RuntimeError: found a HandState"):
        match("test_peeker", "random", deals=4, block_deals=2, workers=workers)
    with pytest.raises(BlockError, match="agent raiser failed: exception: ValueError: told to fail$"):
        match({"type": "test_isolated_failer", "isolated": True, "label": "raiser"}, "random", deals=2, block_deals=2)
    isolated = match({"type": "test_peeker", "isolated": True, "label": "peeker"}, "random", deals=4, block_deals=2,
                     workers=workers)
    honest = match({"type": "test_peeker", "peek": False, "label": "peeker"}, "random", deals=4, block_deals=2,
                   workers=workers)
    assert isolated.hands == 8 and isolated == honest


@pytest.mark.timeout(60)
def test_an_isolated_agent_that_overruns_is_stopped_and_named():
    with pytest.raises(BlockError, match=r"agent slow failed: timeout: no decision within 0.5 s"):
        match({"type": "test_workers_watch_sleeper", "isolated": True, "label": "slow"}, "random", deals=1,
              block_deals=1, decision_timeout=0.5)


def test_isolated_is_a_flag_and_not_part_of_the_label():
    config = TournamentConfig(agents=({"type": "random", "isolated": True}, "calling_station"))
    assert config.labels[0] == "random"
    with pytest.raises(ConfigError, match=r"agents\[0\]\.isolated"):
        TournamentConfig(agents=({"type": "random", "isolated": "yes"}, "calling_station"))


@register("test_workers_watch_sleeper", replace=True)
class Sleeper(Peeker):
    """Sleeps through its decisions."""

    def act(self, observation):
        import time

        time.sleep(100)
