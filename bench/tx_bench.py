"""What an empty SQLite write transaction costs, three ways (docs/benchmarks.md, third round).

    .venv/bin/python bench/tx_bench.py [--transactions 3000]

Each transaction inserts one row, on the store's own engine (``server/persistence/engines.py``):
through the pool (``engine.begin()``, as every write transaction did before the third round),
on one kept connection (``connection.begin()``), and begun and committed on the ``sqlite3``
connection itself (what ``Database`` does now). Prints microseconds per transaction.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from sqlalchemy.engine import make_url

from server.persistence.engines import create_engine, sqlite3_connection


async def run(count: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="hcf-tx-") as tmp:
        engine = create_engine(make_url(f"sqlite+aiosqlite:///{Path(tmp) / 'tx.db'}"), "NORMAL")
        async with engine.begin() as conn:
            await conn.exec_driver_sql("CREATE TABLE t (a INTEGER)")
        out: dict[str, float] = {}
        started = time.perf_counter()
        for i in range(count):
            async with engine.begin() as conn:
                raw = sqlite3_connection((await conn.get_raw_connection()).driver_connection)
                assert raw is not None
                raw.execute("INSERT INTO t VALUES (?)", (i,))
        out["pool_us"] = (time.perf_counter() - started) / count * 1e6
        kept = await engine.connect()
        raw = sqlite3_connection((await kept.get_raw_connection()).driver_connection)
        assert raw is not None
        started = time.perf_counter()
        for i in range(count):
            async with kept.begin():
                raw.execute("INSERT INTO t VALUES (?)", (i,))
        out["kept_connection_us"] = (time.perf_counter() - started) / count * 1e6
        started = time.perf_counter()
        for i in range(count):
            raw.execute("BEGIN IMMEDIATE")
            raw.execute("INSERT INTO t VALUES (?)", (i,))
            raw.execute("COMMIT")
        out["sqlite3_us"] = (time.perf_counter() - started) / count * 1e6
        await kept.close()
        await engine.dispose()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--transactions", type=int, default=3000)
    args = parser.parse_args()
    for name, value in asyncio.run(run(args.transactions)).items():
        print(f"{name:20} {value:8.1f}")


if __name__ == "__main__":
    main()
