"""Several server processes sharing the tables, on PostgreSQL and Redis (docs/scaling.md).

Only used when ``redis_url`` is set: python-socketio's Redis manager carries
broadcasts between processes; a lease row in the database (``table_lease``)
makes one process at a time the owner of each table, the only one running its
:class:`~server.table.runner.TableRunner`; commands for a table travel to its
owner over Redis pub/sub (:mod:`server.cluster.node`).
"""
