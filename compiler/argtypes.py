"""The command line's argument types: each turns what was typed into a value or an argparse error that
says what was expected."""

from __future__ import annotations

import argparse
import datetime as dt


def site_url(text: str) -> str:
    """An absolute http(s) URL, ending in "/" (the site's root)."""
    from urllib.parse import urlparse
    if not text:
        return ""  # not given: the sitemap lists no addresses
    u = urlparse(text)
    if u.scheme not in ("http", "https") or not u.netloc or any(c in text for c in "\"'<> \t\n"):
        raise argparse.ArgumentTypeError(f"{text!r}: expected the site's address, e.g. https://example.org/navlaw/")
    return text if text.endswith("/") else text + "/"


def date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None
