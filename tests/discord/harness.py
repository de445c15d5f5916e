"""Run a real discord.py bot against a ``FakeDiscord`` and turn every silent failure into a test failure.

discord.py logs exceptions from commands, views and event handlers instead of raising them, and a malformed
gateway payload kills the connect task without a log line.  ``running_bot`` watches all of these:

* the connect task (its exception is reported as soon as it dies);
* ERROR records on the ``discord`` logger (tracebacks included);
* the loop's exception handler ("Task exception was never retrieved", unclosed sessions...);
* discord.py's own handler tasks (command invoker, view/modal dispatch, events), which it awaits at exit.

Each failure is reported to the fake, so pending ``wait_*`` calls raise ``BotFailure`` immediately instead of
timing out, and leaving the ``async with`` block raises it too.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import traceback
import weakref
from collections.abc import AsyncIterator, Coroutine, Generator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import discord

from tests.discord.fake import FakeDiscord
from tests.discord.models import BotFailure

__all__ = ["BotRun", "running_bot"]

# Names discord.py gives the tasks that run bot code (see app_commands/tree.py, ui/view.py, ui/modal.py,
# client.py); the harness waits for them before closing so a test never ends with handlers half-done.
HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal-dispatch",
    "discord.py: ",
)


class _ErrorRecords(logging.Handler):
    """Reports every ERROR record of the ``discord`` logger to the fake."""

    def __init__(self, fake: FakeDiscord, enabled: bool) -> None:
        super().__init__(level=logging.ERROR)
        self.fake = fake
        self.enabled = enabled
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        if self.enabled:
            details = "".join(traceback.format_exception(*record.exc_info)) if record.exc_info else ""
            self.fake.report_failure(
                f"discord logged an error ({record.name}): {record.getMessage()}\n{details}"
            )


@dataclass
class BotRun:
    """What ``running_bot`` yields: the bot, the fake, and what it captured."""

    bot: discord.Client
    fake: FakeDiscord
    connect_task: asyncio.Task[None] | None = None
    error_records: list[logging.LogRecord] = field(default_factory=list)
    loop_errors: list[dict[str, Any]] = field(default_factory=list)
    handler_tasks: weakref.WeakSet[asyncio.Task[Any]] = field(default_factory=weakref.WeakSet)


def _task_factory(run: BotRun, previous: Any) -> Any:
    """A task factory that tracks discord.py's handler tasks and reports their crashes at once."""

    def on_done(task: asyncio.Task[Any]) -> None:
        if not task.get_name().startswith(HANDLER_TASK_PREFIXES) or task.cancelled():
            return
        error = task.exception()  # retrieving it also silences "Task exception was never retrieved"
        if error is not None:
            details = "".join(traceback.format_exception(error))
            run.fake.report_failure(f"discord.py task {task.get_name()!r} crashed:\n{details}")

    def factory(
        loop: asyncio.AbstractEventLoop,
        coro: Coroutine[Any, Any, Any] | Generator[Any, None, Any],
        **kwargs: Any,
    ) -> asyncio.Future[Any]:
        task = previous(loop, coro, **kwargs) if previous else asyncio.Task(coro, loop=loop, **kwargs)
        run.handler_tasks.add(task)
        task.add_done_callback(on_done)
        return task

    return factory


@asynccontextmanager
async def running_bot(
    bot: discord.Client,
    fake: FakeDiscord,
    *,
    ready_timeout: float = 5.0,
    settle_timeout: float = 3.0,
    fail_on_error_logs: bool = True,
    reconnect: bool = False,
    full_gc: bool = False,
) -> AsyncIterator[BotRun]:
    """Log ``bot`` in to ``fake``, connect it, wait for READY, yield, then close it and check for failures.

    The order follows the notes: ``login`` (REST calls, ``setup_hook`` and tree sync), then ``connect`` in a
    task, then whichever of ready / connect-task-ended comes first.  ``guild_ready_timeout`` is lowered to
    10 ms (discord.py waits 2 s for guilds by default; 0 skips GUILD_CREATE on Python 3.11).
    ``fail_on_error_logs=False`` keeps ERROR records in ``run.error_records`` without failing the test.
    ``reconnect=False`` makes a dropped gateway end the connect task (and the test) instead of retrying.
    ``full_gc=True`` runs ``gc.collect()`` at exit so failed tasks caught in reference cycles are reported
    too; it costs 50-100 ms per run, and acyclic ones are reported anyway when refcounting frees them.
    """
    loop = asyncio.get_running_loop()
    run = BotRun(bot, fake)
    log_handler = _ErrorRecords(fake, fail_on_error_logs)
    run.error_records = log_handler.records
    discord_logger = logging.getLogger("discord")
    discord_logger.addHandler(log_handler)

    previous_handler = loop.get_exception_handler()

    def on_loop_error(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        run.loop_errors.append(context)
        error = context.get("exception")
        details = "".join(traceback.format_exception(error)) if error else ""
        fake.report_failure(f"event loop error: {context.get('message')}\n{details}")

    loop.set_exception_handler(on_loop_error)
    previous_factory = loop.get_task_factory()
    loop.set_task_factory(_task_factory(run, previous_factory))

    # The library reads this option only from its constructor; 10 ms keeps startup fast but still lets
    # the GUILD_CREATE that follows READY through (see the notes' gotcha 2).
    state = bot._connection
    state.guild_ready_timeout = min(state.guild_ready_timeout, 0.01)

    body_failed = False
    try:
        await asyncio.wait_for(bot.login(fake.token), ready_timeout)
        run.connect_task = connect_task = asyncio.create_task(
            bot.connect(reconnect=reconnect), name="fake-discord-connect"
        )

        def connect_ended(task: asyncio.Task[None]) -> None:
            if not task.cancelled() and task.exception() is not None:
                details = "".join(traceback.format_exception(task.exception()))
                fake.report_failure(f"the bot's connect task died:\n{details}")
            elif not bot.is_closed():
                fake.report_failure("the bot's connect task ended while the bot was still open")

        connect_task.add_done_callback(connect_ended)
        ready = asyncio.create_task(bot.wait_until_ready(), name="fake-discord-wait-ready")
        done, _ = await asyncio.wait(
            {ready, connect_task}, timeout=ready_timeout, return_when="FIRST_COMPLETED"
        )
        if ready not in done:
            ready.cancel()
            fake.raise_failures()
            raise BotFailure(f"the bot was not ready after {ready_timeout}s")
        fake.raise_failures()
        try:
            yield run
        except BaseException as error:
            body_failed = True
            if fake.failures:
                error.add_note("fake-discord failures:\n" + "\n\n".join(fake.failures))
            raise
        await _settle(run, settle_timeout)
    finally:
        try:
            await bot.close()
            if run.connect_task is not None:
                await asyncio.wait({run.connect_task}, timeout=ready_timeout)
            if full_gc:
                # Collect now so a failed, unreferenced task is reported while our exception handler listens.
                gc.collect()
            await asyncio.sleep(0)
        finally:
            loop.set_task_factory(previous_factory)
            loop.set_exception_handler(previous_handler)
            discord_logger.removeHandler(log_handler)
    if not body_failed:
        fake.raise_failures()


async def _settle(run: BotRun, timeout: float) -> None:
    """Wait for discord.py handler tasks still running, and fail if they do not finish in time."""
    current = asyncio.current_task()
    pending = {
        t
        for t in run.handler_tasks
        if not t.done() and t is not current and t.get_name().startswith(HANDLER_TASK_PREFIXES)
    }
    if not pending:
        return
    _, still_running = await asyncio.wait(pending, timeout=timeout)
    for task in still_running:
        task.cancel()
    if still_running:
        names = sorted(t.get_name() for t in still_running)
        run.fake.report_failure(f"bot handlers still running {timeout}s after the test body ended: {names}")
