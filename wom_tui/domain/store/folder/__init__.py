"""The data folder backend: its files and lock, the store, the live state and the change feed."""
