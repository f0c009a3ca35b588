"""``razz_env/command_line.py``: a typed ``Args`` dataclass read from the command line."""

from __future__ import annotations


def test_parse_args_builds_a_studys_typed_args_from_the_command_line(monkeypatch, capsys):
    """One ``--flag`` per field, of its type (tuples take several values, booleans pair with ``--no-``)."""
    import dataclasses

    import pytest

    from razz_env.command_line import parse_args

    @dataclasses.dataclass(frozen=True)
    class Args:
        seats: int = 2
        """seats at the table"""
        name: str | None = None
        """a label"""
        deals: tuple[int, ...] = (10,)
        """deals per round"""
        plots: bool = True
        """draw plots"""

    monkeypatch.setattr("sys.argv", ["study", "--seats", "6", "--deals", "3", "4", "--no-plots"])
    assert parse_args(Args, "a study") == Args(seats=6, name=None, deals=(3, 4), plots=False)
    monkeypatch.setattr("sys.argv", ["study", "--help"])
    with pytest.raises(SystemExit):
        parse_args(Args, "a study")
    assert "seats at the table (default: 2)" in capsys.readouterr().out
    monkeypatch.setattr("sys.argv", ["study", "--seats", "six"])
    with pytest.raises(SystemExit):
        parse_args(Args, "a study")
    assert "invalid int value: 'six'" in capsys.readouterr().err


def test_argv_and_prog_are_the_callers() -> None:
    """``razz ppo`` hands its own argument list and name, so help and errors say ``razz ppo``."""
    import dataclasses

    import pytest

    from razz_env.command_line import parse_args

    @dataclasses.dataclass(frozen=True)
    class Args:
        steps: int = 1
        """steps to take"""

    assert parse_args(Args, None, ["--steps", "5"], prog="razz x") == Args(steps=5)
    with pytest.raises(SystemExit):
        parse_args(Args, None, ["--steps", "many"], prog="razz x")


def test_a_repeated_flag_adds_values_a_flag_left_out_keeps_its_default_and_a_base_documents_its_fields(capsys):
    """``--input a --input b`` keeps both (argparse alone would keep the last); a positional tuple takes several
    words; a field without a default is a required flag; a base class's fields and docstrings come along."""
    import dataclasses

    import pytest

    from razz_env.command_line import parse_args

    @dataclasses.dataclass(frozen=True)
    class Where:
        backend: str = "local"
        """where it runs"""

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Args(Where):
        agent: str
        """the agent"""
        files: tuple[str, ...] = dataclasses.field(default=(), metadata={"positional": True})
        """files to read"""
        input: tuple[str, ...] = ("x",)
        """inputs"""

    assert parse_args(Args, None, ["--agent", "a", "f1", "f2", "--input", "p", "--input", "q", "r"]) == Args(
        agent="a", files=("f1", "f2"), input=("p", "q", "r"))
    assert parse_args(Args, None, ["--agent", "a"]) == Args(agent="a", files=(), input=("x",))
    with pytest.raises(SystemExit):
        parse_args(Args, None, ["f1"])
    assert "the following arguments are required: --agent" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse_args(Args, ":class:`Args` reads ``--agent``.\n\n    More.", ["--help"], prog="razz x")
    shown = capsys.readouterr().out
    assert "where it runs (default: local)" in shown and "Args reads --agent.\n\nMore." in shown


def test_run_script_exits_with_mains_status_and_a_config_error_is_one_line_named_after_the_script(monkeypatch,
                                                                                                    capsys):
    import dataclasses

    import pytest

    from razz_env.command_line import run_script
    from razz_env.engine.errors import ConfigError

    @dataclasses.dataclass(frozen=True)
    class Args:
        deals: int = 1
        """deals to play"""

    def main(args: Args) -> int | None:
        if args.deals < 1:
            raise ConfigError(f"--deals: expected at least 1, got {args.deals}")
        return 3 if args.deals == 3 else None

    for argv, status in ((["--deals", "3"], 3), (["--deals", "2"], 0), (["--deals", "0"], 2)):
        monkeypatch.setattr("sys.argv", ["study", *argv])
        with pytest.raises(SystemExit) as done:
            run_script(main, Args, "a study")
        assert done.value.code == status
    assert capsys.readouterr().err == "test_command_line: --deals: expected at least 1, got 0\n"


def test_ctrl_c_in_a_script_is_one_line_and_exit_status_130(monkeypatch, capsys):
    import dataclasses

    import pytest

    from razz_env.command_line import run_script

    @dataclasses.dataclass(frozen=True)
    class Args:
        saved: bool = False
        """whether main says what it saved"""

    def main(args: Args) -> None:
        raise KeyboardInterrupt("interrupted: saved at step 7") if args.saved else KeyboardInterrupt

    for argv, line in (([], "interrupted"), (["--saved"], "interrupted: saved at step 7")):
        monkeypatch.setattr("sys.argv", ["study", *argv])
        with pytest.raises(SystemExit) as done:
            run_script(main, Args, "a study")
        assert done.value.code == 130 and capsys.readouterr().err == f"test_command_line: {line}\n"


def test_a_script_whose_reader_goes_away_ends_quietly(tmp_path):
    """``python study.py | head -1``: stdout's pipe closes before the script writes; no traceback, exit 1."""
    import subprocess
    import sys
    import textwrap

    script = tmp_path / "talky.py"
    script.write_text(textwrap.dedent('''
        import dataclasses
        import time

        from razz_env.command_line import run_script


        @dataclasses.dataclass
        class Args:
            lines: int = 10_000
            """lines to print"""


        def main(args):
            time.sleep(0.5)  # the reader is gone by now
            for line in range(args.lines):
                print(line)


        run_script(main, Args, "prints lines")
    '''))
    process = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    _, errors = process.communicate(timeout=120)
    assert process.returncode == 1 and errors == b""
