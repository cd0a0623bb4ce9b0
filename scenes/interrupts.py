"""Ctrl-C during a render: held back where it is unsafe, never lost where it is not.

Python raises ``KeyboardInterrupt`` wherever the main thread happens to be when
the signal arrives. Two places make that unreliable:

- inside a C extension's start-up (torch, Manim imports) an interrupt can abort
  the interpreter instead of unwinding: :func:`deferred` holds it back until
  the block ends, then raises it;
- inside a weak-reference callback or a ``__del__`` (Manim and PyAV run many
  while a scene renders) the exception is printed as "Exception ignored" and
  dropped, and the render would go on to the end: :func:`watched` records
  every interrupt (and keeps the "Exception ignored" traceback off the
  terminal), and :func:`check`, called at safe points (every play, before
  a finished file is published, between scenes), raises it again.

Examples
--------
>>> with watched():
...     check()  # nothing pending: returns
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading

__all__ = ["deferred", "watched", "check"]

_pending = threading.Event()


@contextlib.contextmanager
def deferred():
    """Hold Ctrl-C back until the block ends, then raise it.

    For the heavy imports (torch, Manim): an interrupt landing inside a C
    extension's start-up can abort the interpreter (seen once on Python 3.13)
    instead of unwinding; the imports take a second or two.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


@contextlib.contextmanager
def watched():
    """Raise Ctrl-C at once as usual, and remember it for :func:`check`.

    Outside the main thread (where no handler can be set), or where Ctrl-C is
    ignored (a process started in the background), the block runs as is.
    """
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is signal.SIG_IGN):
        yield
        return
    _pending.clear()

    def caught(number, frame):
        _pending.set()
        raise KeyboardInterrupt

    def unraisable(problem):  # an exception a callback could not raise
        if issubclass(problem.exc_type, KeyboardInterrupt):
            _pending.set()  # check() raises it: no traceback on the terminal
        else:
            hook(problem)

    hook = sys.unraisablehook
    previous = signal.signal(signal.SIGINT, caught)
    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = hook
        _pending.clear()  # raised by now, or never to be: a later render in this process starts clean


def check() -> None:
    """Raise ``KeyboardInterrupt`` if Ctrl-C came inside :func:`watched` (also
    when the first one was swallowed by a callback)."""
    if _pending.is_set():
        raise KeyboardInterrupt
