"""Draw the web app's icons (PNG) from the favicon's design, with Chromium (Debian's, or UNOKIT_CHROMIUM).

    .venv/bin/python tools/make_icons.py

Writes into src/unokit/web/static/: ``icon-192.png`` and ``icon-512.png`` (the card on a rounded square
of the table's felt), ``icon-maskable-192.png`` and ``icon-maskable-512.png`` (full bleed, the card within
the safe circle a launcher may crop to) and ``apple-touch-icon.png`` (180 px, opaque).  The manifest
(``manifest.webmanifest``) names them; tests/test_web_links.py checks each one's size.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "src" / "unokit" / "web" / "static"
FELT = "#14352a"


def card() -> str:
    """The favicon's drawing (in its 32×32 box), without its <svg> wrapper."""
    svg = (STATIC / "favicon.svg").read_text(encoding="utf-8")
    inner = re.search(r"<svg[^>]*>(.*)</svg>", svg, re.S)
    assert inner is not None, "favicon.svg is an <svg>"
    return inner.group(1)


def icon(size: int, scale: float, corner: float) -> str:
    """An SVG of ``size`` px: the felt (corners rounded by ``corner`` of 32; 0: square) and the card at ``scale``."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="{size}" height="{size}">'
        f'<rect width="32" height="32" rx="{corner}" fill="{FELT}"/>'
        f'<g transform="translate(16 16) scale({scale}) translate(-16 -16)">{card()}</g></svg>'
    )


ICONS = {
    "icon-192.png": (192, 0.8, 7),
    "icon-512.png": (512, 0.8, 7),
    "icon-maskable-192.png": (192, 0.66, 0),
    "icon-maskable-512.png": (512, 0.66, 0),
    "apple-touch-icon.png": (180, 0.78, 0),
}


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("UNOKIT_CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"]
        )
        for name, (size, scale, corner) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            page.set_content(f'<body style="margin:0;background:transparent">{icon(size, scale, corner)}</body>')
            page.screenshot(path=str(STATIC / name), omit_background=True)
            page.close()
            print(f"wrote {name} ({size}×{size})")
        browser.close()


if __name__ == "__main__":
    main()
