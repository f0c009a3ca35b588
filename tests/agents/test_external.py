"""Bots in other languages (``cmd:``): the shipped shell and C bots play through the public API, the same seed gives
the same results, a bot sees no hidden card, and every way a bot can break fails its block by name (or the spec
check, before any block) and leaves nothing running."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from razz_env.agents.external import BotError, ExternalAgent, command_line
from razz_env.agents.registry import AgentSpecError, make_agent
from razz_env.engine.cards import card_str, parse_card
from razz_env.engine.errors import ConfigError
from razz_env.engine.record import hand_from_record
from razz_env.evaluate.api import match, tournament
from razz_env.evaluate.workers import BlockError
from razz_env.exploit.api import exploitability

ROOT = Path(__file__).resolve().parents[2]
RAISER = ROOT / "examples" / "bots" / "raiser.sh"
COMPILER = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")

# A POSIX shell bot that answers hello, then does what each test writes in place of ACT for every act.
SHELL_BOT = """#!/bin/sh
while IFS= read -r message; do
    case $message in
        '{"type":"hello"'*) echo '{"ready":true,"name":"testbot"}' ;;
        '{"type":"act"'*) ACT ;;
        '{"type":"hand_end"'*) printf '%s\\n' "$message" >&2 ;;
        '{"type":"bye"'*) echo "testbot: bye" >&2; exit 0 ;;
    esac
done
"""


@pytest.fixture(scope="module")
def station(tmp_path_factory) -> Path:
    """examples/bots/station.c, compiled (skipped, saying so, where no C compiler is installed)."""
    if COMPILER is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH: the C example bot cannot be built here")
    binary = tmp_path_factory.mktemp("bots") / "station"
    subprocess.run([COMPILER, "-O2", "-o", str(binary), str(ROOT / "examples" / "bots" / "station.c")], check=True)
    return binary


def _bot(folder: Path, act: str, name: str = "bot.sh") -> str:
    """The spec of a shell bot in ``folder`` whose answer to every act is the shell command ``act``."""
    path = folder / name
    path.write_text(SHELL_BOT.replace("ACT", act), encoding="utf-8")
    path.chmod(0o755)
    return f"cmd:{path}"


@pytest.mark.timeout(120)
def test_the_shell_bot_plays_a_match_and_the_same_seed_gives_the_same_result():
    first = match(f"cmd:{RAISER}", "calling_station", deals=6, block_deals=3, seed=3, duplicate=False)
    again = match(f"cmd:{RAISER}", "calling_station", deals=6, block_deals=3, seed=3, duplicate=False)
    assert first.hands == 6 and first == again
    assert first.bb_per_100 != 0  # it raised: not a calling station's mirror


@pytest.mark.timeout(180)
def test_the_c_bot_plays_a_tournament_and_a_local_best_response_measures_it(station, tmp_path):
    result = tournament({"agents": [f"cmd:{station}", {"type": f"cmd:{RAISER}", "label": "raiser"},
                                    "calling_station"], "deals": 4, "block_deals": 2, "workers": 1,
                         "output": str(tmp_path / "tour")}, progress=False)
    assert not result.failures and result.labels == [f"cmd:{station}", "raiser", "calling_station"]
    assert result.blocks_done == result.blocks_total == 6
    bound = exploitability(f"cmd:{station}", "lbr", deals=1, output=str(tmp_path / "lbr"))
    assert bound.hands == 2


def test_a_bot_is_sent_only_what_its_seat_may_see(tmp_path, capfd):
    """Every message a bot is sent (it copies each to its stderr), matched to its hand by its seat and down cards:
    no other seat's down card is in it, though the hands are played to showdown; a hand's end shows another seat's
    down cards only when that seat reached the showdown."""
    spec = _bot(tmp_path, """printf '%s\\n' "$message" >&2; legal=${message#*'"legal":['}
            case $legal in *'"check"'*) echo '{"action":"check"}' ;; *'"call"'*) echo '{"action":"call"}' ;;
                           *) echo '{"action":"bring_in"}' ;; esac""")
    folder = tmp_path / "out"
    tournament({"agents": [{"type": spec, "label": "bot"}, "calling_station"], "deals": 3, "duplicate": False,
                "records": True, "workers": 1, "output": str(folder)}, progress=False)
    records = [json.loads(text) for path in (folder / "hands").glob("*.jsonl")
               for text in path.read_text().splitlines()]
    err = capfd.readouterr().err
    sent = [json.loads(text) for text in err.splitlines() if text.startswith('{"type":"act"')]
    assert len(records) == 3 and sent and "testbot: bye" in err  # the block's end says bye
    for message in sent:
        seat = message["seat"]
        hand = [r for r in records if r["cards"][seat][:2] == message["down"][:2]]
        assert len(hand) == 1
        hidden = {card for other, cards in enumerate(hand[0]["cards"]) if other != seat
                  for position, card in enumerate(cards) if position in (0, 1, 6)}
        assert not hidden & set(json.dumps(message).replace('"', " ").split()), message
        assert all(parse_card(card) >= 0 for card in message["down"])
    ends = [json.loads(text) for text in err.splitlines() if text.startswith('{"type":"hand_end"')]
    assert [end["hand"] for end in ends] == list(range(len(records)))
    for end, record in zip(ends, records):
        hand = hand_from_record(record)
        assert end["payoffs"] == record["payoffs"] and sum(end["payoffs"]) == 0
        at_showdown = [s for s in range(2) if not hand.folded[s]] if sum(not f for f in hand.folded) > 1 else []
        assert end["showdown"] == bool(at_showdown)
        for other in range(2):
            down = [card_str(c) for c in hand.down_cards(other)]
            assert end["shown"][other] == (down if other in at_showdown else None), end
            if other != end["seat"] and other not in at_showdown:
                assert not set(down) & set(json.dumps(end).replace('"', " ").split()), end


@pytest.mark.parametrize("act,failure", [
    ("echo 'nonsense'", "answered 'nonsense', which is not JSON"),
    ("""echo '{"action":"bet_big"}'""", "answered action 'bet_big', which is not legal now; legal now:"),
    ("exit 3", "exited (exit status 3) before bye; it must answer every act"),
    ("exec >&-", "closed its stdin or stdout"),
    ("yes | head -c 2200000 | tr -d '\\n'", "sent more than 1048576 bytes without a newline"),
])
@pytest.mark.timeout(60)
def test_a_bot_that_breaks_the_protocol_fails_its_block_by_name(tmp_path, act, failure):
    with pytest.raises(BlockError, match=r"block 0: agent mine failed: exception: BotError: bot 'cmd:.*"
                                         + failure.replace("(", r"\(").replace(")", r"\)")):
        match({"type": _bot(tmp_path, act), "label": "mine"}, "calling_station", deals=1, block_deals=1)


@pytest.mark.timeout(60)
def test_a_bot_that_hangs_fails_on_the_decision_time_limit_and_is_killed(tmp_path):
    marker = f"razz-hang-{os.getpid()}"
    spec = _bot(tmp_path, f"exec sh -c 'sleep 300; :' {marker}")
    with pytest.raises(BlockError, match="agent slow failed: timeout: no decision within 0.5 s"):
        match({"type": spec, "label": "slow"}, "calling_station", deals=1, block_deals=1, decision_timeout=0.5)
    assert not _running(marker)


def test_a_bot_and_what_it_started_end_when_it_is_closed(tmp_path):
    marker = f"razz-child-{os.getpid()}"
    path = tmp_path / "spawner.sh"
    path.write_text(f"#!/bin/sh\n(sleep 300 {marker} &)\nread -r hello\necho '{{\"ready\":true}}'\ncat >/dev/null\n")
    path.chmod(0o755)
    agent = make_agent(f"cmd:{path}")
    assert isinstance(agent, ExternalAgent) and agent.name == str(path)
    agent.close()
    time.sleep(0.2)
    assert agent.process.poll() is not None and not _running(marker)


def _running(marker: str) -> list[str]:
    """The processes whose command line holds ``marker``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            pass
    return found


def test_a_bot_that_does_not_answer_hello_is_refused_before_any_block(tmp_path):
    silent = tmp_path / "silent.sh"
    silent.write_text("#!/bin/sh\nread -r hello\necho '{\"type\":\"hello\",\"protocol\":1}'\ncat >/dev/null\n")
    silent.chmod(0o755)
    with pytest.raises(ConfigError, match=r"agents\[0\] \(cmd:.*silent.sh\): bot .* answered hello with .*expected "
                                          r"\{\"ready\": true\}"):
        match(f"cmd:{silent}", "random", deals=1)
    with pytest.raises(BotError, match="no answer to hello within 0.3 s"):
        ExternalAgent("sh -c 'sleep 5; echo {}'", start_timeout=0.3)


def test_a_bot_without_a_program_is_refused_naming_what_is_wrong(tmp_path):
    plain = tmp_path / "plain.sh"
    plain.write_text("#!/bin/sh\n")
    cases = [(f"cmd:{tmp_path}/missing", "no such file"), (f"cmd:{tmp_path}", "is a directory, not a program"),
             (f"cmd:{plain}", "is not executable (chmod +x it"),
             ("cmd:no-such-bot-here", "no program 'no-such-bot-here' on PATH"),
             ("cmd:", "no command; write cmd: then the program"), ("cmd:'./bot", "cannot be split into words")]
    for spec, message in cases:
        with pytest.raises(AgentSpecError, match=re.escape(message)):
            make_agent(spec)
    with pytest.raises(ConfigError, match=r"agents\[0\] \(cmd:.*missing\): agent 'cmd:.*missing': no such file"):
        match(f"cmd:{tmp_path}/missing", "random", deals=1)
    with pytest.raises(ConfigError, match="always plays in a sandboxed process of its own; drop 'isolated'"):
        match({"type": f"cmd:{RAISER}", "isolated": True}, "random", deals=1)


def test_a_program_is_found_from_the_current_directory_or_on_path(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert command_line("examples/bots/raiser.sh --fast") == [str(RAISER), "--fast"]
    assert command_line("sh -c 'echo a'")[1:] == ["-c", "echo a"]


def test_a_bot_that_states_no_policy_cannot_be_asked_for_it():
    agent = make_agent(f"cmd:{RAISER}")
    assert agent.name == "raiser" and not agent.declaration.states_policy
    with pytest.raises(TypeError, match="states no policy"):
        agent.action_probabilities(None)
    with pytest.raises(TypeError, match="is a process or connection of its own: give it as a spec"):
        __import__("pickle").dumps(agent)
    agent.close()


def test_what_plays_under_a_bot_s_name_is_its_program(tmp_path):
    """A results folder records the SHA-256 of the bot's program, so changing the bot is noticed on resume."""
    from razz_env.evaluate.config import agent_fingerprint

    spec = _bot(tmp_path, "echo '{\"action\":1}'")
    before = agent_fingerprint({"type": spec, "label": "mine"})
    Path(spec[len("cmd:"):]).write_text(SHELL_BOT.replace("ACT", "echo '{\"action\":2}'"), encoding="utf-8")
    assert before != agent_fingerprint(spec) and len(before["source_sha256"]) == 64
    assert agent_fingerprint(f"cmd:{tmp_path}/missing") is None
