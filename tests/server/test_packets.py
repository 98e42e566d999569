"""The server's Socket.IO packets are JSON text, built without the library's search of each payload for bytes."""

from __future__ import annotations

import socketio

from server.app import SIO, build_app
from server.config import ServerConfig
from server.transport.packets import TextPacket


def test_a_text_packet_encodes_as_the_library_does_for_json() -> None:
    data = ["table_update", {"table": "main", "seq": 3, "events": [{"seq": 3, "event": {"type": "x"}}]}]
    ours = TextPacket(socketio.packet.EVENT, data=data)
    theirs = socketio.packet.Packet(socketio.packet.EVENT, data=data)
    assert ours.encode() == theirs.encode()
    assert TextPacket(encoded_packet=theirs.encode()).data == data


def test_the_server_builds_its_packets_as_text(tmp_path: object) -> None:
    app = build_app(ServerConfig(database_url=f"sqlite:///{tmp_path}/hcf.db"))
    assert app[SIO].packet_class is TextPacket
