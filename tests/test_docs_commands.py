"""Every shell command of README.md and docs/ (every ```bash block, docs/zoo and docs/studies too) runs.

Each page gets a scratch folder of its own that links the repository's folders (``configs``, ``docs``,
``tests``, ``examples``, ...), so relative paths work as in a checkout and what a command writes stays out of it;
``/tmp/`` in a command is the page's ``tmp/`` there. A page's commands run in page order, in that one folder
(a later command may read what an earlier one wrote), with the project's ``razz``, ``python`` and ``pytest``
first on PATH. A command fails its test when it exits non-zero, and the failure shows its stderr.

The page says, in HTML comments directly above a block (visible in its source, not when rendered), what the
tests run differently; a comment names the commands it is about by the start of their text in backquotes,
or without one is about every command of the block:

    <!-- test `razz exploit --agent ppo_razz`: --deals 4 -->
        in the tests these flags replace the command's own values of them (or are added): a scaled-down run
    <!-- no-test `razz play`: reads moves from the terminal -->
    <!-- no-test: installs packages -->
        the commands are not run; the reason is the test's skip reason
    <!-- slow `razz exploit --agent minirazz_cfr`: about 45 s even scaled down -->
        the commands run with the long tests (``pytest -m slow``), not in the default suite

A selector in backquotes picks the commands equal to it, else those that start with it and a space.

An annotation that selects no command of its block is an error, as is a skip without a reason.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from docs_pages import PAGES, ROOT, blocks

from razz_env.cli import find_command

LINKED = ("configs", "docs", "tests", "benchmarks", "examples", "studies", "scripts", "razz_env")
SHELLS = ("bash", "sh", "shell")
TIMEOUT = 300
FLAG = re.compile(r"(--[\w-]+)((?:\s+(?!-)\S+)*)")
TMP = re.compile(r"(?<![\w/.$])/tmp/")


@dataclass
class Command:
    """One documented command: what the page shows and what the tests run."""

    page: Path
    line: int
    shown: str
    run: str
    skip: str | None = None
    slow: str | None = None

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line} {self.shown[:60]}"


def _code(text: str) -> tuple[str, bool]:
    """``text`` without its trailing shell comment (a ``#`` that starts a word outside quotes), and whether a
    quote is still open at its end (the command goes on on the next line)."""
    quote, escaped = None, False
    for i, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote is not None:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or text[i - 1].isspace()):
            return text[:i].rstrip(), False
    return text.rstrip(), quote is not None


def split_commands(text: str, first_line: int) -> list[tuple[int, str]]:
    """The commands of a shell block with the line each starts on: ``\\`` continuations joined, a quote left
    open continued on the next line, comments and blank lines dropped."""
    commands, pending, start = [], "", 0
    for offset, line in enumerate(text.splitlines()):
        if not pending:
            start = first_line + offset
            if not line.strip() or line.lstrip().startswith("#"):
                continue
        code, open_quote = _code(pending + (line.lstrip() if pending.endswith(" ") else line))
        if open_quote:
            pending += line + "\n"
        elif code.endswith("\\"):
            pending = code[:-1].rstrip() + " "
        else:
            commands.append((start, code.strip()))
            pending = ""
    if pending:
        commands.append((start, pending.strip()))
    return commands


def scaled(command: str, flags: str) -> str:
    """``command`` with each ``--flag [values]`` of ``flags`` replacing that flag and its values, or added."""
    for flag, values in FLAG.findall(flags):
        given = re.compile(rf"(?<!\S){re.escape(flag)}(?:=\S+|(?:\s+(?!-)(?:\"[^\"]*\"|'[^']*'|\S+))*)")
        found = given.search(command)
        if found:
            command = f"{command[:found.start()]}{flag}{values}{command[found.end():]}"
        else:
            command = f"{command} {flag}{values}"
    return command


def commands(page: Path, text: str | None = None) -> tuple[list[Command], list[str]]:
    """The shell commands of ``page`` as the tests run them, and the problems of its annotations."""
    found, problems = [], []
    for block in blocks(page, text):
        if block.language not in SHELLS:
            continue
        listed = split_commands(block.text, block.line)
        cases = [Command(page, line, code, code) for line, code in listed]
        for kind, prefix, value in block.notes:
            where = f"{page.relative_to(ROOT)}:{block.line - 1}: <!-- {kind}{f' `{prefix}`' if prefix else ''} -->"
            chosen = [case for case in cases if prefix is None or case.shown == prefix]
            chosen = chosen or [case for case in cases if prefix is not None and case.shown.startswith(prefix + " ")]
            if not chosen:
                problems.append(f"{where} selects no command of its block")
            if not value:
                problems.append(f"{where} gives no {'flags' if kind == 'test' else 'reason'}")
            for case in chosen:
                if kind == "no-test":
                    case.skip = value
                elif kind == "slow":
                    case.slow = value
                else:
                    case.run = scaled(case.run, value)
        found += cases
    return found, problems


def _all() -> tuple[list[Command], list[str]]:
    found, problems = [], []
    for page in PAGES:
        more, wrong = commands(page)
        found += more
        problems += wrong
    return found, problems


COMMANDS, PROBLEMS = _all()


class PageFolder:
    """A page's scratch folder and the results of the page's commands run there so far, in page order."""

    def __init__(self, folder: Path, page_commands: list[Command]) -> None:
        self.folder = folder
        for name in LINKED:
            (folder / name).symlink_to(ROOT / name)
        (folder / ".venv").symlink_to(sys.prefix)  # the environment running the tests, wherever it is
        (folder / "tmp").mkdir()
        self.commands = [command for command in page_commands if command.skip is None]
        self.results: dict[str, subprocess.CompletedProcess] = {}

    def result(self, command: Command) -> subprocess.CompletedProcess:
        """What ``command`` did, once the commands above it have run (each its own test reports; a slow one only
        before a slow one)."""
        for earlier in self.commands:
            if earlier.slow is not None and command.slow is None:
                continue
            if earlier.id not in self.results:
                self.results[earlier.id] = self._run(earlier.run)
            if earlier is command:
                break
        return self.results[command.id]

    def _run(self, line: str) -> subprocess.CompletedProcess:
        """Run ``line`` here with bash, the project's programs first on PATH, no terminal input."""
        bin_folder = str(Path(sys.executable).parent)
        env = {**os.environ, "PATH": os.pathsep.join([bin_folder, os.environ.get("PATH", "")]), "MPLBACKEND": "Agg"}
        try:
            return subprocess.run(["bash", "-c", TMP.sub(f"{self.folder}/tmp/", line)], cwd=self.folder, env=env,
                                  capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as err:
            return subprocess.CompletedProcess(err.cmd, -1, "", f"timed out after {TIMEOUT} s")


@pytest.fixture(scope="module")
def folders() -> dict[Path, PageFolder]:
    """One scratch folder per page, made when the page's first command runs."""
    return {}


def test_the_pages_have_shell_commands() -> None:
    """The extraction finds the commands (it cannot silently find none), and most of them run."""
    assert len(COMMANDS) >= 60
    assert sum(command.skip is None for command in COMMANDS) >= 45


def test_the_annotations_select_commands_and_say_why() -> None:
    assert PROBLEMS == []


def test_every_fenced_block_names_its_language() -> None:
    """A command cannot hide from these tests in a block without a language (output is ```text)."""
    unnamed = [f"{block.page.relative_to(ROOT)}:{block.line - 1}" for page in PAGES for block in blocks(page)
               if not block.language]
    assert unnamed == []


def _marks(command: Command) -> list[pytest.MarkDecorator]:
    """Skip or slow as the page says; a page's commands in one test process (``--dist loadgroup``), as they run
    in page order in one folder."""
    if command.skip is not None:
        return [pytest.mark.skip(reason=command.skip)]
    page = pytest.mark.xdist_group(str(command.page.relative_to(ROOT)))
    return [page, pytest.mark.slow] if command.slow is not None else [page]


@pytest.mark.parametrize("command", [pytest.param(c, id=c.id, marks=_marks(c)) for c in COMMANDS])
def test_the_documented_command_runs(command: Command, folders: dict[Path, PageFolder],
                                     tmp_path_factory: pytest.TempPathFactory) -> None:
    """The command exits 0 after the page's commands above it ran in the page's folder."""
    if command.page not in folders:
        folders[command.page] = PageFolder(tmp_path_factory.mktemp(command.page.stem),
                                           [c for c in COMMANDS if c.page == command.page])
    done = folders[command.page].result(command)
    assert done.returncode == 0, (f"`{command.run}` exited {done.returncode}:\n"
                                  f"{done.stderr[-3000:] or done.stdout[-3000:]}")


LINK = re.compile(r"\[[^\]]*\]\(([^)\s#]+)(?:#[^)]*)?\)")
FOLDERS = "tests|razz_env|configs|benchmarks|examples|studies|scripts|docs"
REPO_PATH = re.compile(rf"(?<![\w/.<-])((?:{FOLDERS})/[\w./*-]*[\w*])")
GYM_ID = re.compile(r"razz_env/\w+-v\d+")
ELSEWHERE = {"docs/_static/2023-WSOP-Tournament-Rules.pdf"}  # rules.md: a file of PokerKit's repository


def test_the_repository_paths_the_pages_name_exist() -> None:
    """A file or folder of the repository a page names (``tests/envs/``, ``razz_env/exploit/psro.py``,
    ``configs/...yaml``, a relative link) exists, so a move cannot leave a page pointing nowhere."""
    missing = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in LINK.findall(text):
            if "://" not in target and not target.startswith("mailto:") and not (page.parent / target).exists():
                missing.append(f"{page.relative_to(ROOT)}: link {target}")
        for path in REPO_PATH.findall(GYM_ID.sub("", LINK.sub("", text))):
            if path not in ELSEWHERE and not (any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()):
                missing.append(f"{page.relative_to(ROOT)}: {path}")
    assert missing == []


INLINE = re.compile(r"`((?:razz|python3?) (?!\S*: )[^`]+)`")  # not a quoted line of output ("razz train: ...")


def _fenced_removed(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)


def _razz_flags(words: list[str]) -> set[str] | None:
    """The flags of the ``razz`` command ``words`` name (its words after ``razz``); None when they name none."""
    try:
        prog, command, _ = find_command(words)
    except SystemExit:
        return None
    return {option for action in command.parser(prog)._actions for option in action.option_strings}


def _inline_problem(command: str) -> str | None:
    """Why the command a page quotes in its prose would not run: an unknown ``razz`` subcommand or flag, a
    missing script, or a flag the script does not define; None when none is seen."""
    words = command.split()
    flags = [word.split("=")[0] for word in words if re.fullmatch(r"--[a-z][\w-]*(=\S*)?", word)]
    if words[0] == "razz":
        if words[1].startswith("-"):
            return None if words[1:] == ["--version"] else f"no subcommand before {words[1]}"
        known = _razz_flags([word for word in words[1:] if not word.startswith("-")][:2])
        if known is None:
            return f"no subcommand {' '.join(words[1:3])!r}"
    elif words[1] == "-c" or words[-1] == "-m":
        return None
    else:
        script = ROOT / (words[2].replace(".", "/") + ".py" if words[1] == "-m" else words[1])
        if not script.is_file():
            return f"no file {script.relative_to(ROOT)}"
        source = script.read_text(encoding="utf-8")
        fields = re.findall(r"^    (\w+): ", source, flags=re.MULTILINE)  # dataclass settings (engine.settings)
        known = set(re.findall(r"[\"'](--[\w-]+)[\"']", source)) | {"--" + f.replace("_", "-") for f in fields}
        known.add("--help")
    unknown = [flag for flag in flags if flag not in known]
    return f"unknown {', '.join(unknown)}" if unknown else None


def test_the_commands_quoted_in_the_prose_name_real_scripts_and_flags() -> None:
    """The prose quotes commands too (`razz exploit --agent ppo_razz_pool --deals 2000`, `python studies/...`):
    each names a real subcommand or script and only flags it defines (placeholders such as NAME are fine)."""
    problems = []
    for page in PAGES:
        for quoted in INLINE.findall(_fenced_removed(page.read_text(encoding="utf-8"))):
            command = " ".join(quoted.split())
            problem = _inline_problem(command) if len(command.split()) > 1 else None
            if problem is not None:
                problems.append(f"{page.relative_to(ROOT)}: `{command}`: {problem}")
    assert problems == []


STALE_PAGE = """
<!-- test `razz demo`: --seed 3 -->
<!-- no-test `razz play`: reads moves from the terminal -->
<!-- test `razz solve`: --iterations 1 -->
```bash
razz demo --variant stud8 --seets 6     # a renamed flag
razz replay docs/examples/moved.jsonl   # a moved file
razz play
```
"""


def test_a_stale_page_fails(tmp_path: Path) -> None:
    """What these tests exist for: a renamed flag, a moved file or a stale annotation turns them red."""
    page = ROOT / "docs" / "stale.md"
    found, problems = commands(page, STALE_PAGE)
    assert [c.run for c in found[:2]] == ["razz demo --variant stud8 --seets 6 --seed 3",
                                          "razz replay docs/examples/moved.jsonl"]
    assert found[2].skip == "reads moves from the terminal"
    assert problems == ["docs/stale.md:5: <!-- test `razz solve` --> selects no command of its block"]
    folder = PageFolder(tmp_path, found)
    assert [folder.result(c).returncode for c in found[:2]] == [2, 2]
    assert _inline_problem("razz exploit --agnt ppo_razz") == "unknown --agnt"
    assert _inline_problem("python benchmarks/bench_nothing.py --deals 3") == "no file benchmarks/bench_nothing.py"
