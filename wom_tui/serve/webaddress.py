"""``--web HOST:PORT``, read without loading the web server (the command line checks it)."""

from __future__ import annotations


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6) as host and port; ValueError if it is not one."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ValueError(f"{address!r} is not HOST:PORT (for example 127.0.0.1:8080)")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    number = int(port)
    if not 0 <= number <= 65535:
        raise ValueError(f"{address!r}: the port must be 0-65535")
    return host, number
