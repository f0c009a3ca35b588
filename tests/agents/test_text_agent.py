"""TextAgent with scripted callables (no network, no model): one retry with a correction, a counted fallback, a
callable's error as the agent's failure, and matches through the public API."""

from __future__ import annotations

import pickle
import re

import pytest

from razz_env.agents.text_agent import TextAgent, TextStats
from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, FOLD
from razz_env.encoding.interface import hand_over_hook, observe
from razz_env.encoding.text import render
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.evaluate import match
from razz_env.evaluate.workers import BlockError


class Script:
    """A callable that answers from a list, in turn, and keeps every prompt it was given."""

    def __init__(self, *replies: str) -> None:
        self.replies, self.prompts = list(replies), []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.replies.pop(0)


def always_call(prompt: str) -> str:
    return "call"


def _facing_completion():
    hand = HandState(HandConfig.create("razz", num_seats=2), seed=1)
    hand.act("bring_in")
    hand.act("complete")
    return observe(hand, hand.actor)


def _free_check():
    hand = HandState(HandConfig.create("razz", num_seats=2), seed=1)
    hand.act("bring_in")
    hand.act("call")
    return observe(hand, hand.actor)


def test_a_readable_reply_is_played_with_no_retry():
    script = Script("I'll call.")
    agent = TextAgent(script)
    assert agent.act(_facing_completion()) == CHECK_CALL
    assert script.prompts == [render(_facing_completion())]
    assert agent.stats == TextStats(decisions=1, retries=0, fallbacks=0)


def test_an_unreadable_reply_gets_one_retry_with_a_correction():
    script = Script("Hmm, tough spot.", "raise")
    agent = TextAgent(script)
    assert agent.act(_facing_completion()) == BET_RAISE
    first, second = script.prompts
    assert second == (f"{first}\n\nYour reply 'Hmm, tough spot.' was not understood: it names no action. Answer "
                      f"with exactly one word from: fold, call, raise.")
    assert agent.stats == TextStats(decisions=1, retries=1, fallbacks=0)


@pytest.mark.parametrize("observation,fallback", [(_facing_completion(), FOLD), (_free_check(), CHECK_CALL),
                                                  (observe(HandState(HandConfig.create("razz"), seed=1), 0),
                                                   BRING_IN)])
def test_two_unreadable_replies_fall_back_to_check_else_fold(observation, fallback):
    """Facing a bet it folds, with nothing to call it checks, and at the forced first decision it brings in."""
    script = Script("fold or call", "no idea")
    agent = TextAgent(script, instruction=False)
    assert agent.act(observation) == fallback
    assert agent.stats == TextStats(decisions=1, retries=1, fallbacks=1)
    assert not script.prompts[0].endswith(".")
    assert "was not understood: it names more than one action ('fold', 'call')" in script.prompts[1]


def test_the_callables_failure_is_the_agents():
    def broken(prompt: str) -> str:
        raise ConnectionError("the model is down")

    with pytest.raises(ConnectionError, match="the model is down"):
        TextAgent(broken).act(_facing_completion())
    with pytest.raises(TypeError, match="its callable returned NoneType, not the reply text"):
        TextAgent(lambda prompt: None, name="quiet").act(_facing_completion())
    with pytest.raises(TypeError, match="complete must be a callable"):
        TextAgent("call")
    with pytest.raises(BlockError, match="agent text failed: exception: ConnectionError: the model is down"):
        match(TextAgent(broken), "calling_station", deals=2)


def test_a_match_against_the_calling_station():
    """Through the public API, twice: the same figures (the agent draws nothing at random), and every decision
    counted. Answering call, it checks and calls, and at each bring-in it retries and falls back to the bring-in.
    A lambda does not pickle, so the agent plays in this process, where its stats are read."""
    results = []
    for _ in range(2):
        agent = TextAgent(lambda prompt: "call", name="llm")
        results.append((match(agent, "calling_station", deals=10, seed=3), agent.stats))
    (first, stats), (second, again) = results
    assert first.agents == ("llm", "calling_station") and first.hands == 20
    assert first.bb_per_100 == second.bb_per_100 and stats == again
    assert stats.decisions > 20 and stats.retries == stats.fallbacks > 0


def test_with_memory_its_prompts_begin_with_how_its_last_hands_ended():
    prompts: dict[str, list[str]] = {"told": [], "plain": []}  # a closure: the match plays it in this process
    told = TextAgent(lambda prompt: prompts["told"].append(prompt) or "call", memory=2)
    plain = TextAgent(lambda prompt: prompts["plain"].append(prompt) or "call")
    for agent in (told, plain):
        match(agent, "calling_station", deals=4, seed=3, block_deals=1)  # a block's hands end before the next's
    assert prompts["plain"] and not any("How your last hands ended" in prompt for prompt in prompts["plain"])
    assert hand_over_hook(plain) is None and hand_over_hook(told) is not None  # no memory: nothing to tell it
    heads = [prompt.split("\n\n")[0].splitlines()[1:] for prompt in prompts["told"]
             if prompt.startswith("How your last hands ended (the latest last):\n")]
    assert heads and max(map(len, heads)) == 2 and len(told.recent) == 2  # the last two hands, no more
    assert not prompts["told"][0].startswith("How")  # nothing has ended before the first decision
    pattern = r"Hand \d+: you \(seat [01]\) (won \d+ chips?|lost \d+ chips?|broke even); (no showdown|showdown: .+)\."
    assert all(re.fullmatch(pattern, line) for lines in heads for line in lines)
    with pytest.raises(ConfigError, match="TextAgent: memory: must be at least 0, got -1"):
        TextAgent(always_call, memory=-1)
    assert len(pickle.loads(pickle.dumps(TextAgent(always_call, memory=1))).recent) == 0  # the hook pickles with it


def test_it_pickles_only_if_its_callable_does():
    agent = TextAgent(always_call, name="station")
    copy = pickle.loads(pickle.dumps(agent))
    assert copy.act(_facing_completion()) == CHECK_CALL and copy.name == "station"
    assert match(agent, "calling_station", deals=4, workers=2, block_deals=2).hands == 8
    with pytest.raises(ConfigError, match=r"agents\[0\] \(text\): an agent instance plays in worker processes only "
                                          r"if it pickles"):
        match(TextAgent(lambda prompt: "call"), "calling_station", deals=4, workers=2)
