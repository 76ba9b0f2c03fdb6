"""The addresses people reach the server by, and the base of every link the page shows.

Listening on loopback (``127.0.0.1``, the default), only this machine can open the game.  Listening
on every address (``0.0.0.0`` or ``::``), the machines of the local network open it by this one's
address there, read from the system's network interfaces: nothing is sent, no name is looked up.
Behind a reverse proxy, the address people really reach (``https://uno.example``) is the public URL.

The links a page shows (the invite link, its QR code, replay links) start with the *reachable
base*: the public URL when there is one; else, for a page opened on this machine through a loopback
address while the server listens on every address, its first address on the network (so that the
host at ``127.0.0.1`` invites friends with a link they can open); else the page's own origin.

>>> parse_public_url("HTTPS://Uno.Example/")
'https://uno.example'
>>> url_of("http", "2001:db8::5", 8000), url_of("https", "uno.example", 443)
('http://[2001:db8::5]:8000', 'https://uno.example')
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import socket
import struct
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from unokit.web.guard import LOOPBACK_NAMES, WILDCARD_ADDRESSES, parse_host

__all__ = [
    "Site",
    "is_loopback",
    "machine_addresses",
    "origin_of",
    "parse_public_url",
    "qr_svg",
    "url_of",
]

VIRTUAL_INTERFACES = ("docker", "br-", "veth", "virbr", "cni", "podman", "lxcbr", "lxdbr", "vmnet")
"""Interfaces whose addresses the local network cannot reach (bridges to containers and virtual machines)."""

_SIOCGIFADDR = 0x8915 if sys.platform.startswith("linux") else 0xC0206921
"""The ioctl that reads an interface's IPv4 address (Linux; the BSDs and macOS)."""


def url_of(scheme: str, host: str, port: int | None) -> str:
    """``scheme://host:port``, an IPv6 address in brackets, the scheme's own port left out."""
    shown = f"[{host}]" if ":" in host else host
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{shown}" if port in (None, default) else f"{scheme}://{shown}:{port}"


def parse_public_url(text: str) -> str:
    """The address people reach the server by, as ``scheme://host[:port]`` (lower case, the
    scheme's own port left out): ``http`` or ``https``, a host, a port or not, no path but ``/``,
    no query, fragment or user; :class:`ValueError` otherwise."""
    wrong = ValueError(
        f"--public-url takes an http or https address with a host and no path, such as https://uno.example, "
        f"not {text!r}"
    )
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        raise wrong from None
    if (
        parts.scheme.lower() not in ("http", "https")
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or "?" in text
        or "#" in text
        or parts.username is not None
        or parts.password is not None
    ):
        raise wrong
    authority = parts.netloc.rsplit("@", 1)[-1]
    host = parse_host(authority)
    if host is None or port == 0:
        raise wrong
    return url_of(parts.scheme.lower(), host[0], host[1])


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or address, no port) names this machine's loopback."""
    if host in LOOPBACK_NAMES:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def _network_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether others may reach this machine by ``address``: not loopback, link-local, unspecified or multicast."""
    return not (address.is_loopback or address.is_link_local or address.is_unspecified or address.is_multicast)


def _interface_ipv4(name: str) -> str | None:
    """The IPv4 address of the interface ``name``, asked of the kernel (an ioctl on a socket that is
    never bound, connected or written to); None without one, or where the system cannot tell."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            answer = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
        except OSError:
            return None
    return socket.inet_ntoa(answer[20:24])


def _default_route_interfaces() -> list[str]:
    """The interfaces of the default route (Linux's routing table; empty where it cannot be read)."""
    try:
        lines = Path("/proc/net/route").read_text().splitlines()[1:]
    except OSError:
        return []
    return [fields[0] for fields in (line.split() for line in lines) if len(fields) > 1 and fields[1] == "00000000"]


def _interface_ipv6() -> list[tuple[str, str]]:
    """(interface, address) of every IPv6 address (Linux's ``/proc/net/if_inet6``; empty elsewhere)."""
    try:
        lines = Path("/proc/net/if_inet6").read_text().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        fields = line.split()
        if len(fields) == 6 and len(fields[0]) == 32:
            with contextlib.suppress(ValueError):
                found.append((fields[5], str(ipaddress.IPv6Address(bytes.fromhex(fields[0])))))
    return found


def _host_name_addresses() -> list[str]:
    """The addresses the system gives for this machine's own name, where interfaces cannot be read."""
    with contextlib.suppress(OSError, UnicodeError):
        return [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)]
    return []


def machine_addresses(ipv6: bool = False) -> list[str]:
    """This machine's addresses on its networks, the most likely one for friends first: those of the
    interfaces of the default route, then private addresses, then the others; loopback, link-local and
    the bridges of containers and virtual machines left out.  IPv4 only, unless ``ipv6``; IPv4 first.

    Read from the system (its interfaces, else the addresses of its host name): nothing is sent."""
    try:
        interfaces = [name for _, name in socket.if_nameindex()]
    except OSError:
        interfaces = []
    found: list[tuple[str, str]] = [(name, text) for name in interfaces if (text := _interface_ipv4(name)) is not None]
    if ipv6:
        found += _interface_ipv6()
    if not any(_network_address(ipaddress.ip_address(text)) for _, text in found):
        found += [("", text) for text in _host_name_addresses()]
    default = _default_route_interfaces()
    ranked: dict[str, tuple[int, int, int, int]] = {}
    for order, (name, text) in enumerate(found):
        address = ipaddress.ip_address(text.split("%")[0])
        if not _network_address(address) or name.startswith(VIRTUAL_INTERFACES):
            continue
        if isinstance(address, ipaddress.IPv6Address) and (not ipv6 or address.ipv4_mapped is not None):
            continue
        rank = (address.version, 0 if name in default else 1, 0 if address.is_private else 1, order)
        ranked.setdefault(str(address), rank)
    return sorted(ranked, key=lambda address: ranked[address])


@dataclass(frozen=True)
class Site:
    """Where the server listens (``host``, ``port``; port 0: not known yet) and the public URL
    people reach it by (None: none given)."""

    host: str = "127.0.0.1"
    port: int = 0
    public_url: str | None = None

    @property
    def everywhere(self) -> bool:
        """Whether the server listens on every address."""
        return self.host.strip("[]") in WILDCARD_ADDRESSES

    @property
    def loopback_only(self) -> bool:
        return is_loopback(self.host.strip("[]"))

    def local_url(self) -> str:
        """The address to open on this machine."""
        host = self.host.strip("[]")
        if self.everywhere:
            host = "::1" if ":" in host else "127.0.0.1"
        return url_of("http", host, self.port) + "/"

    def network_urls(self) -> list[str]:
        """The addresses the machines of the local network open, when the server listens on every address."""
        if not self.everywhere:
            return []
        addresses = machine_addresses(ipv6=":" in self.host)
        return [url_of("http", address, self.port) + "/" for address in addresses]

    def allowed_hosts(self) -> tuple[str, ...]:
        """The host the public URL names (on any port: the proxy may pass it on with another)."""
        if self.public_url is None:
            return ()
        host = parse_host(urlsplit(self.public_url).netloc)
        assert host is not None, "a parsed public URL has a host"
        return (f"[{host[0]}]" if ":" in host[0] else host[0],)

    def reachable_base(self, host_header: str | None, peer: str | None) -> str | None:
        """The base of the links a page shows, for a page asked with the ``Host`` header ``host_header``
        by ``peer``: the public URL; else, for a page of this machine opened through loopback while the
        server listens on every address, its first address on the network; else None (the page's origin)."""
        if self.public_url is not None:
            return self.public_url
        if not self.everywhere or peer is None or not is_loopback(peer):
            return None
        asked = parse_host(host_header) if host_header is not None else None
        if asked is None or not is_loopback(asked[0]):
            return None
        addresses = machine_addresses(ipv6=":" in self.host)
        return url_of("http", addresses[0], asked[1] or 80) if addresses else None

    def on_network(self, base: str | None) -> bool:
        """Whether ``base`` (of :meth:`reachable_base`) is this machine's address on the local network."""
        return base is not None and base != self.public_url

    def local_only(self, host_header: str | None, peer: str | None, allowed: Iterable[str] = ()) -> bool:
        """Whether a page of this machine shows links no other machine can open: the server listens on
        loopback only, no public URL or other host name was given, and the page came through loopback."""
        if self.public_url is not None or not self.loopback_only or tuple(allowed):
            return False
        asked = parse_host(host_header) if host_header is not None else None
        return asked is not None and is_loopback(asked[0]) and peer is not None and is_loopback(peer)

    def banner(self) -> list[str]:
        """What ``unokit serve`` prints at start: where to open the game here, and how others get in."""
        lines = [f"open {self.local_url()} in a browser (Ctrl-C stops the server)"]
        if self.public_url is not None:
            lines.append(f"everyone else opens {self.public_url}/ (the invite links and QR codes use that address)")
        elif self.everywhere:
            urls = self.network_urls()
            if urls:
                lines.append(
                    f"friends on the same network open {urls[0]} (the invite links and QR codes use that address)"
                )
                if len(urls) > 1:
                    lines.append(f"this machine's other addresses: {', '.join(urls[1:])}")
            else:
                lines.append(
                    f"no network address of this machine was found: friends on the same network open "
                    f"http://<this machine's address>:{self.port}/"
                )
        elif self.loopback_only:
            lines.append(
                "only this machine can open it. To let friends on the same network in, serve with --host 0.0.0.0; "
                "behind a reverse proxy with HTTPS, name the address people reach with --public-url https://DOMAIN"
            )
        else:
            lines.append("friends on the same network open the same address")
        return lines


def origin_of(scheme: str, host_header: str | None) -> str | None:
    """The origin a request was addressed to (its scheme, and the host and port of its ``Host``)."""
    asked = parse_host(host_header) if host_header is not None else None
    if asked is None:
        return None
    secure = scheme in ("https", "wss")
    return url_of("https" if secure else "http", asked[0], asked[1])


def qr_svg(text: str) -> bytes:
    """A QR code of ``text`` as SVG (``segno``): black on white with the standard quiet zone of four
    modules, error correction M (readable on a screen seen at an angle), sized by its viewBox only so
    that the page sets its size."""
    import segno

    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", border=4, dark="#000", light="#fff", xmldecl=False, omitsize=True)
    return out.getvalue()
