"""MkDocs' pages read from memory: the site's generated pages and data files handed to MkDocs as the
files it would have found in ``docs_dir``, in the same order, without being written to disk first.

A full build without a cache wrote every page and data file of the site (6,400 files in 2,000
directories at 10x) into a work directory for MkDocs to read, copy and then delete: on this machine's
disk the writing and the deleting cost seconds, all of it in one process before and after MkDocs'
page loops. MkDocs 1.6 takes files whose content is in memory (``File.content_string``; a data file is
written to the site from memory as its copy would have been, byte for byte); ``memory_files`` makes
them in the order ``mkdocs.structure.files.get_files`` walks a directory (a directory's files, index
and README first, then its subdirectories, sorted), with the same exclusions and the same handling of
a README beside an index, so the navigation and the site are those of the build from disk (a test
compares the two).
"""

from __future__ import annotations

import contextlib
import posixpath
from typing import Any, Iterator


def _walk(names: list[str]) -> list[str]:
    """``names`` (posix paths) in the order os.walk with sorted directories and MkDocs' file sort gives."""
    from mkdocs.structure.files import _file_sort_key

    tree: dict[str, Any] = {}
    for name in names:
        node = tree
        parts = name.split("/")
        for part in parts[:-1]:
            node = node.setdefault(part + "/", {})
        node[parts[-1]] = None
    out: list[str] = []

    def visit(node: dict[str, Any], prefix: str) -> list[list[str]]:
        files = sorted((k for k, v in node.items() if v is None), key=_file_sort_key)
        group = [prefix + f for f in files]
        groups = [group]
        for d in sorted(k for k, v in node.items() if v is not None):
            groups += visit(node[d], prefix + d)
        return groups

    for group in visit(tree, ""):
        out.extend(group)
        out.append("")  # a directory's end: README/index conflicts are looked for within one directory
    return out


def memory_files(config: Any, docs: dict[str, str]) -> Any:
    """A ``Files`` collection of ``docs`` (path under docs_dir -> text), as ``get_files`` makes it from disk.

    In one process (``navlaw serve``) the files of the last build are made again from what they were when
    made (``_KEPT``) when the same names are listed under the same URL style and exclusion patterns: a
    ``File`` is a function of its name, those settings and the site directory (which each build's differs
    in, and which is set anew); only the contents are this build's (issue 32: 0.09 s of an edit at 10x)."""
    key = _key(config, docs)
    kept = _KEPT.get("files")
    if kept is not None and kept[0] == key:
        return _again(config, docs, kept[1], kept[2])
    import logging

    warned: list[str] = []
    files = _made(config, docs, warned)
    for message in warned:
        logging.getLogger("mkdocs.structure.files").warning(message)
    made = []
    for name, f in _named(docs, files):
        for attr in ("name", "dest_uri", "url"):  # computed now, once, for every build that takes them again
            getattr(f, attr)
        made.append((name, {k: v for k, v in vars(f).items() if k not in ("abs_dest_path", "_content", "dest_dir")}))
    _KEPT["files"] = (key, made, warned)
    return files


# The files of the last build in this process: (key, each file's attributes but its content and site
# directory, the warnings made with them).
_KEPT: dict[str, tuple[tuple[Any, ...], list[tuple[str, dict[str, Any]]], list[str]]] = {}


def _named(docs: dict[str, str], files: Any) -> list[tuple[str, Any]]:
    """Each file with the name ``docs`` gives it (its content's key there)."""
    by_uri = {posixpath.normpath(name): name for name in docs}
    return [(by_uri[f.src_uri], f) for f in files]


def _key(config: Any, docs: dict[str, str]) -> tuple[Any, ...]:
    def patterns(name: str) -> Any:
        spec = config.get(name)
        return None if spec is None else tuple((p.regex.pattern if p.regex is not None else None, p.include)
                                               for p in spec.patterns)
    return tuple(docs), bool(config["use_directory_urls"]), tuple(patterns(n) for n in ("exclude_docs", "draft_docs",
                                                                                         "not_in_nav"))


def _again(config: Any, docs: dict[str, str], made: list[tuple[str, dict[str, Any]]], warned: list[str]) -> Any:
    import logging

    from mkdocs.structure.files import File, Files

    for message in warned:
        logging.getLogger("mkdocs.structure.files").warning(message)
    site_dir = config["site_dir"]
    files: list[File] = []
    for name, attrs in made:
        f = File.__new__(File)
        vars(f).update(attrs)
        f.dest_dir = site_dir
        f._content = docs[name]
        files.append(f)
    return Files(files)


def _made(config: Any, docs: dict[str, str], warned: list[str]) -> Any:
    from mkdocs.structure.files import File, Files, set_exclusions

    files: list[File] = []
    conflicting: list[tuple[File, File]] = []
    by_dest: dict[str, File] = {}
    for name in _walk(list(docs)):
        if not name:
            by_dest = {}
            continue
        f = File(posixpath.normpath(name), None, config["site_dir"], config["use_directory_urls"])
        f.abs_src_path = None
        f._content = docs[name]
        if by_dest.setdefault(f.dest_uri, f) is not f:
            conflicting.append((by_dest[f.dest_uri], f))
        files.append(f)
    set_exclusions(files, config)
    for a, b in conflicting:  # as get_files: a README beside an index in one directory
        a_in: Any = a.inclusion
        b_in: Any = b.inclusion
        if b_in.is_included():
            if a_in.is_included():
                warned.append(f"Excluding '{a.src_uri}' from the site because it conflicts with '{b.src_uri}'.")
            with contextlib.suppress(ValueError):
                files.remove(a)
        else:
            with contextlib.suppress(ValueError):
                files.remove(b)
    return Files(files)


@contextlib.contextmanager
def docs_in_memory(docs: dict[str, str] | None) -> Iterator[None]:
    """While active, MkDocs' build takes its files from ``docs`` instead of walking ``docs_dir`` (with None:
    from disk, as usual)."""
    if docs is None:
        yield
        return
    from mkdocs.commands import build as mkdocs_build

    real = getattr(mkdocs_build, "get_files")  # imported there by name from mkdocs.structure.files
    setattr(mkdocs_build, "get_files", lambda config: memory_files(config, docs))
    try:
        yield
    finally:
        setattr(mkdocs_build, "get_files", real)
