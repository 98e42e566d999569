"""A test-only stand-in for the web port (issue 17, W1's side): serves server/web/static/ and invites on the app.

Run as ``python -m tests.web.shim PORT DATABASE_URL TABLE_DEFAULTS_JSON``. It builds the real
server with ``build_app`` and adds only what the pages need of W1's contract: ``/``, the SPA
routes, ``/static/{path}`` (gzip, with the contract's CSP), ``POST /api/invites`` and
``POST /api/invites/redeem``. It is replaced by the real web port at merge.
"""

from __future__ import annotations

import asyncio
import io
import json
import mimetypes
import re
import secrets
import sys
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from server.app import build_app, guard, runner_for
from server.config import ServerConfig

STATIC = Path(__file__).resolve().parents[2] / "server" / "web" / "static"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' ws: wss:")
PAGES = ["/", "/join", "/table/{name}", "/watch/{name}", "/host", "/history/{name}", "/drill/{name}"]
INVITES = web.AppKey("invites", dict)
HOST = web.AppKey("host_token", list)


class Announce(io.StringIO):
    """What the server prints at start, kept (for its host token) and passed on to stdout."""

    def write(self, text: str) -> int:
        sys.stdout.write(text)
        sys.stdout.flush()
        return super().write(text)


def _file(path: Path) -> web.Response:
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if path.suffix == ".js":
        kind = "text/javascript"
    response = web.Response(body=path.read_bytes(), content_type=kind,
                            headers={"Content-Security-Policy": CSP, "Cache-Control": "no-cache"})
    response.enable_compression(web.ContentCoding.gzip)
    return response


async def index(_request: web.Request) -> web.Response:
    return _file(STATIC / "index.html")


async def static(request: web.Request) -> web.Response:
    path = (STATIC / request.match_info["path"]).resolve()
    if STATIC not in path.parents or not path.is_file():
        raise web.HTTPNotFound()
    return _file(path)


async def invite(request: web.Request) -> web.Response:
    host_token = request.app[HOST][0]
    if request.headers.get("Authorization") != f"Bearer {host_token}":
        return web.json_response({"ok": False, "error": {"code": "auth/not_host", "message": "not the host"}},
                                 status=403)
    body = await request.json()
    token = secrets.token_urlsafe(24)
    request.app[INVITES][token] = {"table": body["table"], "role": body["role"]}
    base = f"{request.scheme}://{request.host}"
    return web.json_response({"ok": True, "id": len(request.app[INVITES]), "url": f"{base}/join#{token}",
                              "table": body["table"], "role": body["role"]})


async def redeem(request: web.Request) -> web.Response:
    body = await request.json()
    found = request.app[INVITES].get(body.get("token"))
    if found is None:
        return web.json_response({"ok": False, "error": {"code": "auth/token_invalid",
                                                          "message": "that invite is not valid"}}, status=401)
    answer: dict[str, Any] = {"ok": True, "role": found["role"], "table": found["table"], "name": body["name"],
                              "account": None, "token": None, "host_token": None}
    if found["role"] == "floor":
        answer["host_token"] = request.app[HOST][0]
    else:
        base = f"http://{request.host}"
        async with aiohttp.ClientSession() as http, http.post(
                f"{base}/api/register", json={"name": body["name"], "password": secrets.token_hex(12)}) as r:
            account = await r.json()
        if not account.get("ok"):
            return web.json_response(account, status=r.status)
        answer.update(account=account["account_id"], token=account["token"])
    return web.json_response(answer)


async def main(port: int, database_url: str, defaults: dict[str, Any]) -> None:
    config = ServerConfig(port=port, database_url=database_url, table_defaults=defaults,
                          ping_interval=2.0, ping_timeout=2.0)
    announce = Announce()
    app = build_app(config, announce=announce, port=port)
    app[INVITES] = {}
    app[HOST] = []
    for page in PAGES:
        app.router.add_get(page, index)
    app.router.add_get("/static/{path:.+}", static)
    app.router.add_post("/api/invites", invite)
    app.router.add_post("/api/invites/redeem", redeem)
    runner = runner_for(app)
    await runner.setup()
    guard(app, runner)
    found = re.search(r"host token \(shown once\): (\S+)", announce.getvalue())
    app[HOST].append(found.group(1) if found else "")
    await web.TCPSite(runner, "127.0.0.1", port).start()
    print("shim serving", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])))
