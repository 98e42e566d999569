"""The composition root: the one place that knows every concrete part.

``build_app(config)`` gives an aiohttp application with the Socket.IO server
attached; tests build the real app with the same factory.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from typing import TextIO

import socketio
import structlog
from aiohttp import web

from server import protocol
from server.bindings import DatabaseBindings
from server.clock import SYSTEM_CLOCK, Clock
from server.config import ServerConfig, origins_of
from server.gcpolicy import install_gc_policy
from server.i18n import told, with_say
from server.listening import PortUnavailable, listening_socket
from server.persistence.database import Database, open_database
from server.persistence.ownership import Holder, Ownership, claim, where_is
from server.table.registry import Tables
from server.transport import edge
from server.transport.frames import FrameGuard
from server.transport.gateway import Gateway
from server.transport.guard import ConnectionGuard, RepeatFilter
from server.transport.http import HttpLimits, routes
from server.transport.invites import WebAddress, invite_routes
from server.transport.limits import BucketTable, parse_networks
from server.transport.origins import OriginCheck
from server.transport.packets import TextPacket
from server.transport.publisher import SocketPublisher
from server.transport.quotas import NewAccounts
from server.transport.table_host import table_host_routes
from server.transport.trainees import trainee_routes
from server.web.routes import web_routes

log = structlog.get_logger("hcf.app")

CONFIG = web.AppKey("config", ServerConfig)
DATABASE = web.AppKey("database", Database)
TABLES = web.AppKey("tables", Tables)
GATEWAY = web.AppKey("gateway", Gateway)
SIO = web.AppKey("sio", socketio.AsyncServer)
GUARD = web.AppKey("guard", ConnectionGuard)
CLOCK = web.AppKey("clock", Clock)
STOPPED = web.AppKey("stopped", asyncio.Event)  # set once stopping: a started app is frozen
WEB = web.AppKey("web", WebAddress)  # where invite links point; its port is set once the web port listens

MAIN_TABLE = "main"
TOKEN_COMMAND = "hcf-server host-token"  # for a server on the default database
DISCONNECT_SECONDS = 2.0  # at shutdown, how long clients get to close their websockets


def build_app(config: ServerConfig, *, announce: TextIO = sys.stdout, port: int | None = None,
              ownership: Ownership | None = None, clock: Clock = SYSTEM_CLOCK,
              token_command: str = TOKEN_COMMAND) -> web.Application:
    """The whole server as an aiohttp application (not yet started).

    Starting it claims the database first (``server/persistence/ownership.py``): when
    another server owns it, the start fails with ``DatabaseBusy`` before anything is
    read or written. ``port`` is the one this server listens on, to name it to others;
    ``ownership``: the claim already taken (it is released when the app stops). ``clock``: what the
    rate limits, the reconnect limit, the presence grace and the header timeout wait on (tests
    give a manual one). ``token_command``: how the start lines tell the operator to get a new
    host token (with the ``--db`` or ``--config`` this server was started with).
    """
    app = web.Application(client_max_size=64 * 1024)
    app[CONFIG] = config
    app[CLOCK] = clock
    app[STOPPED] = asyncio.Event()
    sio = socketio.AsyncServer(
        async_mode="aiohttp",
        async_handlers=False,  # one client's events are handled in the order sent (PITFALLS 1)
        serializer=TextPacket,  # JSON only: no walk of every payload for bytes (server/transport/packets.py)
        ping_interval=config.ping_interval,
        ping_timeout=config.ping_timeout,  # dead peers show within seconds (PITFALLS 3)
        transports=["websocket"],  # no sticky-session trouble with polling (PITFALLS 6, 9)
        max_http_buffer_size=64 * 1024,
        # a browser's Origin: the server's own, or one of allowed_origins; no Origin (terminal, bots): let in
        cors_allowed_origins=OriginCheck(origins_of(config.allowed_origins), parse_networks(config.trusted_proxies)),
        # several processes (docs/scaling.md): broadcasts reach every process's clients through Redis
        **({"client_manager": socketio.AsyncRedisManager(config.redis_url)} if config.redis_url else {}),
    )
    sio.attach(app)
    app[SIO] = sio
    app[WEB] = WebAddress(public_url=config.public_url)
    app.router.add_routes(web_routes())  # the browser client's pages (server/web)
    trusted = parse_networks(config.trusted_proxies)
    app[GUARD] = ConnectionGuard(config.max_connections_per_address, config.header_timeout, trusted,
                                 total=config.max_pending_connections, clock=clock)

    async def lifecycle(app: web.Application) -> AsyncIterator[None]:
        url = config.resolved_database_url()
        holder = Holder(os.getpid(), socket.gethostname(), config.port if port is None else port, time.time())
        # Before migrations, recovery or any read: a second server must not void the first one's hand.
        held = ownership or await claim(url, holder, shared=bool(config.redis_url))
        try:
            database = await open_database(url, session_ttl=config.token_days * 86400,
                                           synchronous=config.sqlite_synchronous,
                                           max_sessions=config.max_sessions_per_account)
            try:
                async with _serving(app, database, announce, token_command):
                    yield
            finally:
                await database.close()
        finally:
            await held.release()

    app.cleanup_ctx.append(lifecycle)
    app.on_shutdown.append(graceful_stop)
    return app


@contextlib.asynccontextmanager
async def _serving(app: web.Application, database: Database, announce: TextIO,
                   token_command: str) -> AsyncIterator[None]:
    """Recover, restore the tables and serve them until the block ends."""
    config, sio, clock = app[CONFIG], app[SIO], app[CLOCK]
    bindings = DatabaseBindings(database, config)
    app[DATABASE] = database
    tables = Tables(bindings, SocketPublisher(sio), config.table_defaults, grace=config.clock_grace, clock=clock)
    cluster = None
    if config.redis_url:  # several processes: leases decide which tables run here (server/cluster)
        from server.cluster.node import Cluster
        cluster = Cluster(config, bindings, tables, stopping=app[STOPPED].is_set)
        await cluster.start(first_table=MAIN_TABLE)
    else:
        await bindings.void_interrupted_hands()
        await tables.restore()
    if not tables.runners and not await bindings.any_table_recorded():
        await tables.create(MAIN_TABLE, {}, None)
    announce_start(announce, where_is(config.resolved_database_url()), await bindings.first_host_token(),
                   token_command)
    app[TABLES] = tables
    gateway = Gateway(sio, tables, bindings, rate=config.rate_per_second, burst=config.rate_burst,
                      reconnects=BucketTable(config.reconnect_rate_per_second, config.reconnect_burst,
                                             config.limit_keys, clock),
                      presence_grace=config.presence_grace, on_login=app[GUARD].logged_in, clock=clock,
                      chat_log=bindings)
    app[GATEWAY] = gateway
    FrameGuard(sio, max_bad=config.max_bad_frames, interval=config.log_repeat_seconds, clock=clock).install()
    if cluster is not None:
        cluster.present = gateway.sid_of_account.keys
    trusted = parse_networks(config.trusted_proxies)
    limits = HttpLimits.build(address_rate=config.login_rate_per_second, address_burst=config.login_burst,
                              account_rate=config.account_login_rate_per_second,
                              account_burst=config.account_login_burst, keys=config.limit_keys,
                              trusted=trusted, body_timeout=config.header_timeout, clock=clock,
                              history_rate=config.history_rate_per_second, history_burst=config.history_burst,
                              new_accounts=NewAccounts.build(
                                  address_burst=config.register_address_burst,
                                  address_rate=config.register_address_per_hour / 3600,
                                  burst=config.register_burst, rate=config.register_per_hour / 3600,
                                  keys=config.limit_keys, clock=clock))
    app.router.add_routes(routes(tables, bindings, limits=limits, sessions=gateway))
    app.router.add_routes(invite_routes(tables, bindings, limits, app[WEB]))
    app.router.add_routes(trainee_routes(bindings, limits))
    app.router.add_routes(table_host_routes(bindings, limits))
    sweeper = asyncio.create_task(gateway.sweep_slow_consumers(), name="slow-consumers")
    log.info("server_ready", tables=sorted(tables.runners))
    try:
        yield
    finally:
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        if cluster is not None:
            await cluster.stop()


def announce_start(out: TextIO, database: str, token: str | None, token_command: str = TOKEN_COMMAND) -> None:
    """What the operator needs, plainly on stdout (not in the log): the database, and a new host token.

    The token is shown on the first start only (a fresh database); it is never logged.
    ``token_command`` gets another one for this very database (issue 23: the bare command
    looked in the default place, not at a server started with ``--db``).
    """
    lines = [f"database: {database}"]
    if token is not None:
        lines += [f"host token (shown once): {token}",
                  f"  keep it: it runs the host commands (hcf host ...); get a new one with: {token_command}"]
    print("\n".join(lines), file=out, flush=True)


async def graceful_stop(app: web.Application) -> None:
    """Take no new hands, let running ones end within the grace time, void the rest, then drop clients.

    Runs while clients are still connected (``serve`` calls it on SIGTERM/SIGINT before
    aiohttp closes connections); as an ``on_shutdown`` hook it is a no-op the second time.
    """
    if app[STOPPED].is_set():
        return
    app[STOPPED].set()
    sio = app[SIO]
    if GATEWAY in app:
        gateway = app[GATEWAY]
        gateway.accepting = False
        await sio.emit(protocol.EV_NOTICE, with_say({"level": "warning", "message": told(
            "the server is shutting down: no new hands; a hand in progress finishes or is voided")}))
    if TABLES in app:
        await app[TABLES].stop_all(app[CONFIG].shutdown_grace)
    for sid in list(app[GATEWAY].identities) if GATEWAY in app else []:
        await sio.disconnect(sid)
    # Let the disconnections reach the clients and their websockets close (a few ms) before
    # aiohttp's own shutdown starts: from then on it waits out its timeout, twice, per websocket.
    deadline = asyncio.get_running_loop().time() + DISCONNECT_SECONDS
    while edge.open_connections(sio) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)


def runner_for(app: web.Application) -> web.AppRunner:
    """The app's runner, with the idle timeout of kept-alive connections (PITFALLS 7: bounded shutdown)."""
    return web.AppRunner(app, handle_signals=False, shutdown_timeout=5, keepalive_timeout=app[CONFIG].idle_timeout)


def guard(app: web.Application, runner: web.AppRunner) -> None:
    """Put the connection guard (cap per address, header timeout) on a set-up runner's server."""
    assert runner.server is not None, "set the runner up first"
    app[GUARD].install(runner.server)


async def serve(config: ServerConfig, *, announce: TextIO = sys.stdout, sock: socket.socket | None = None,
                ownership: Ownership | None = None, token_command: str = TOKEN_COMMAND) -> None:
    """Serve until SIGINT/SIGTERM, then stop gracefully (PITFALLS 7: connections closed by us, bounded).

    The port is taken first, then the database is claimed, and only then recovered: a
    second server on a busy port or an owned database stops having touched nothing.
    ``hcf-server serve`` does both before it even imports this module (``sock``,
    ``ownership``), so that a refusal comes at once.
    """
    sock = sock or listening_socket(config.host, config.port, database_url=config.resolved_database_url())
    port = sock.getsockname()[1]
    app = build_app(config, announce=announce, port=port, ownership=ownership, token_command=token_command)
    loop = asyncio.get_running_loop()
    # at the descriptor limit every failed accept() is reported: once per interval is enough
    loop.set_exception_handler(RepeatFilter(config.log_repeat_seconds))
    runner = runner_for(app)
    try:
        await runner.setup()
        guard(app, runner)
    except BaseException:
        sock.close()
        await runner.cleanup()
        raise
    await web.SockSite(runner, sock).start()
    gc_policy = install_gc_policy(config.gc_freeze, config.gc_sweep_seconds)
    log.info("listening", host=config.host, port=port)
    print(f"serving on http://{config.host}:{port} (stop with Ctrl-C or SIGTERM)", file=announce, flush=True)
    await start_web_site(app, runner, port, announce)
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
        log.info("stopping", grace_seconds=config.shutdown_grace)
        await graceful_stop(app)
    finally:
        await runner.cleanup()
        if gc_policy is not None:
            gc_policy.uninstall()
        log.info("stopped")


async def start_web_site(app: web.Application, runner: web.AppRunner, main_port: int, announce: TextIO,
                         sock: socket.socket | None = None) -> int | None:
    """Serve the same app on the web port too (``web_port``; 0: not at all); the port, or None.

    A busy web port does not stop the server: the pages are on the main port as well, and
    the announcement says where. ``sock``: a socket already listening (tests).
    """
    config = app[CONFIG]
    if sock is None and (config.web_port == 0 or config.web_port == main_port):
        print(f"web: http://{config.host}:{main_port}/", file=announce, flush=True)
        return None
    try:
        sock = sock or listening_socket(config.host, config.web_port)
    except PortUnavailable as exc:
        log.warning("web_port_unavailable", port=config.web_port, reason=str(exc))
        print(f"web: port {config.web_port} is not available ({exc}); the pages are served at "
              f"http://{config.host}:{main_port}/", file=announce, flush=True)
        return None
    await web.SockSite(runner, sock).start()
    web_port = int(sock.getsockname()[1])
    app[WEB].port = web_port
    log.info("listening_web", host=config.host, port=web_port)
    print(f"web: http://{config.host}:{web_port}/", file=announce, flush=True)
    return web_port


def run(config: ServerConfig) -> None:
    """Serve until SIGINT/SIGTERM."""
    asyncio.run(serve(config))
