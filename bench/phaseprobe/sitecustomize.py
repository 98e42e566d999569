"""Phase stamps for the benchmark, from outside the server's code (opt-in, bench only).

Put this folder on ``PYTHONPATH`` and set ``HCF_BENCH_PHASES=<file>``: Python imports
this module at start-up, and it wraps, in the server process only,

- python-socketio's ``AsyncServer._handle_eio_message`` (a Socket.IO packet decoded off
  the websocket: the end of *receive*) and ``AsyncServer._trigger_event`` (the request
  handler, from its start to its return: the server's part of the request);
- every ``commit(self, table, hand_id, batch)`` coroutine method of the classes defined
  in the ``server`` package's modules as they are imported (the storage's commit of a
  table's records: *commit*), whatever module the tree puts it in.

It also times, while a request is open, what builds the requester's update
(``UpdateBuilder.start``, ``BatchUpdates.for_account`` in ``server.table.updates``: *build*)
and the queueing of its acknowledgement (python-socketio's ``_send_packet`` of the ACK:
its encoding, *encode*); a batch's own COMMIT (``end_batch``) counts as *commit*.

Each request handled writes one JSON line to the file: ``{"event", "recv", "start",
"done", "commit_s", "commits", "build_s", "encode_s", "acked"}``, the times from ``time.perf_counter()`` (the system's
monotonic clock on Linux: the same clock in the benchmark's process, so its send and
answer times line up with these). ``bench/server_bench.py`` matches each action to its
line (one action at a time) and splits its round trip into receive, decide (the
handler's time less the commit: parsing, the table's queue, the rules, the views),
commit and answer (the handler's return to the acknowledgement reaching the client).
Nothing here runs unless the variable is set; the server's code is not changed.

``HCF_BENCH_EXPERIMENT=no-binary-check`` (``bench/server_bench.py --experiment``) instead
tries one change to the server from outside, to measure it before anyone makes it:
python-socketio's ``Packet`` walks every payload it sends, item by item, looking for
bytes (``data_is_binary``), which for protocol v2's nested updates was the largest
single cost in a profile of the burst; ``uses_binary_events = False`` skips that walk
(our payloads are JSON, never bytes). In the server it would be one line: a
``Packet`` subclass with that attribute passed as ``AsyncServer(serializer=...)``.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import inspect
import json
import os
import sys
import time
from typing import Any

_PATH = os.environ.get("HCF_BENCH_PHASES")
_EXPERIMENT = os.environ.get("HCF_BENCH_EXPERIMENT", "")


class _Stamps:
    last_recv = 0.0
    commit_s = 0.0
    commits = 0
    build_s = 0.0  # building the requester's update (inside the handler)
    open = False  # between a request's handler starting and its acknowledgement being queued
    pending: dict[str, Any] | None = None  # the request's line, written once its acknowledgement is queued
    out: Any = None


def _write(record: dict[str, Any]) -> None:
    if _Stamps.out is None:
        _Stamps.out = open(_PATH, "a", buffering=1)  # noqa: SIM115 (open for the process's life)
    _Stamps.out.write(json.dumps(record) + "\n")


def _wrap_socketio(module: Any) -> None:
    server = module.AsyncServer
    handle, trigger = server._handle_eio_message, server._trigger_event

    async def handle_eio_message(self: Any, eio_sid: Any, data: Any) -> Any:
        _Stamps.last_recv = time.perf_counter()
        return await handle(self, eio_sid, data)

    async def trigger_event(self: Any, event: str, namespace: Any, *args: Any) -> Any:
        recv, start = _Stamps.last_recv, time.perf_counter()
        if _Stamps.pending is not None:  # a request without an acknowledgement
            _write(_Stamps.pending)
            _Stamps.pending = None
        _Stamps.commit_s, _Stamps.commits, _Stamps.build_s = 0.0, 0, 0.0
        _Stamps.open = event not in ("connect", "disconnect")
        try:
            return await trigger(self, event, namespace, *args)
        finally:
            if event not in ("connect", "disconnect"):
                _Stamps.pending = {"event": event, "recv": recv, "start": start, "done": time.perf_counter(),
                                   "commit_s": _Stamps.commit_s, "commits": _Stamps.commits,
                                   "build_s": _Stamps.build_s}

    send_packet = server._send_packet

    async def timed_send_packet(self: Any, eio_sid: Any, pkt: Any) -> Any:
        started = time.perf_counter()
        try:
            return await send_packet(self, eio_sid, pkt)
        finally:
            if pkt.packet_type == 3 and _Stamps.pending is not None:  # ACK: encoded and queued for the writer
                acked = time.perf_counter()
                _write({**_Stamps.pending, "encode_s": acked - started, "acked": acked})
                _Stamps.pending, _Stamps.open = None, False

    server._handle_eio_message, server._trigger_event = handle_eio_message, trigger_event
    server._send_packet = timed_send_packet


def _wrap_builds(module: Any) -> None:
    """Time what builds a requester's update while its request is open (``build``)."""
    for cls_name, name in (("UpdateBuilder", "start"), ("BatchUpdates", "for_account")):
        cls = getattr(module, cls_name, None)
        method = getattr(cls, name, None) if cls is not None else None
        if method is None:
            continue

        def wrapped(*args: Any, _method: Any = method, **kwargs: Any) -> Any:
            if not _Stamps.open:
                return _method(*args, **kwargs)
            started = time.perf_counter()
            try:
                return _method(*args, **kwargs)
            finally:
                _Stamps.build_s += time.perf_counter() - started

        setattr(cls, name, wrapped)


def _wrap_commits(module: Any) -> None:
    for value in list(vars(module).values()):
        if not inspect.isclass(value) or value.__module__ != module.__name__:
            continue
        for name, params in (("commit", ["self", "table", "hand_id", "batch"]), ("end_batch", ["self", "table"])):
            method = vars(value).get(name)
            names = list(inspect.signature(method).parameters) if inspect.iscoroutinefunction(method) else []
            if names[:len(params)] == params:
                _time_commits(value, name, method)


def _time_commits(cls: Any, name: str, method: Any) -> None:
    """A table's commits: each command's, and a batch's own COMMIT (``end_batch``)."""

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        async def timed() -> Any:
            started = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                _Stamps.commit_s += time.perf_counter() - started
                _Stamps.commits += name == "commit"
        return timed()

    setattr(cls, name, wrapped)


class _Finder(importlib.abc.MetaPathFinder):
    """Wraps the modules above as they are imported."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name == "socketio.packet" and _EXPERIMENT == "no-binary-check":
            pass
        elif not _PATH or (name != "socketio.async_server" and not name.startswith("server.")):
            return None
        for finder in sys.meta_path:
            if finder is self:
                continue
            spec = getattr(finder, "find_spec", lambda *_: None)(name, path, target)
            if spec is not None and spec.loader is not None:
                break
        else:
            return None
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            if name == "socketio.packet":
                module.Packet.uses_binary_events = False
            elif name == "socketio.async_server":
                _wrap_socketio(module)
            elif name == "server.table.updates":
                _wrap_builds(module)
            else:
                _wrap_commits(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


if _PATH or _EXPERIMENT:
    sys.meta_path.insert(0, _Finder())
