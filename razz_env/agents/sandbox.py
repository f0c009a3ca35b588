"""The sandbox an agent's process runs in: it cannot reach the process that holds the hands.

``python .../razz_env/agents/sandbox.py [--hide PATH ...] -- COMMAND ...`` (:func:`launcher_command`) is what
:func:`start_sandboxed` starts, for an isolated Python agent (:class:`~razz_env.evaluate.isolation.IsolatedAgent`)
and for a program speaking the bot protocol (:class:`~razz_env.agents.external.ExternalAgent`): run as a file, it
imports nothing but the standard library, so it is one thread, as a new user namespace requires (numpy's thread pool
alone makes ``unshare`` fail with ``EINVAL``). This launcher process, on Linux, enters new PID and mount namespaces
(and a user namespace when it is not root, mapping only its own uid), then forks the agent's process, which is the
first process (PID 1) of its PID namespace, runs ``COMMAND`` and so:

- sees and can address only its own descendants: ``/proc`` is mounted afresh, so the worker that holds the hands (the
  launcher's parent) has no PID there; ``/proc/<pid>/mem``, ``/proc/<pid>/environ``, ``ptrace``,
  ``process_vm_readv`` and ``kill`` find no such process;
- takes every descendant with it: when PID 1 of a namespace ends, the kernel kills every process in it, so
  children that fork twice or call ``setsid`` die with the agent; the agent dies with the launcher
  (``PR_SET_PDEATHSIG``), and the launcher with the worker that started it;
- writes nowhere but a working directory of its own (an empty ``tmpfs``, also its ``HOME`` and ``TMPDIR``): every other
  mount is read-only, and the ``--hide`` paths (the results folder, which holds hand records) are covered by an
  empty ``tmpfs`` it cannot read;
- holds no capability (the bounding set is dropped and ``no_new_privs`` set before ``COMMAND`` runs), so it cannot
  undo any of this, and gets a short list of environment variables and only the protocol's pipes and stderr.

The process that holds the hands also marks itself non-dumpable (:func:`protect_this_process`): a process of the same
user without ``CAP_SYS_PTRACE`` cannot read its memory or attach to it even without the namespaces.

Where namespaces cannot be made (not Linux; a container or a distribution that forbids them to the user), the
launcher says why on stderr once and runs the agent with only the working directory, the environment and the
non-dumpable worker; :func:`sandbox_problem` tells beforehand.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID = 0x00020000, 0x10000000, 0x20000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 0x20, 0x1000, 0x4000, 0x40000
MS_NOATIME, MS_NODIRATIME, MS_RELATIME, MS_STRICTATIME = 0x400, 0x800, 0x200000, 0x1000000
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 1, 4, 24, 38
LOCKED_FLAGS = {"nosuid": MS_NOSUID, "nodev": MS_NODEV, "noexec": MS_NOEXEC, "noatime": MS_NOATIME,
                "nodiratime": MS_NODIRATIME, "relatime": MS_RELATIME, "strictatime": MS_STRICTATIME}
"""Mount flags a remount must keep (a user namespace may not clear them)."""
KEPT_ENVIRONMENT = ("PATH", "LANG", "LC_ALL", "TZ", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""The caller's environment variables an agent sees; the rest (tokens, keys, paths) stay out."""
WORKDIR_SIZE = "512m"


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _call(name: str, *args: object) -> None:
    """Call libc's ``name``; ``OSError`` with its errno when it fails."""
    if getattr(_libc(), name)(*args) != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{name}: {os.strerror(number)}")


def protect_this_process() -> None:
    """Mark this process non-dumpable: processes of its user without ``CAP_SYS_PTRACE`` can no longer read its
    memory (``/proc/<pid>/mem``, ``process_vm_readv``), its environment, or attach to it (no-op off Linux)."""
    if sys.platform.startswith("linux"):
        _call("prctl", PR_SET_DUMPABLE, 0, 0, 0, 0)


def agent_environment(workdir: str, python_path: Sequence[str]) -> dict[str, str]:
    """The environment an agent's process gets: :data:`KEPT_ENVIRONMENT`, its Python path, and every cache and home
    pointed at its working directory (nothing else of the caller's)."""
    environment = {key: os.environ[key] for key in KEPT_ENVIRONMENT if key in os.environ}
    environment.update(PYTHONPATH=os.pathsep.join(python_path), HOME=workdir, TMPDIR=workdir,
                       NUMBA_CACHE_DIR=workdir, MPLCONFIGDIR=workdir, PYTHONDONTWRITEBYTECODE="1")
    return environment


def _enter_namespaces() -> None:
    """New PID and mount namespaces for the next child (and a user namespace mapping only this uid, when not root)."""
    uid, gid = os.geteuid(), os.getegid()
    flags = CLONE_NEWPID | CLONE_NEWNS | (CLONE_NEWUSER if uid != 0 else 0)
    _call("unshare", flags)
    if uid != 0:
        for path, text in (("/proc/self/setgroups", "deny"), ("/proc/self/uid_map", f"{uid} {uid} 1"),
                           ("/proc/self/gid_map", f"{gid} {gid} 1")):
            with open(path, "w", encoding="ascii") as file:
                file.write(text)


def _mount(source: str | None, target: str, kind: str | None, flags: int, data: str | None = None) -> None:
    encode = (lambda text: None if text is None else text.encode())  # noqa: E731 - four arguments alike
    _call("mount", encode(source), encode(target), encode(kind), ctypes.c_ulong(flags), encode(data))


def _mount_points() -> list[tuple[str, int]]:
    """Every mount point of this namespace with the flags a remount must keep, deepest last."""
    points = []
    with open("/proc/self/mountinfo", "rb") as file:
        for line in file:
            fields = line.split()
            target = re.sub(rb"\\([0-7]{3})", lambda octal: bytes([int(octal[1], 8)]), fields[4])  # \040: a space
            kept = sum(LOCKED_FLAGS.get(option, 0) for option in fields[5].decode().split(","))
            points.append((os.fsdecode(target), kept))
    return points


def _seal(workdir: str, hidden: Sequence[str]) -> None:
    """In the agent's PID 1, before Python runs its code: a fresh ``/proc``, the hidden paths covered, every mount
    read-only, an empty writable working directory, and no capability left to undo it."""
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for path in hidden:
        if os.path.isdir(path):
            _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=000")
    for target, kept in _mount_points():
        try:
            _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | kept)
        except OSError:
            if target == "/" or any(path.startswith(target) for path in hidden):
                raise
    _mount("tmpfs", workdir, "tmpfs", MS_NOSUID | MS_NODEV, f"size={WORKDIR_SIZE},mode=700")
    for capability in range(64):
        if _libc().prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 and ctypes.get_errno() == 22:
            break  # EINVAL: past the last capability this kernel knows
    _call("prctl", PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def sandbox_problem() -> str | None:
    """Why an isolated agent would run without its namespaces here, or None when it runs inside them (asked of a
    fresh process, so this one is left as it was)."""
    if not sys.platform.startswith("linux"):
        return f"namespaces are Linux's ({sys.platform} here)"
    done = subprocess.run(launcher_command(["--probe"]), capture_output=True, text=True, timeout=60)
    return done.stdout.strip() or done.stderr.strip()[-300:] or None


def start_sandboxed(command: Sequence[str], hidden: Sequence[str] = ()) -> subprocess.Popen[bytes]:
    """Start ``command`` (its program an absolute path) in the sandbox, blind to the ``hidden`` folders, with its stdin
    and stdout piped to this process (stderr shared); this process is made non-dumpable first. The launcher's
    environment is :func:`agent_environment` with this process's Python path."""
    protect_this_process()
    environment = agent_environment(tempfile.gettempdir(), [path for path in sys.path if path])
    hide = [argument for path in hidden for argument in ("--hide", str(path))]
    return subprocess.Popen(launcher_command([*hide, "--", *command]), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env=environment, cwd=tempfile.gettempdir())


def launcher_command(arguments: Sequence[str]) -> list[str]:
    """The command that runs this launcher with ``arguments``: this file itself, so that no package (and no thread
    pool) is imported before it enters the namespaces."""
    return [sys.executable, "-I", os.path.abspath(__file__), *arguments]


def _run_agent(workdir: str, hidden: Sequence[str], sandboxed: bool, command: list[str],
               environment: dict[str, str]) -> None:
    """The agent's process (PID 1 of its namespace when ``sandboxed``): seal it, then run ``command``."""
    try:
        _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if sandboxed:
            _seal(workdir, hidden)
        os.chdir(workdir)
        os.execve(command[0], command, environment)
    except BaseException as err:  # noqa: BLE001 - the child must never return into the launcher's code
        os.write(2, f"razz: the isolated agent's sandbox failed: {err}\n".encode())
    os._exit(127)


def _launch(hidden: Sequence[str], command: list[str]) -> int:
    """Start ``command`` (its program an absolute path) in its sandbox and wait for it; its exit status (128 + signal
    when killed)."""
    _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the launcher dies with the worker that started it
    workdir = tempfile.mkdtemp(prefix="razz-agent-")
    environment = agent_environment(workdir, os.environ.get("PYTHONPATH", "").split(os.pathsep))  # the worker's path
    try:
        _enter_namespaces()
        sandboxed = True
    except OSError:
        sandboxed = False  # the harness warned once, from sandbox_problem
    pid = os.fork()
    if pid == 0:
        _run_agent(workdir, hidden, sandboxed, command, environment)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)  # only the agent holds the protocol's pipes, so the harness sees them close when it ends
    os.dup2(null, 1)
    os.close(null)
    _, status = os.waitpid(pid, 0)
    shutil.rmtree(workdir, ignore_errors=True)
    return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


def main(argv: Sequence[str] | None = None) -> int:
    """The launcher's command line: ``--hide PATH`` (repeatable) for folders the agent must not see, then ``--`` and
    the agent's command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    split = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(prog="razz_env/agents/sandbox.py", description=__doc__.splitlines()[0])
    parser.add_argument("--hide", action="append", default=[], help="a folder the agent must not read")
    parser.add_argument("--probe", action="store_true", help="print why namespaces cannot be made here, if they cannot")
    args = parser.parse_args(argv[:split])
    if args.probe:
        try:
            _enter_namespaces()
        except OSError as err:
            print(err)
        return 0
    if split + 1 >= len(argv):
        parser.error("give the agent's command after --")
    return _launch([os.path.realpath(path) for path in args.hide], argv[split + 1:])


if __name__ == "__main__":
    sys.exit(main())
