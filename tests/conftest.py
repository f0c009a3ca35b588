"""Settings for the whole suite."""

from __future__ import annotations

import signal


def pytest_configure(config) -> None:
    """Ctrl-C back to Python's handler when the suite was started with SIGINT ignored (a background job: ``nohup``,
    ``&``): the CLI processes the tests interrupt inherit the disposition, and an ignored SIGINT never reaches them."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
