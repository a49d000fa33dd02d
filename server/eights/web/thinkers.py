"""Worker processes that answer the computer's questions (``bots.thinking``) beside the
event loop: a search never runs on the loop, and one table's computer never slows another.

Each worker is a process of its own (forked from a fork server that has the bots loaded, so
starting one takes milliseconds), at a lower priority than the server, reading questions
from a pipe and writing answers back, one at a time. A question waits for an idle worker,
then for its answer, within ``limit`` seconds in all; past it the worker (if it was
thinking) is stopped and replaced, and the table gets Medium's quick choice instead
(``quick_answer``), counted and logged. A worker that dies is replaced and the question
asked again (twice at most). Workers start before the server serves (``start``), or on
the first question; the time limit counts from when they have started.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any

from eights.bots.thinking import Answer, Question, quick_answer, think

log = logging.getLogger("eights.thinkers")

NICENESS = 10
"""How much lower the workers' priority is than the server's: on a busy machine the event
loop (every table's moves) is served first, the computer's thinking after."""
ATTEMPTS = 3
"""A question is asked of at most this many workers (each one that died is replaced)."""
LIMIT_SECONDS = 3.0
"""The default time a question may take, waiting for a worker included."""


def default_workers() -> int:
    """One worker a core (they run at a lower priority than the event loop), 1 to 8."""
    return max(1, min(8, os.cpu_count() or 1))


def serve(connection: Connection) -> None:
    """A worker's life: answer each question read from ``connection`` until it closes."""
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle
    while True:
        try:
            question = connection.recv()
        except (EOFError, OSError):
            return  # the server closed its end, or died
        try:
            answer: dict[str, Any] = think(question)
        except Exception as exc:  # a bot's bug: said, and the table falls back
            answer = {"error": f"{type(exc).__name__}: {exc}"[:300]}
        try:
            connection.send(answer)
        except (BrokenPipeError, OSError):
            return


class WorkerDied(RuntimeError):
    """The worker's pipe closed before it answered."""


class Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, context: BaseContext) -> None:
        ours, theirs = context.Pipe()
        self.connection: Connection = ours
        self._theirs = theirs
        self.process: BaseProcess = context.Process(  # type: ignore[attr-defined]
            target=serve, args=(theirs,), name="eights-thinker", daemon=True
        )
        self.waiting: asyncio.Future[dict[str, Any]] | None = None
        self.alive = True

    def start(self) -> None:
        self.process.start()
        self._theirs.close()  # the child's end lives in the child only

    def stop(self) -> None:
        self.alive = False
        with contextlib.suppress(Exception):
            self.connection.close()
        with contextlib.suppress(Exception):
            if self.process.is_alive():
                self.process.kill()
        with contextlib.suppress(Exception):
            self.process.join(1.0)


class Thinkers:
    """The pool: ``await thinkers.ask(question)`` -> the computer's ``Answer``."""

    def __init__(
        self,
        workers: int | None = None,
        limit: float = LIMIT_SECONDS,
        *,
        observe: Callable[[Question, Answer, str], None] | None = None,
    ) -> None:
        if workers is not None and workers < 1:
            raise ValueError("the computer needs at least one worker process")
        self.size = workers or default_workers()
        self.limit = limit
        self.observe = observe
        """Told of each answer and how it came: ``worker``, or why it fell back (``late``,
        ``busy``, ``died``, ``error``)."""
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["eights.web.thinkers"])
        self._idle: asyncio.Queue[Worker] | None = None
        self._starting: asyncio.Future[None] | None = None
        self._workers: set[Worker] = set()
        self._closed = False
        self._replacing: set[asyncio.Future[None]] = set()
        self.restarts = 0
        """Workers replaced after they died or ran over the limit."""

    @property
    def starting(self) -> bool:
        """Whether the workers were started, or are being started."""
        return self._starting is not None

    async def start(self) -> None:
        """Start every worker (the app does so before it serves; ``ask`` waits for it
        otherwise): a pool still starting never makes a question fall back."""
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._start())
        starting = self._starting
        try:
            await asyncio.shield(starting)
        except Exception:
            if self._starting is starting and starting.done():
                self._starting = None  # the next question tries again
            raise

    async def _start(self) -> None:
        idle: asyncio.Queue[Worker] = asyncio.Queue()
        for _ in range(self.size):
            idle.put_nowait(await self._new_worker())
        self._idle = idle

    async def _started(self) -> asyncio.Queue[Worker]:
        await self.start()
        assert self._idle is not None
        return self._idle

    async def _new_worker(self) -> Worker:
        worker = Worker(self._context)
        await asyncio.get_running_loop().run_in_executor(None, worker.start)
        asyncio.get_running_loop().add_reader(worker.connection.fileno(), self._readable, worker)
        self._workers.add(worker)
        return worker

    def _readable(self, worker: Worker) -> None:
        """An answer (or the end of the pipe) from ``worker``."""
        try:
            answer = worker.connection.recv()
        except (EOFError, OSError):
            self._forget(worker)
            if worker.waiting is not None and not worker.waiting.done():
                worker.waiting.set_exception(WorkerDied())  # ``ask`` replaces it
            elif not self._closed:  # it died idle: replace it now
                task = asyncio.ensure_future(self._replace(worker))
                self._replacing.add(task)
                task.add_done_callback(self._replacing.discard)
            return
        waiting, worker.waiting = worker.waiting, None
        if waiting is not None and not waiting.done():
            waiting.set_result(answer)

    def _forget(self, worker: Worker) -> None:
        if worker in self._workers:
            self._workers.discard(worker)
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(worker.connection.fileno())
        worker.stop()

    async def _replace(self, worker: Worker) -> None:
        """Stop ``worker`` (dead, or thinking past the limit) and put a fresh one to work."""
        self._forget(worker)
        log.warning("a worker of the computer's stopped (pid %s); starting another",
                    worker.process.pid)  # fmt: skip
        self.restarts += 1
        if self._closed or self._idle is None:
            return
        self._idle.put_nowait(await self._new_worker())

    async def ask(self, question: Question) -> Answer:
        """The computer's answer to ``question``, within ``limit`` seconds; Medium's quick
        choice when no worker answered in time."""
        loop = asyncio.get_running_loop()
        try:
            idle = await self._started()  # the pool's start is not the question's time
        except Exception:
            log.exception("the computer's workers could not start")
            return self._fallback(question, "error")
        deadline = loop.time() + self.limit
        for _ in range(ATTEMPTS):
            try:
                worker = await asyncio.wait_for(idle.get(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                return self._fallback(question, "busy")
            if not worker.alive:
                continue
            worker.waiting = loop.create_future()
            try:
                worker.connection.send(question.to_json())
                data = await asyncio.wait_for(
                    asyncio.shield(worker.waiting), max(0.0, deadline - loop.time())
                )
            except (WorkerDied, OSError):
                await self._replace(worker)
                continue
            except TimeoutError:
                await self._replace(worker)
                return self._fallback(question, "late")
            except asyncio.CancelledError:
                await asyncio.shield(self._replace(worker))  # its answer would go astray
                raise
            idle.put_nowait(worker)
            if "error" in data:
                log.error("the computer's %s failed: %s", question.kind, data["error"])
                return self._fallback(question, "error")
            answer = Answer.from_json(data)
            if self.observe is not None:
                self.observe(question, answer, "worker")
            return answer
        return self._fallback(question, "died")

    def _fallback(self, question: Question, why: str) -> Answer:
        log.warning(
            "the computer's %s at level %s fell back to Medium's quick choice (%s)",
            question.kind,
            question.level,
            why,
        )
        answer = quick_answer(question)
        if self.observe is not None:
            self.observe(question, answer, why)
        return answer

    async def aclose(self) -> None:
        """Stop every worker (once those being started have started)."""
        self._closed = True
        if self._starting is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._starting)
        workers, self._workers = list(self._workers), set()
        loop = asyncio.get_running_loop()
        for worker in workers:
            with contextlib.suppress(Exception):
                loop.remove_reader(worker.connection.fileno())
            if worker.waiting is not None and not worker.waiting.done():
                worker.waiting.set_exception(WorkerDied())

        def stop_all() -> None:
            for worker in workers:
                worker.stop()

        await loop.run_in_executor(None, stop_all)
