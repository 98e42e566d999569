"""The Socket.IO packet our server encodes: JSON text only.

python-socketio walks every payload it builds a packet for, looking for ``bytes``
to send as binary attachments. Nothing we send is binary (protocol v2 payloads
are JSON), and with one update per viewer per command that walk was the largest
single cost of a hand in the burst benchmark (about a fifth of the server's
profiled time, docs/benchmarks.md, round 4). Packets are decoded as before: a
client that sends a binary event is still read (and refused) by the same code.
"""

from __future__ import annotations

import socketio


class TextPacket(socketio.packet.Packet):  # type: ignore[misc]  # the library ships no types (PITFALLS 16)
    """A packet whose payload is never searched for binary parts (ours never has any)."""

    uses_binary_events = False
