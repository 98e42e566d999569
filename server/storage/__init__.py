"""The ports of the table and the transport, implemented on the database, one module a port.

* :mod:`server.storage.tables`: the table's storage (commit a batch, create and load
  tables, void the hands a crash interrupted);
* :mod:`server.storage.accounts`: the transport's accounts (identify, register, log in,
  grant chips, account information, host tokens);
* :mod:`server.storage.hands`: finished hands as everyone may see them.

These are the only modules that know both the persistence package and the ones above it;
``server/bindings.py`` composes them into the one object the composition root hands out.
"""
