"""The PostgreSQL backend: the store, the live state with its LISTEN/NOTIFY feed, and the schema migrations."""
