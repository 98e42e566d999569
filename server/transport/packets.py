"""The Socket.IO packet our server encodes: JSON text only.

python-socketio walks every payload it builds a packet for, looking for ``bytes``
to send as binary attachments. Nothing we send is binary (protocol v2 payloads
are JSON), and with one update per viewer per command that walk was the largest
single cost of a hand in the burst benchmark (about a fifth of the server's
profiled time, docs/benchmarks.md, round 4). Packets are decoded as before: a
client that sends a binary event is still read (and refused) by the same code.

The payloads are encoded by orjson, the library's next largest cost after the walk
(round 5 in docs/benchmarks.md). Decoding stays with the library's own parser
(``engineio.json``: the standard library's, refusing integers of over 100 digits, whose
parsing would cost time that grows with the square of their length): it reads what a
client may send (a number too large for 64 bits, say) and lets our request models refuse
it in our words, where orjson would reject the packet outright.
"""

from __future__ import annotations

import engineio.json
import orjson
import socketio


class _Json:
    """The ``json`` a packet encodes and decodes with: orjson out, the library's own parser in."""

    @staticmethod
    def dumps(data: object, **_options: object) -> str:  # separators: orjson writes none of the optional spaces
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()

    loads = staticmethod(engineio.json.loads)


class TextPacket(socketio.packet.Packet):  # type: ignore[misc]  # the library ships no types (PITFALLS 16)
    """A packet whose payload is never searched for binary parts (ours never has any), encoded by orjson."""

    uses_binary_events = False
    json = _Json
