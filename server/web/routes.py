"""The browser client's files, served from the package folder ``static/``.

A single-page app: ``/`` and every page route answer ``index.html``; the page's
code and styles come from ``/static/...``. Every answer carries the security
headers (no inline script, no framing, no sniffing, no Referer) and is gzipped
when the browser accepts it. Files are read once and kept (read again when their
modification time changes).
"""

from __future__ import annotations

import functools
import mimetypes
from pathlib import Path
from typing import Final

from aiohttp import web

STATIC: Final = Path(__file__).resolve().parent / "static"
INDEX: Final = "index.html"
PAGES: Final = ("/join", "/table/{name}", "/watch/{name}", "/host", "/history/{name}", "/history/{name}/{number}",
                 "/drill/{name}", "/trainees", "/trainees/{name}", "/certificate/{name}/{number}")

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
# Named here rather than left to ``mimetypes``: its table comes from the machine (/etc/mime.types),
# and a module script served as anything but JavaScript does not run.
CONTENT_TYPES: Final = {
    ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
    ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json", ".ico": "image/x-icon",
    ".txt": "text/plain", ".webmanifest": "application/manifest+json", ".wav": "audio/wav",
    ".mp3": "audio/mpeg", ".ogg": "audio/ogg", ".woff2": "font/woff2",
}
TEXT_TYPES: Final = ("text/", "application/json", "application/manifest+json", "image/svg+xml")


def content_type(name: str) -> str:
    """The Content-Type a file is served with.

    >>> content_type("app.mjs"), content_type("felt.svg"), content_type("notes.unknownext")
    ('text/javascript', 'image/svg+xml', 'application/octet-stream')
    """
    suffix = Path(name).suffix.lower()
    return CONTENT_TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"


def resolve(folder: Path, relative: str) -> Path | None:
    """The file ``relative`` names inside ``folder``, or None if it is not a file there (or escapes it).

    >>> resolve(STATIC, "../routes.py") is None, resolve(STATIC, "/etc/passwd") is None
    (True, True)
    """
    if not relative or "\\" in relative or "\x00" in relative or relative.startswith("/"):
        return None
    root = folder.resolve()
    candidate = (root / relative).resolve()
    if not candidate.is_relative_to(root) or not candidate.is_file():
        return None
    return candidate


@functools.lru_cache(maxsize=512)
def _read(path: Path, _mtime_ns: int) -> bytes:
    return path.read_bytes()  # keyed by the modification time too: an edited file is read again


def file_response(request: web.Request, path: Path) -> web.Response:
    """The file, with its type and the security headers, gzipped if the client accepts it."""
    kind = content_type(path.name)
    charset = "utf-8" if kind.startswith(TEXT_TYPES) else None
    body = _read(path, path.stat().st_mtime_ns)
    response = web.Response(body=body, content_type=kind, charset=charset, headers=SECURITY_HEADERS)
    # Pages and code change with the package: the browser asks again (a 304-free "no-cache" keeps it simple).
    response.headers["Cache-Control"] = "no-cache"
    if kind.startswith(TEXT_TYPES) and "gzip" in request.headers.get("Accept-Encoding", ""):
        response.enable_compression(web.ContentCoding.gzip)
    return response


def not_found() -> web.Response:
    """A plain 404 with the security headers."""
    return web.Response(status=404, text="not found", headers=SECURITY_HEADERS)


class StaticFiles:
    """The handlers of the page routes and of ``/static/{path}``, over one folder."""

    def __init__(self, folder: Path = STATIC) -> None:
        self.folder = folder

    async def page(self, request: web.Request) -> web.StreamResponse:
        """Any page of the single-page app: ``index.html`` (the page reads the path itself)."""
        index = resolve(self.folder, INDEX)
        return file_response(request, index) if index is not None else not_found()

    async def static(self, request: web.Request) -> web.StreamResponse:
        """One file of the folder; 404 for anything outside it."""
        path = resolve(self.folder, request.match_info["path"])
        return file_response(request, path) if path is not None else not_found()


def web_routes(folder: Path = STATIC) -> list[web.RouteDef]:
    """``GET /``, the page routes and ``GET /static/{path}``."""
    files = StaticFiles(folder)
    return [web.get("/", files.page), *(web.get(page, files.page) for page in PAGES),
            web.get("/static/{path:.+}", files.static)]
