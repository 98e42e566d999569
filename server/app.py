"""The composition root: the one place that knows every concrete part.

``build_app(config)`` gives an aiohttp application with the Socket.IO server
attached; tests build the real app with the same factory.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from typing import TextIO

import socketio
import structlog
from aiohttp import web

from server.bindings import DatabaseBindings
from server.config import ServerConfig
from server.persistence.database import Database, open_database
from server.table.registry import Tables
from server.transport.gateway import Gateway, SocketPublisher
from server.transport.http import routes

log = structlog.get_logger("hcf.app")

CONFIG = web.AppKey("config", ServerConfig)
DATABASE = web.AppKey("database", Database)
TABLES = web.AppKey("tables", Tables)
GATEWAY = web.AppKey("gateway", Gateway)
SIO = web.AppKey("sio", socketio.AsyncServer)

MAIN_TABLE = "main"


def build_app(config: ServerConfig, *, announce: TextIO = sys.stdout) -> web.Application:
    """The whole server as an aiohttp application (not yet started)."""
    app = web.Application(client_max_size=64 * 1024)
    app[CONFIG] = config
    sio = socketio.AsyncServer(
        async_mode="aiohttp",
        async_handlers=False,  # one client's events are handled in the order sent (PITFALLS 1)
        ping_interval=config.ping_interval,
        ping_timeout=config.ping_timeout,  # dead peers show within seconds (PITFALLS 3)
        transports=["websocket"],  # no sticky-session trouble with polling (PITFALLS 6, 9)
        max_http_buffer_size=64 * 1024,
        cors_allowed_origins=[],
    )
    sio.attach(app)
    app[SIO] = sio

    async def lifecycle(app: web.Application) -> AsyncIterator[None]:
        database = await open_database(config.resolved_database_url())
        bindings = DatabaseBindings(database, config)
        app[DATABASE] = database
        await bindings.void_interrupted_hands()
        tables = Tables(bindings, SocketPublisher(sio), config.table_defaults, grace=config.clock_grace)
        await tables.restore()
        if not tables.runners and not await bindings.any_table_recorded():
            await tables.create(MAIN_TABLE, {}, None)
        token = await bindings.first_host_token()
        if token is not None:
            print(f"host token (shown once): {token}\n"
                  "  get a new one with: hcf-server host-token", file=announce, flush=True)
        app[TABLES] = tables
        gateway = Gateway(sio, tables, bindings, rate=config.rate_per_second, burst=config.rate_burst)
        app[GATEWAY] = gateway
        app.router.add_routes(routes(tables, bindings))
        sweeper = asyncio.create_task(gateway.sweep_slow_consumers(), name="slow-consumers")
        log.info("server_ready", tables=sorted(tables.runners))
        yield
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        await database.close()

    async def shutdown(app: web.Application) -> None:
        """Stop new hands, let running ones end (bounded), void the rest, then drop clients."""
        if GATEWAY in app:
            app[GATEWAY].accepting = False
        if TABLES in app:
            await app[TABLES].stop_all(config.shutdown_grace)
        for sid in list(app[GATEWAY].identities) if GATEWAY in app else []:
            await sio.disconnect(sid)
        await asyncio.sleep(0)

    app.cleanup_ctx.append(lifecycle)
    app.on_shutdown.append(shutdown)
    return app


def run(config: ServerConfig) -> None:
    """Serve until SIGINT/SIGTERM."""
    app = build_app(config)
    log.info("listening", host=config.host, port=config.port)
    web.run_app(app, host=config.host, port=config.port, print=None,
                shutdown_timeout=config.shutdown_grace + 5, handle_signals=True)
