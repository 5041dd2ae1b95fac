"""The addresses other tablets on the network can open, and their QR code."""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from functools import lru_cache

import segno

SIOCGIFADDR = 0x8915


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other devices can reach (no loopback).

    Read from the network interfaces (no traffic is sent); falls back to the
    host name's addresses where interfaces cannot be read.
    """
    found: list[str] = []
    try:
        names = [name for _i, name in socket.if_nameindex()]
    except OSError:
        names = []
    for name in names:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR,
                                     struct.pack("256s", name[:15].encode()))
            found.append(socket.inet_ntoa(packed[20:24]))
        except OSError:
            continue
    if not found:
        try:
            found = [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None,
                                                                socket.AF_INET)]
        except OSError:
            found = []
    out = []
    for addr in found:
        ip = ipaddress.ip_address(addr)
        if not ip.is_loopback and not ip.is_link_local and addr not in out:
            out.append(addr)
    # Private LAN addresses first: that is where the other tablets are.
    return sorted(out, key=lambda a: not ipaddress.ip_address(a).is_private)


def is_loopback(host: str) -> bool:
    """True for a name or address (no port, no brackets) of this machine's loopback, on
    which no other device reaches the server."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.lower() == "localhost"


def join_urls(port: int, scheme: str = "http") -> list[str]:
    """The URLs a second tablet can open to reach this server."""
    return [f"{scheme}://{a}:{port}/" for a in lan_addresses()]


@lru_cache(maxsize=64)   # drawing a QR code takes milliseconds; the addresses rarely change
def qr_svg(url: str, scale: int = 6) -> str:
    """An inline SVG QR code of *url*, drawn to fill the box the page gives it (a viewBox,
    no fixed size: a fixed one left the code small in the corner of a larger box)."""
    return segno.make(url, error="m").svg_inline(scale=scale, dark="#1b1b1b", light="#fff",
                                                 border=2, omitsize=True)
