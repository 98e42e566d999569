"""bench/sink.py's frames, without a server: what it writes is a masked frame, what it reads is split whole."""

from __future__ import annotations

import struct

import engineio
from hypothesis import given
from hypothesis import strategies as st

from bench.sink import client_frame, split_frames
from server.transport.edge import websocket_frame
from server.transport.packets import TextPacket


def unmask(frame: bytes) -> str:
    size, at = frame[1] & 0x7F, 2
    if size == 126:
        size, at = struct.unpack_from("!H", frame, 2)[0], 4
    elif size == 127:
        size, at = struct.unpack_from("!Q", frame, 2)[0], 10
    mask, payload = frame[at:at + 4], frame[at + 4:at + 4 + size]
    return bytes(b ^ mask[i % 4] for i, b in enumerate(payload)).decode()


@given(st.text(max_size=70_000))
def test_a_client_frame_is_masked_and_unmasks_to_its_text(text: str) -> None:
    frame = client_frame(text)
    assert frame[0] == 0x81
    assert frame[1] & 0x80, "masked"
    assert unmask(frame) == text


@given(st.lists(st.text(max_size=300), max_size=20), st.integers(1, 64))
def test_the_servers_frames_split_whole_however_the_bytes_arrive(texts: list[str], chunk: int) -> None:
    wire = b"".join(websocket_frame([engineio.packet.Packet(engineio.packet.MESSAGE, t)]) or b"" for t in texts)
    buffer, got = bytearray(), []
    for start in range(0, len(wire), chunk):
        buffer += wire[start:start + chunk]
        got += [payload.decode() for _opcode, payload in split_frames(buffer)]
    assert got == ["4" + t for t in texts]
    assert not buffer


def test_a_text_packet_is_what_the_split_reads() -> None:
    packet = TextPacket(2, data=["table_update", {"seq": 1}])
    wire = websocket_frame([engineio.packet.Packet(engineio.packet.MESSAGE, packet.encode())])
    assert wire is not None
    assert split_frames(bytearray(wire)) == [(1, b'42["table_update",{"seq":1}]')]
