"""Where ``sim``'s runs are played: worker processes of this one, or the workers of a Dask cluster,
and what happens when either goes away.

Local workers die with their parent: ``sim`` killed by any signal, SIGKILL included, leaves no
process behind (:func:`die_with_parent`). A cluster is watched: when it has had no worker for
``patience`` seconds (none joined, or all of them died), the runs stop, and what was played is
returned with the reason the rest was not. Every wait on a cluster is bounded, the connection
included: an address that accepts and never answers, or answers garbage, is one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import queue
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from engine.cli.tools.sim.runs import RunSpec, play_batch, play_batch_on_worker, play_one
from engine.core.errors import UsageError
from engine.core.plugin.isolation import PlayerInterrupt, interrupt

CONNECT_SECONDS = 10  # to reach a Dask scheduler and hear its answer
LOST = "the connection to the scheduler was lost"  # why a cluster's runs stopped, when it was
POLL_SECONDS = 0.5  # how often a cluster with no result coming in is asked for its workers
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
MISSING_DASK = "sim: --cluster needs dask's distributed scheduler: pip install 'undercroft[cluster]'"


@dataclass
class Played:
    """The runs played (in the order they came back), where they were played, and, when the runs
    stopped early, why (the runs missing from ``results`` were not played)."""

    results: list[dict[str, Any]]
    where: str
    stopped: str | None = None
    workers: set[str] = field(default_factory=set)


class Stopped(PlayerInterrupt):
    """SIGTERM (or SIGHUP) asked ``sim`` to stop. The player's KeyboardInterrupt, because whatever
    lets Ctrl-C through (``except Exception``, a plugin's isolation) must let it through too."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum, self.signal = signum, signal.Signals(signum).name


def stop_on_signals() -> Callable[[], None]:
    """Make SIGTERM and SIGHUP raise :class:`Stopped` in the main thread, as Ctrl-C raises
    KeyboardInterrupt; returns what puts the previous handlers back."""
    def stop(signum: int, _frame: Any) -> None:
        interrupt(Stopped(signum))  # counted as arrived: isolation tells it from a plugin's own

    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        return lambda: None
    wanted = [s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]
    previous = {s: signal.signal(s, stop) for s in wanted}

    def restore() -> None:
        for s, handler in previous.items():
            signal.signal(s, handler)

    return restore


def batches(specs: list[RunSpec], workers: int, most: int) -> list[list[RunSpec]]:
    """The runs in batches, a task each: small enough to share the work out evenly (about 20 a
    worker), at most ``most`` runs (a batch's results come back together)."""
    size = max(1, min(most, len(specs) // (workers * 20)))
    return [specs[i:i + size] for i in range(0, len(specs), size)]


def run_locally(specs: list[RunSpec], jobs: int, advance: Callable[[int], None]) -> Played:
    """Play the runs here (``jobs`` 1) or in ``jobs`` worker processes, forked from this one where
    the platform can (they inherit the loaded plugins and kernels). Stopped (Ctrl-C, SIGTERM), the
    workers are killed before the exception goes on."""
    workers = min(jobs, len(specs))
    if jobs == 1 or len(specs) == 1:
        results = []
        for spec in specs:
            results.append(play_one(spec))
            advance(1)
        return Played(results, "1 process")
    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    results = []
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=die_with_parent,
                               initargs=(os.getpid(),))
    try:
        with held(STOPS):  # the workers are forked here: see held
            futures = {pool.submit(play_batch, batch): batch for batch in batches(specs, jobs, 20)}
        for future in as_completed(futures):
            results.extend(_collect(future, futures[future]))
            advance(len(futures[future]))
    except BaseException:
        # a worker in the middle of a run would finish it first (and the interpreter's exit waits
        # for it): the runs are pure, nothing is lost by killing them
        for child in multiprocessing.active_children():
            child.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return Played(results, f"{workers} processes")


# the signals that stop ``sim``: a worker must not hear them with its parent's handlers
STOPS = tuple(s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None)


@contextlib.contextmanager
def held(signals: tuple[int, ...]) -> Iterator[None]:
    """Hold ``signals`` back from this thread within the block; one that came meanwhile arrives
    when it ends. The workers are forked in it: a child starts with its parent's handlers (Ctrl-C
    raises the player's interrupt) and keeps them until :func:`die_with_parent` sets its own, and a
    Ctrl-C that came in between raised inside the child's start and printed a traceback. A child
    forked here starts with them held, and its initializer lets them through once its own handlers
    are set. (Where signals cannot be held, the block runs as it is.)"""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def die_with_parent(parent: int) -> None:
    """A local worker's initializer: Ctrl-C is the parent's to handle (the terminal sends it to
    the whole process group), SIGTERM kills, and the worker dies when its parent does.

    On Linux the kernel does it (``prctl(PR_SET_PDEATHSIG, SIGKILL)``): at once, whatever the
    worker is doing, even deep in a compiled kernel that holds the GIL. Elsewhere, a daemon thread
    asks every second whether the parent changed; a worker whose parent is gone exits within a
    second of its next chance to run Python. A worker has nothing to save: its runs are pure.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # forked with them held (see held): now they may come
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    if sys.platform.startswith("linux") and _kernel_kills_with(parent):
        return
    threading.Thread(target=_watch, args=(parent,), name="sim-parent-watch", daemon=True).start()


def _kernel_kills_with(parent: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:  # the parent died between the fork and the prctl: no signal will come
        os._exit(1)
    return True


def _watch(parent: int) -> None:
    while os.getppid() == parent:  # compared to the parent, not to 1: an orphan may go to a subreaper
        time.sleep(1)
    os._exit(1)


def run_on_cluster(address: str, specs: list[RunSpec], advance: Callable[[int], None], patience: float) -> Played:
    """Play the runs on the Dask scheduler at ``address`` (its workers must have undercroft and the
    same plugins installed). One line and exit status 2 when dask is missing or the scheduler
    cannot be reached; the runs stop when the cluster has had no worker for ``patience`` seconds."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError(MISSING_DASK) from None
    # what goes wrong on the way is said here in one line: dask's own log of it (a lost scheduler's
    # reconnection, a cancelled task's traceback) would bury that line
    log = logging.getLogger("distributed")
    level, log.level = log.level, logging.CRITICAL
    try:
        try:
            _reach(address)  # bounded: the client's own connect waits for a handshake with no end
            client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
        except Exception as e:  # noqa: BLE001 - whatever dask raises for an address it cannot use
            raise UsageError(f"sim: --cluster {address}: cannot reach a Dask scheduler there ({_reason(e)})") from None
        try:
            return _play(client, address, specs, advance, patience)
        finally:
            client.close(timeout=CONNECT_SECONDS)
    finally:
        log.setLevel(level)


def _play(client: Any, address: str, specs: list[RunSpec], advance: Callable[[int], None],
          patience: float) -> Played:
    """Send the batches out and collect them as they come back, watching for workers while none
    comes back."""
    workers = _workers(client)
    chunks = batches(specs, sum((workers or {}).values()) or 1, 50)
    futures = client.map(play_batch_on_worker, chunks, pure=False)
    batch_of = {future.key: batch for future, batch in zip(futures, chunks, strict=True)}
    finished: queue.SimpleQueue = queue.SimpleQueue()
    for future in futures:
        future.add_done_callback(finished.put)
    played = Played([], "")
    left, alone_since, asked = len(futures), None, time.monotonic()
    while left:
        try:
            future = finished.get(timeout=POLL_SECONDS)
        except queue.Empty:
            future = None
        if future is not None and future.cancelled():  # the client lost its scheduler: all are cancelled
            played.stopped = LOST
            break
        if future is not None:
            batch = batch_of[future.key]
            try:
                worker, runs = _collect_remote(future, batch)
            except TimeoutError:  # its worker died holding the result: the batch is played again
                future.add_done_callback(finished.put)
            except CancelledError:  # finished, then cancelled as the client lost its scheduler
                played.stopped = LOST
                break
            else:
                left -= 1
                played.workers.update([worker] if worker is not None else [])
                played.results.extend(runs)
                advance(len(batch))
                continue
        if time.monotonic() - asked < POLL_SECONDS:
            continue
        workers, asked = _workers(client), time.monotonic()
        if workers is None:
            played.stopped = f"the scheduler stopped answering (for {CONNECT_SECONDS} s)"
            break
        alone_since = None if workers else alone_since or asked
        if alone_since is not None and asked - alone_since >= patience:
            played.stopped = f"the cluster has had no worker for {patience:g} s (--cluster-timeout)"
            break
    played.where = f"the Dask cluster at {address} ({named(played.workers)})"
    return played


def named(workers: set[str]) -> str:
    """``2 workers: tcp://a:1, tcp://b:2``: the workers that played runs (the first three)."""
    if not workers:
        return "no worker"
    shown = sorted(workers)[:3]
    more = f" and {len(workers) - 3} more" if len(workers) > 3 else ""
    return f"{len(workers)} worker{'s' if len(workers) > 1 else ''}: {', '.join(shown)}{more}"


def _workers(client: Any) -> dict[str, int] | None:
    """The cluster's workers and their threads now, or None when the scheduler does not answer."""
    try:
        return dict(client.nthreads(callback_timeout=CONNECT_SECONDS))
    except Exception:  # noqa: BLE001 - closed, timed out, lost: the scheduler is gone for us
        return None


def _reach(address: str) -> None:
    """Raise when ``address`` is not one dask can use, nothing listens there (TCP: at once), or
    what listens does not complete Dask's handshake within CONNECT_SECONDS."""
    from distributed.comm import connect
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme in ("tcp", "tls"):
        host, port = parse_host_port(location)
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()

    async def handshake() -> None:
        comm = await connect(address, timeout=CONNECT_SECONDS)
        await comm.close()

    try:
        asyncio.run(asyncio.wait_for(handshake(), CONNECT_SECONDS))
    except TimeoutError:
        raise TimeoutError(f"no answer in {CONNECT_SECONDS} s") from None


def _reason(error: BaseException) -> str:
    return " ".join(str(error).split())[:200] or type(error).__name__


def _collect_remote(future: Any, batch: list[RunSpec]) -> tuple[str | None, list[dict[str, Any]]]:
    """A cluster batch's worker and results, or no worker and its runs as crashed (its task
    failed, or its workers died under it too often). TimeoutError when the result went with a
    worker that died before it came over: the scheduler plays the batch again."""
    if not future.done():
        raise TimeoutError
    if future.status == "finished":
        return future.result(timeout=CONNECT_SECONDS)
    return None, _collect(future, batch)


def _collect(future: Any, batch: list[RunSpec]) -> list[dict[str, Any]]:
    """A batch's results, or, when its worker died under it, each of its runs as crashed."""
    try:
        return future.result()
    except Exception as e:  # noqa: BLE001 - a worker lost (killed, out of memory): its runs are reported
        reason = f"{type(e).__name__}: {' '.join(str(e).split())[:200]}".rstrip(": ")
        return [{"seed": s.seed, "outcome": "crashed", "won": False, "depth": 0, "turns": 0, "keys": 0, "cause": None,
                 "crash": {"where": "worker", "error": reason, "at": ""}, "replay": None} for s in batch]
