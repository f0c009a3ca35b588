"""The decision time limit is kept from the parent process: agents that defeat an in-process alarm are still
stopped, within a second or so of their limit, with one line naming them, whatever the number of workers.

The agents live in this module: a worker imports it by name before playing, as any module registering agents.
"""

from __future__ import annotations

import re
import signal
import time

import pytest

from razz_env.agents.registry import register
from razz_env.encoding.interface import Declaration
from razz_env.evaluate.api import match
from razz_env.evaluate.workers import BlockError

LIMIT = 0.5


class _Stalls:
    declaration = Declaration()

    def __init__(self, seed: int | None = None) -> None:
        pass

    def reset(self, seat, num_seats, variant):
        pass


@register("test_catches_timeout", replace=True)
class CatchesTimeout(_Stalls):
    """Catches whatever the alarm raises and keeps thinking."""

    name = "catches_timeout"

    def act(self, observation):
        while True:
            try:
                while True:
                    pass
            except BaseException:  # noqa: BLE001 - the point: swallow the harness's timeout
                continue


@register("test_ignores_alarm", replace=True)
class IgnoresAlarm(_Stalls):
    """Ignores SIGALRM, then busy-loops."""

    name = "ignores_alarm"

    def act(self, observation):
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            pass


@register("test_sleeps_in_c", replace=True)
class SleepsInC(_Stalls):
    """Blocks SIGALRM, then sleeps in one C call."""

    name = "sleeps_in_c"

    def act(self, observation):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(100)


@register("test_sums_in_c", replace=True)
class SumsInC(_Stalls):
    """One long C loop that never returns to the interpreter to run a signal handler."""

    name = "sums_in_c"

    def act(self, observation):
        return sum(range(10**13))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("agent", ["test_catches_timeout", "test_ignores_alarm", "test_sleeps_in_c",
                                   "test_sums_in_c"])
def test_an_agent_that_defeats_the_alarm_is_failed_soon_after_its_limit(agent, workers):
    started = time.monotonic()
    with pytest.raises(BlockError) as caught:
        match(agent, "calling_station", deals=1, block_deals=1, workers=workers, decision_timeout=LIMIT)
    message = str(caught.value)
    assert time.monotonic() - started < 20
    assert "\n" not in message
    assert f"agent {agent} failed: timeout: no decision within {LIMIT:g} s; its worker process was killed" in message


@pytest.mark.timeout(60)
def test_a_batched_call_has_the_budget_its_message_states():
    started = time.monotonic()
    with pytest.raises(BlockError) as caught:
        match("test_sleeps_in_c", "calling_station", deals=4, block_deals=4, workers=1, decision_timeout=LIMIT)
    found = re.search(r"no answer to (\d+) decisions asked at once within ([\d.]+) s \(0.5 s per decision\)",
                      str(caught.value))
    assert found is not None, str(caught.value)
    decisions, budget = int(found[1]), float(found[2])
    assert budget == decisions * LIMIT
    assert budget <= time.monotonic() - started < budget + 15
