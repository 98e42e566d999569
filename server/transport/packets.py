"""The Socket.IO packet our server encodes: JSON text only.

python-socketio walks every payload it builds a packet for, looking for ``bytes``
to send as binary attachments. Nothing we send is binary (protocol v2 payloads
are JSON), and with one update per viewer per command that walk was the largest
single cost of a hand in the burst benchmark (about a fifth of the server's
profiled time, docs/benchmarks.md, round 4). Packets are decoded as before: a
client that sends a binary event is still read (and refused) by the same code.

The payloads are encoded by orjson, the library's next largest cost after the walk
(round 5 in docs/benchmarks.md). Decoding stays with the standard library's parser: it
reads whatever a client may send (a number too large for 64 bits, say) and lets our
request models refuse it in our words, where orjson would reject the packet outright.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
import socketio


class _Json:
    """The ``json`` a packet encodes and decodes with: orjson out, the standard library in."""

    @staticmethod
    def dumps(data: Any, **_options: Any) -> str:  # separators: orjson writes none of the optional spaces
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()

    loads = staticmethod(json.loads)


class TextPacket(socketio.packet.Packet):  # type: ignore[misc]  # the library ships no types (PITFALLS 16)
    """A packet whose payload is never searched for binary parts (ours never has any), encoded by orjson."""

    uses_binary_events = False
    json = _Json
