"""The floor: a minimal python-socketio server that acknowledges every message at once.

Same library versions, same ``AsyncServer`` options and the same event loop as
``hcf-server serve`` (``server.app.build_app``), but no table, no database and no
logging: what is left is the cost of Socket.IO itself on this machine.

    .venv/bin/python bench/floor_server.py --port 8790

Prints ``ready`` on stdout once it listens; stops on SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from typing import Any

import socketio
from aiohttp import web


def build(ping_interval: float = 5.0, ping_timeout: float = 5.0) -> web.Application:
    """The floor application (options as in ``server.app.build_app``)."""
    app = web.Application(client_max_size=64 * 1024)
    sio = socketio.AsyncServer(
        async_mode="aiohttp",
        async_handlers=False,
        ping_interval=ping_interval,
        ping_timeout=ping_timeout,
        transports=["websocket"],
        max_http_buffer_size=64 * 1024,
        cors_allowed_origins=None,
    )
    sio.attach(app)

    async def echo(_sid: str, _payload: Any = None) -> dict[str, Any]:
        return {"ok": True}

    sio.on("echo", echo)
    return app


async def serve(port: int) -> None:
    runner = web.AppRunner(build(), handle_signals=False, shutdown_timeout=1)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    print("ready", flush=True)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, default=8790)
    args = parser.parse_args()
    asyncio.run(serve(args.port))


if __name__ == "__main__":
    main()
