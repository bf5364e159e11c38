"""Builds the reference site with MkDocs Material, in this process: every page, or only the pages whose
Markdown changed since the last build.

A full build hands MkDocs the pages in memory (compiler/site/mkdocs_memory.py) beside a copy of
``site/``'s configuration and runs it into an empty directory. An incremental build (only with a cache,
see compiler/cache.py) starts from a copy of the previous site and lets MkDocs' ``dirty`` mode render
just the changed pages (in memory too: no page is written to disk to be read back), and it keeps the
result identical, byte for byte, to a full build (a test checks it):

- the other pages' HTML is unchanged only if the navigation is: a page added or removed, a changed
  ``mkdocs.yml`` or theme override, or a changed page title makes the build a full one;
- a page MkDocs does not render still gives the navigation its title (the rendered one, kept from
  the last build) and its anchors to the link check; a rendered page that lost an anchor another
  page may link to makes the build start over as a full one;
- the search index is reassembled in page order from the entries each page gave (kept from the
  last build for the pages not rendered), as a full build writes it.

In one process (``navlaw serve``) a build takes what the last one left in memory instead of reading it
again, while it is provably the same: the state below while the cache's entry is the one this process
wrote (``BuildCache.put(..., hold=True)``), and MkDocs' files while the names and settings they are made from are the same
(compiler/site/mkdocs_memory.py). The site's modes are set in the walk that stamps it.

MkDocs' warnings are errors either way (the site is built ``--strict``), except the notice that a
dirty build is being made: a navlaw build error that names the page, the link and its place, and says
what to do (compiler/site/mkdocs_errors.py).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

from navlaw import resources
from navlaw.cache import BuildCache, digest, jinja_bytecode, private_dir, tree_digest, user_cache
from navlaw.site.site_chunks import get_entries, put_entries
from navlaw.site.site_spare import SPARE, restamp, start_from
from navlaw.site.site_written import Written
from navlaw.stamps import Stamp

SITE = resources.path("site")
_DIRTY_NOTICE = "A 'dirty' build is being performed"


@dataclass
class SiteReport:
    mode: str  # "full" or "incremental"
    pages: int  # Markdown pages in the site
    rendered: int  # pages MkDocs rendered this time
    reason: str = ""  # why the build was a full one
    search: str = ""  # why an incremental build split the whole search index again (compiler/site/search_delta.py)
    stamp: Stamp | None = field(default=None, repr=False, compare=False)  # of the site as written (OUT's takes it)

    def summary(self) -> str:
        if self.mode == "full":
            return f"site: all {self.pages} pages rendered" + (f" ({self.reason})" if self.reason else "")
        return (f"site: {self.rendered} of {self.pages} pages rendered, the rest kept from the last build"
                + (f"; search index split whole ({self.search})" if self.search else ""))


@dataclass
class _State:
    """What the last site build was made from and what it gave; kept in the cache."""

    shape: str  # config, theme overrides and the list of files
    files: dict[str, str]  # docs file -> digest of its text
    output: str  # tree_stamp of the site it wrote (as it wrote it: navlaw.stamps)
    titles: dict[str, str] = field(default_factory=dict)  # page (src uri) -> rendered title
    anchors: dict[str, frozenset[str]] = field(default_factory=dict)  # page -> anchor ids present
    entries: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # page -> its search entries
    search: Any = None  # what the search index's split made (compiler/site/search_delta.py's SearchState)
    chunks: Any = None  # where the cache keeps ``entries`` (compiler/site/site_chunks.py), once kept there

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without ``entries`` once they are kept in chunks of their own (``chunks``)."""
        state = dict(self.__dict__)
        if self.chunks is not None:
            state["entries"] = None
        return state


class _FullBuildNeeded(Exception):
    pass


def _config_files() -> dict[str, bytes]:
    return {p.relative_to(SITE).as_posix(): p.read_bytes()
            for p in sorted(SITE.rglob("*")) if p.is_file() and p.relative_to(SITE).parts[0] != "docs"}


def _shape(config: dict[str, bytes], files: dict[str, str]) -> str:
    return digest(*[x for name, data in config.items() for x in (name, data)], "\0files", *sorted(files))


def _dest(name: str) -> str:
    """The file MkDocs writes for docs file ``name`` (use_directory_urls: true)."""
    if not name.endswith(".md"):
        return name
    stem = name[:-3]
    if stem == "index" or stem.endswith("/index"):
        return stem + ".html"
    return stem + "/index.html"


def build_site(files: dict[str, str], out: Path, previous: Path | None = None,
               cache: BuildCache | None = None, site_url: str = "") -> SiteReport:
    """Build the site from ``files`` (docs path -> text) into ``out`` (which must not exist yet).
    With a cache and the ``previous`` site this build replaces, render only what changed."""
    config = _config_files()
    pages = sum(1 for n in files if n.endswith(".md"))
    if cache is None or not cache.enabled or not (cache.own_dir("site-src") and cache.own_dir(SPARE)):
        work = out.parent / f".{out.name}.src"  # the configuration only: MkDocs reads the pages from memory
        try:
            _sync(work, config, full=True)
            _mkdocs(work, out, dirty=False, state=None, rendered=set(), site_url=site_url, docs=files)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return SiteReport("full", pages, pages)

    digests = _digests(files)
    shape = _shape(config, digests) + digest("site_url", site_url)

    assert cache.root is not None
    work = cache.root / "site-src"
    key = cache.key("site", "state")
    old: _State | None = cache.get("site", key, held=True)
    if old is not None and old.entries is None:  # read from the cache's file: its entries are in chunks
        old.entries = get_entries(cache, old.chunks)
        old = old if old.entries is not None else None
    reason = _why_full(old, shape, previous)
    changed = {n for n in files if old is None or old.files.get(n) != digests[n]}
    state = _State(shape, digests, "")
    report = SiteReport("full", pages, pages, reason)
    mirrored: Stamp | None = None  # the site as started from the spare: its stamp, with what MkDocs wrote
    rendered: set[str] = set()
    if not reason and old is not None and previous is not None:
        report.reason, mirrored = start_from(previous, out, cache.root / SPARE, old.output)
        reason = report.reason
    if not reason and old is not None and previous is not None:
        for name in changed:
            (out / _dest(name)).unlink(missing_ok=True)
        _sync(work, config)
        written = Written()
        try:
            split = _mkdocs(work, out, dirty=True, state=(old, state), rendered=rendered, site_url=site_url,
                            changed=changed, docs=files, written=written)
            report = SiteReport("incremental", pages, len(rendered), search=split)
            if mirrored is not None and not written.elsewhere:
                report.stamp = restamp(mirrored, written.names | {_dest(n) for n in changed})
        except _FullBuildNeeded as exc:
            shutil.rmtree(out)
            report.reason = str(exc)
    if report.mode == "full":
        state = _State(shape, digests, "")
        _sync(work, config, full=True)
        _mkdocs(work, out, dirty=False, state=(None, state), rendered=set(), site_url=site_url, docs=files)
    from navlaw.publish import modes_set, umask_modes

    if report.stamp is None:  # its modes set in the one walk (issue 32)
        report.stamp = Stamp.walk(out, modes=umask_modes())
    if report.stamp.exists:
        modes_set(out)
    state.output = report.stamp.digest()
    incremental = report.mode == "incremental" and old is not None
    state.chunks = put_entries(cache, state.entries, rendered if incremental else None,
                               old.chunks if incremental and old is not None else None)
    cache.put("site", key, state, hold=True)  # nothing changes it after this
    return report


# Each docs file's text at the last build in this process and its digest (``navlaw serve``): a text equal to
# it (the same object, or compared, which costs a tenth of hashing it) is not hashed again (issue 32: 8,509
# texts, 28 MB at 10x, hashed at every edit). Counted: DIGESTED["texts"] (tests count work, never time).
_LAST: dict[str, tuple[str, str]] = {}
DIGESTED: Counter[str] = Counter()


def _digests(files: dict[str, str]) -> dict[str, str]:
    """``digest`` of each file's text."""
    out: dict[str, str] = {}
    for name, text in files.items():
        had = _LAST.get(name)
        if had is not None and (had[0] is text or had[0] == text):
            out[name] = had[1]
        else:
            out[name] = digest(text)
            DIGESTED["texts"] += 1
    _LAST.clear()
    _LAST.update((name, (text, out[name])) for name, text in files.items())
    return out


def _why_full(old: _State | None, shape: str, previous: Path | None) -> str:
    if old is None:
        return "no earlier build in the cache"
    if previous is None or not previous.is_dir():
        return "no earlier site to start from"
    if old.shape != shape:
        return "pages added or removed, or the site's configuration changed"
    return ""


def _sync(work: Path, config: dict[str, bytes], full: bool = False) -> None:
    """Make ``work`` hold the site configuration (what differs is written) and an empty docs/: MkDocs reads
    the pages and data files from memory (compiler/site/mkdocs_memory.py), in a full build and in an
    incremental one alike, so none is written to disk to be read back (issue 32: an incremental build
    wrote the changed ones, set the time of every other, and stamped them all twice). ``full``: anything
    else there (a killed build's) goes first."""
    if full and work.exists():
        shutil.rmtree(work)
    for name, data in config.items():
        p = work / name
        if not p.is_file() or p.read_bytes() != data:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
    docs = work / "docs"
    if docs.is_dir() and not docs.is_symlink():
        with os.scandir(docs) as it:
            stale = next(it, None) is not None  # the page sources an older navlaw kept here
        if stale:
            shutil.rmtree(docs)
    docs.mkdir(exist_ok=True)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if not message.startswith(_DIRTY_NOTICE):
            self.messages.append(message)


class _CompiledTemplates:
    """A MkDocs plugin (added in code): the theme's templates compiled once, not at every build."""

    def on_env(self, env: Any, *, config: Any, files: Any) -> Any:
        env.bytecode_cache = jinja_bytecode()
        return env


_THEME_FILES: dict[str, list[str]] = {}  # the theme's directories (see _list_theme_once) -> the files in them


def _list_theme_once(theme: Any) -> None:
    """MkDocs lists every file of the theme (Material's thousands of icons) and filters the list at each
    build to copy the static ones (0.13 s). That list is made once per state of the theme's directories
    (the overrides by their contents, wherever the build copied them; Material's and MkDocs' own by
    their versions) and of the theme's static templates (the filter leaves those out), and kept: in this
    process (``navlaw serve``) and, as JSON, in the user's cache for the next process."""
    real_get_env = theme.get_env

    def get_env() -> Any:
        env = real_get_env()
        installed = ("material/templates", "mkdocs/templates")  # the packages' own: by their versions
        key = digest(_version("mkdocs-material"), _version("mkdocs"),
                     *[d if d.endswith(installed) else tree_digest(Path(d)) for d in theme.dirs],
                     *sorted(theme.static_templates))
        real_list = env.list_templates

        def listed(extensions: Any = None, filter_func: Any = None) -> list[str]:
            if extensions is not None:
                return list(real_list(extensions, filter_func))
            k = key + ("-filtered" if filter_func is not None else "")
            if k not in _THEME_FILES:
                _THEME_FILES[k] = _kept_list(k) or _keep_list(k, list(real_list(None, filter_func)))
            return list(_THEME_FILES[k])
        env.list_templates = listed
        return env
    theme.get_env = get_env


def _version(package: str) -> str:
    from navlaw.versions import version  # importlib.metadata's answer without its reading of every METADATA

    return version(package) or "-"


def _theme_lists() -> Path | None:
    base = user_cache()
    if base is None or private_dir(base / "theme-files"):
        return None
    return base / "theme-files"


def _kept_list(key: str) -> list[str] | None:
    """The theme's file list an earlier process kept under ``key`` (None if there is none fit to use)."""
    where = _theme_lists()
    try:
        data = json.loads((where / f"{key}.json").read_text(encoding="utf-8")) if where is not None else None
    except (OSError, ValueError):
        return None
    return data if isinstance(data, list) and data and all(isinstance(x, str) for x in data) else None


def _keep_list(key: str, files: list[str]) -> list[str]:
    where = _theme_lists()
    if where is not None:
        try:
            if sum(1 for _ in where.iterdir()) > 50:  # one per state of the overrides and versions seen
                for old in where.iterdir():
                    old.unlink()
            tmp = where / f".{key}.{os.getpid()}.tmp"
            tmp.write_text(json.dumps(files), encoding="utf-8")
            os.replace(tmp, where / f"{key}.json")
        except OSError:
            pass  # listed again by the next process
    return files


def _not_modified() -> bool:
    return False


def _modified() -> bool:
    return True


class _Keeper:
    """A MkDocs plugin (added in code, not in mkdocs.yml) that records what each rendered page gave
    and, in a dirty build, stands in for the pages MkDocs skips."""

    def __init__(self, search: Any, old: _State | None, new: _State, rendered: set[str],
                 changed: set[str] | None = None):
        self.search, self.old, self.new, self.rendered, self.changed = search, old, new, rendered, changed
        self.order: list[str] = []
        self.pages: list[Any] = []
        self._before = 0

    def on_files(self, files: Any, *, config: Any) -> Any:
        """In a dirty build, each page and data file navlaw hands over (held in memory: no source on disk) is
        modified exactly when its text changed (MkDocs takes one held in memory as always modified): the
        others are the last build's, in the site it starts from. The theme's files are not modified either:
        the theme is the one the last build copied them from (its version is in the cache's key, its
        overrides in the shape), and the site it starts from holds them as copied (its stamp is checked);
        MkDocs' own check stated each of them three times (issue 32: 2,100 files)."""
        if self.changed is not None:
            for f in files:
                if f.abs_src_path is not None:
                    f.is_modified = _not_modified
                    continue
                f.is_modified = _modified if f.src_uri in self.changed else _not_modified
        return files

    def on_env(self, env: Any, *, config: Any, files: Any) -> Any:
        docs = files.documentation_pages()
        self.order = [f.src_uri for f in docs]
        self.pages = [f.page for f in docs if f.page is not None]
        for page in self.pages:
            if page.markdown is None and self.old is not None:  # skipped by the dirty build: as last time
                uri = page.file.src_uri
                # not read again (an open per page): the navigation wants only its title, kept from the
                # last build, and no other page reads its metadata
                page.markdown, page.meta = "", {}
                page._title_from_render = self.old.titles.get(uri)
                # the kept frozenset itself, not a copy (issue 32: 0.04 s of an edit at 10x copied every
                # page's anchors): MkDocs only asks whether an anchor is in it (validate_anchor_links)
                page.present_anchor_ids = self.old.anchors.get(uri, frozenset())
        return env

    @event_priority(100)  # before the search plugin reads the page
    def on_page_context(self, context: Any, *, page: Any, config: Any, nav: Any) -> Any:
        self._before = len(self.search.search_index.entries)
        return context

    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        uri = page.file.src_uri
        self.rendered.add(uri)
        self.new.entries[uri] = self.search.search_index.entries[self._before:]
        return output

    @event_priority(100)  # before the search plugin writes the index
    def on_post_build(self, *, config: Any) -> None:
        old = self.old
        for f in self.order:
            if f not in self.rendered and old is not None:
                self.new.entries[f] = old.entries.get(f, [])
                self.new.titles[f] = old.titles.get(f, "")
                self.new.anchors[f] = old.anchors.get(f, frozenset())
        self.search.search_index.entries = [e for f in self.order for e in self.new.entries.get(f, [])]
        self.search.config.enabled = False  # its whole index is not written: split_search makes the site's

    def split_search(self, site: Path) -> str:
        """The search index's split files in ``site``, from the last build's where it can; why not."""
        from navlaw.site.search_delta import split_pages

        config = {key: self.search.config[key] for key in ("lang", "separator", "pipeline", "fields")}
        old = self.old
        self.new.search, why = split_pages(site, config, [(f, self.new.entries.get(f, [])) for f in self.order],
                                           self.rendered, old.search if old is not None else None,
                                           old.entries if old is not None else {})
        return why


def _mkdocs(work: Path, out: Path, dirty: bool, state: tuple[_State | None, _State] | None,
            rendered: set[str], site_url: str = "", changed: set[str] | None = None,
            docs: dict[str, str] | None = None, written: Written | None = None) -> str:
    """MkDocs over ``work`` (its docs/, or ``docs`` held in memory: compiler/site/mkdocs_memory.py) into ``out``;
    why the search index was split whole ("" if it was made from the last build's split). ``written``: the
    files MkDocs and the search's split wrote (compiler/site/site_written.py)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    from navlaw.site.entry_points import once
    from navlaw.site.mkdocs_memory import docs_in_memory
    from navlaw.site.mkdocs_parallel import parallel_loops
    from navlaw.site.search_early import split_search_index
    from navlaw.site.site_written import tracked

    collect = _Collect()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(collect)
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "0"  # no build timestamps: byte-identical rebuilds
    entry_points = once()  # the packages' entry points read once for all MkDocs asks (compiler/site/entry_points.py)
    entry_points.__enter__()
    try:
        extra = {"site_url": site_url} if site_url else {}
        cfg = load_config(str(work / "mkdocs.yml"), site_dir=str(out.resolve()), strict=False, **extra)
        # MkDocs takes a plugin by its on_* methods; a BasePlugin subclass would also register the base's
        # empty handlers (on_startup keeps a plugin across `serve` builds), so the type is not declared
        cfg.plugins["navlaw-templates"] = _CompiledTemplates()  # type: ignore[assignment]
        _list_theme_once(cfg.theme)
        keeper = None
        if state is not None:
            old, new = state
            keeper = _Keeper(cfg.plugins["material/search"], old, new, rendered, changed if dirty else None)
            if dirty:  # the 404 page and the sitemap show only the navigation, which has not changed
                cfg.theme.static_templates.difference_update({"404.html", "sitemap.xml"})
            cfg.plugins["navlaw-keeper"] = keeper  # type: ignore[assignment]  # not a BasePlugin: see above
        paths: set[str] = set()
        try:
            with parallel_loops(cfg, keeper) as loops, docs_in_memory(docs), tracked(paths):
                build(cfg, dirty=dirty)  # the pages on the machine's cores (compiler/site/mkdocs_parallel.py)
        except Abort as exc:
            collect.messages.append(str(exc))
        if collect.messages:
            from navlaw.site.mkdocs_errors import strict_failure

            raise strict_failure(collect.messages, docs)  # an OutputError: exit 1, said where and what to do
        split = ""
        if keeper is None:  # the search's files, fetched a part at a time (compiler/site/search_index.py, counts
            # made while the pages were rendered: search_early.py)
            split_search_index(out)
        else:  # from the last build's split where it can (compiler/site/search_delta.py)
            split = keeper.split_search(out)
        if written is not None:
            written.take(out, paths, bool(split) or loops.parallel)
        if keeper is not None:
            _record_pages(keeper, dirty)
        return split
    finally:
        entry_points.__exit__(None, None, None)
        logger.removeHandler(collect)
        if saved is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved


def _record_pages(keeper: _Keeper, dirty: bool) -> None:
    """Titles and anchors of the rendered pages, for the next build; in a dirty build, a rendered page
    that lost an anchor (another page, not rendered, may link to it) calls for a full build."""
    old, new = keeper.old, keeper.new
    for page in keeper.pages:
        uri = page.file.src_uri
        if uri not in keeper.rendered:
            continue
        anchors = frozenset(page.present_anchor_ids or ())
        if dirty and old is not None and not old.anchors.get(uri, frozenset()) <= anchors:
            gone = sorted(old.anchors[uri] - anchors)
            raise _FullBuildNeeded(f"{uri} lost anchor #{gone[0]}" + (f" and {len(gone) - 1} more" if len(gone) > 1 else ""))
        if dirty and old is not None and old.titles.get(uri) != page.title:
            raise _FullBuildNeeded(f"the title of {uri} changed")
        new.titles[uri] = page.title or ""
        new.anchors[uri] = anchors
