"""The installed version of a library, as ``importlib.metadata.version`` gives it, without importing
``importlib.metadata`` (issue 32: importing it, with the email parser and zipfile it loads, was ~10 ms of
a build with nothing to do, ~0.1 s in all; the build cache's fingerprint asks for six versions).

The search is importlib.metadata's for a distribution on ``sys.path``: each entry in order, its children
named ``NAME-*.dist-info`` or ``NAME-*.egg-info`` (NAME normalized as PEP 503, dashes as underscores), the
first one found; the version is the ``Version`` header of its ``METADATA`` (or ``PKG-INFO``). Anything
this short path does not read exactly as importlib.metadata would — an entry of ``sys.path`` that is a
file (a zip), an ``.egg`` directory, a finder on ``sys.meta_path`` with distributions of its own, metadata
without a plain ``Version`` line — is asked of importlib.metadata itself, so the answer is always its
answer (tests/test_startup.py compares them)."""

from __future__ import annotations

import os
import re
import sys

_SEP = re.compile(r"[-_.]+")


def version(name: str) -> str | None:
    """The version of the installed distribution ``name``, or None if none is installed."""
    return versions(name)[name]


def versions(*names: str) -> dict[str, str | None]:
    """``version`` of each name, ``sys.path`` read once for all of them."""
    listed: dict[str, list[str] | None] = {}
    out: dict[str, str | None] = {}
    for name in names:
        found = _quick(name, listed)
        if isinstance(found, _Ask):
            from importlib import metadata

            try:
                found = metadata.version(name)
            except metadata.PackageNotFoundError:
                found = None
        out[name] = found
    return out


class _Ask:
    """The short path cannot tell: importlib.metadata is asked."""


_ASK = _Ask()


def _normalize(name: str) -> str:
    return _SEP.sub("-", name).lower().replace("-", "_")


def _quick(name: str, listed: dict[str, list[str] | None]) -> str | None | _Ask:
    from importlib.machinery import PathFinder

    if any(hasattr(f, "find_distributions") for f in sys.meta_path if f is not PathFinder):
        return _ASK
    wanted = _normalize(name)
    for entry in sys.path:
        root = entry or "."
        if root not in listed:
            try:
                listed[root] = os.listdir(root)
            except OSError:
                listed[root] = None
        children = listed[root]
        if children is None:
            if os.path.exists(root):
                return _ASK  # a zip or something else importlib.metadata may read
            continue
        if os.path.basename(root).lower().endswith(".egg"):
            return _ASK
        for child in children:
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")) and _normalize(low.rpartition(".")[0].partition("-")[0]) == wanted:
                return _header_version(os.path.join(root, child))
    return None


def _header_version(info: str) -> str | _Ask:
    """The first ``Version`` header of the distribution's metadata, if it reads plainly."""
    for file in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(info, file), encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError):
            return _ASK
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if line in ("", "\r"):
                break  # the headers end at the first empty line
            if line[:8].lower() == "version:":
                value = line[8:].lstrip(" \t")  # as the email parser reads it (compat32): trailing blanks kept
                folded = i + 1 < len(lines) and lines[i + 1][:1] in (" ", "\t")
                return _ASK if folded or not value or "\r" in line else value
        return _ASK
    return _ASK
