"""MkDocs' two loops over the pages on the machine's cores, the site byte for byte as one process builds it.

MkDocs builds a site in one process: it reads and converts every page's Markdown (``_populate_page``),
then renders each page through the theme's template, where Material's search plugin parses the page's
HTML for its index (``_build_page``). Both loops are most of a large build (at 4x, under a profiler:
41% and 57% of the MkDocs stage), and each page is independent of the others within a loop.

While ``parallel_loops`` is active, the two functions only record their calls; the recorded calls are
then made by forked workers, on contiguous slices of the pages (a few per worker), in two rounds:

1. conversion, when MkDocs fires ``on_env`` (this plugin first, before anything reads the pages): each
   worker converts its pages and sends back what the conversion set on each page (its HTML, table of
   contents, title, anchors, links to other pages' anchors, metadata); the parent sets it on its own
   pages, so the navigation, the anchor check and the next round see what one process would;
2. rendering, when MkDocs fires ``on_post_build`` (this plugin first): each worker, forked after the
   first round, renders and writes its pages and sends back each page's search entries, which the
   parent puts in the search index in page order (as one process appends them). The site's data files
   held in memory (compiler/site/mkdocs_memory.py), which MkDocs would copy one by one between the
   rounds, are written by these workers too, a share each. As the slices come back, the parent
   counts their search documents' terms for the split while the workers go on
   (compiler/site/search_early.py).

What the workers cost beyond the same work in one process (issue 32, benchmarks/site_rounds.py, 10x):
their user time is one process's to ~0.1-0.3 s a round; the rest is system time, of creating the site's
files, which varies with whatever else writes to the disk. Writing the data files in the parent instead
(while the rendering round's or the conversion round's workers work) gave no steady gain.

Warnings the workers log are logged again by the parent, in page order, so ``--strict`` sees them. With
``NAVLAW_JOBS=1``, fewer than ``PARALLEL_AT`` pages to convert, or no ``fork``, the calls are made in
this process, in order, as MkDocs would have made them.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Callable, Iterator

from mkdocs.plugins import event_priority

from navlaw.parallel import forking, jobs, workers
from navlaw.site import search_early

# Pages to convert before two rounds of forked workers pay for themselves: a page costs MkDocs ~10-20 ms
# to convert and render, a round of workers ~0.05-0.1 s to start and to send the pages back.
PARALLEL_AT = 400
SLICES = 8  # slices per worker
_WORK: list[tuple[Any, tuple[Any, ...]]] = []  # what the forked workers do (inherited, not pickled)
_REAL: dict[str, Callable[..., None]] = {}
_SEARCH: list[Any] = []
_STATIC: list[Any] = []  # the data files the rendering round's workers write, a share each


class _Capture(logging.Handler):
    """A worker's log records, to be logged again by the parent."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[tuple[str, int, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.INFO:
            self.records.append((record.name, record.levelno, record.getMessage()))


@contextlib.contextmanager
def _captured() -> Iterator[_Capture]:
    """In a worker: MkDocs' log records captured, not printed (the parent logs them)."""
    logger = logging.getLogger("mkdocs")
    saved = logger.handlers[:], logger.propagate
    capture = _Capture()
    logger.handlers[:] = [capture]
    logger.propagate = False
    try:
        yield capture
    finally:
        logger.handlers[:], logger.propagate = saved


def _will_work(page: Any, dirty: bool) -> bool:
    return not dirty or page.file.is_modified()


def _convert_range(bounds: tuple[int, int]) -> tuple[list[dict[str, Any]], list[tuple[str, int, str]]]:
    """Worker: convert the pages of the slice; what the conversion set on each page."""
    out: list[dict[str, Any]] = []
    with _captured() as capture:
        for page, args in _WORK[bounds[0]:bounds[1]]:
            before = dict(vars(page))
            _REAL["populate"](page, *args)
            changed = {k: v for k, v in vars(page).items() if k not in before or before[k] is not v}
            links = changed.get("links_to_anchors")
            if links:  # keyed by File objects: by their source path across the process boundary
                changed["links_to_anchors"] = {f.src_uri: v for f, v in links.items()}
            out.append(changed)
    return out, capture.records


def _render_range(bounds: tuple[int, int]) -> tuple[list[tuple[bool, list[Any]]], list[tuple[str, int, str]]]:
    """Worker: render and write the pages of the slice, and the slice's share of the data files held in
    memory; each page's search entries."""
    out: list[tuple[bool, list[Any]]] = []
    index = _SEARCH[0].search_index if _SEARCH else None
    with _captured() as capture:
        share = len(_STATIC) * bounds[0] // len(_WORK), len(_STATIC) * bounds[1] // len(_WORK)
        for file in _STATIC[share[0]:share[1]]:
            file.copy_file()
        for page, args in _WORK[bounds[0]:bounds[1]]:
            done = _will_work(page, args[4])
            before = len(index.entries) if index is not None else 0
            _REAL["build"](page, *args)
            out.append((done, index.entries[before:] if index is not None else []))
    return out, capture.records


def _early_counting(search: Any, work: list[tuple[Any, tuple[Any, ...]]]) -> Callable[[list[Any]], None] | None:
    """What the rendering round gives each slice's results to, as they come: the search's terms counted
    (compiler/site/search_early.py), when every page is rendered (a dirty build's split is made from the
    last one's, compiler/site/search_delta.py, and would not take them)."""
    if not all(_will_work(page, args[4]) for page, args in work):
        search_early.drop()
        return None
    early = search_early.start(search)
    if early is None:
        return None
    return lambda got: early.add([entry for done, entries in got if done for entry in entries])


def _in_workers(work: list[tuple[Any, tuple[Any, ...]]], fn: Callable[[tuple[int, int]], Any], n: int,
                each: Callable[[list[Any]], None] | None = None) -> list[Any]:
    """``fn`` over contiguous slices of ``work`` in ``n`` forked workers; the slices' results in order,
    and their log records logged here. A few slices per worker, taken in turn: the workers finish
    together, and what crosses from a worker at a time (pickled pages) stays a small part of the site.
    ``each`` is given each slice's results as they come, in order, while the workers go on.
    OSError when no workers can be had."""
    global _WORK
    k = min(len(work), n * SLICES)
    ranges = [(len(work) * i // k, len(work) * (i + 1) // k) for i in range(k)]
    _WORK = work
    results: list[Any] = []
    try:
        import multiprocessing  # here: nothing is forked at 1x, which need not load it (issue 32)

        with forking():
            pool = multiprocessing.get_context("fork").Pool(n)
        with pool:
            for got, records in pool.imap(fn, ranges):
                for name, level, message in records:
                    logging.getLogger(name).log(level, "%s", message)
                results.extend(got)
                if each is not None:
                    each(got)
    finally:
        _WORK = []
    return results


class Parallel:
    """A MkDocs plugin (added in code) that makes the recorded page calls, on several cores when it pays."""

    def __init__(self, search: Any, keeper: Any | None = None) -> None:
        self.search, self.keeper = search, keeper
        self.convert: list[tuple[Any, tuple[Any, ...]]] = []
        self.render: list[tuple[Any, tuple[Any, ...]]] = []
        self.static: list[Any] = []  # data files for the rendering round's workers to write
        self.jobs = jobs()
        self.parallel = False  # whether this build's pages went to workers

    def _record_populate(self, page: Any, config: Any, files: Any, dirty: bool = False) -> None:
        self.convert.append((page, (config, files, dirty)))

    def _record_build(self, page: Any, *args: Any, **kwargs: Any) -> None:
        self.render.append((page, (*args, kwargs.get("excluded", False)) if kwargs else args))

    @event_priority(110)  # before every other plugin's on_env: they may read the pages
    def on_env(self, env: Any, *, config: Any, files: Any) -> Any:
        work, self.convert = self.convert, []
        todo = sum(1 for page, args in work if _will_work(page, args[2]))
        self.parallel = workers(todo, PARALLEL_AT) >= 2
        if not self.parallel:
            for page, args in work:
                _REAL["populate"](page, *args)
            return env
        try:
            converted = _in_workers(work, _convert_range, min(self.jobs, len(work)))
        except OSError:  # no processes to be had: the same pages, here
            self.parallel = False
            for page, args in work:
                _REAL["populate"](page, *args)
            return env
        by_uri = {f.src_uri: f for f in files}
        for (page, _), changed in zip(work, converted):
            links = changed.get("links_to_anchors")
            if links:
                changed["links_to_anchors"] = {by_uri[uri]: v for uri, v in links.items()}
            for k, v in changed.items():
                setattr(page, k, v)
        self._defer_static(files, config)
        return env

    def _defer_static(self, files: Any, config: Any) -> None:
        """MkDocs' copy of the static files, next, leaves the data files held in memory (compiler/site/
        mkdocs_memory.py: thousands of JSON and XML files) to the rendering round's workers, a share each,
        unless a page or a theme template is written where one goes (then the order of writing matters)."""
        from mkdocs.structure.files import InclusionLevel

        taken = ({f.dest_uri for f in files.documentation_pages()} | set(config.theme.static_templates)
                 | set(config.extra_templates) | {"sitemap.xml.gz"})

        def copy_static_files(dirty: bool = False, *, inclusion: Callable[..., bool] = InclusionLevel.is_included) -> None:
            for file in files:
                if file.is_documentation_page() or not inclusion(file.inclusion):
                    continue
                if file._content is not None and not dirty and file.dest_uri not in taken:
                    self.static.append(file)
                else:
                    file.copy_file(dirty)
        files.copy_static_files = copy_static_files

    @event_priority(110)  # before the keeper and the search plugin use what the pages gave
    def on_post_build(self, *, config: Any) -> None:
        work, self.render = self.render, []
        if not self.parallel:
            for page, args in work:
                _REAL["build"](page, *args)
            return
        if not work:  # no pages to share the data files with
            for file in self.static:
                file.copy_file()
            return
        _SEARCH[:] = [self.search]
        _STATIC[:], self.static = self.static, []
        try:
            results = _in_workers(work, _render_range, min(self.jobs, len(work)), _early_counting(self.search, work))
        except OSError:  # no processes to be had: the same pages, here (a page a worker wrote is written again)
            search_early.drop()
            for file in _STATIC:
                file.copy_file()
            for page, args in work:
                _REAL["build"](page, *args)
            return
        except BaseException:
            search_early.drop()
            raise
        finally:
            _SEARCH.clear()
            _STATIC.clear()
        for (page, _), (done, entries) in zip(work, results):
            if not done:
                continue
            self.search.search_index.entries.extend(entries)
            if self.keeper is not None:
                self.keeper.rendered.add(page.file.src_uri)
                self.keeper.new.entries[page.file.src_uri] = entries


@contextlib.contextmanager
def parallel_loops(cfg: Any, keeper: Any | None = None) -> Iterator[Parallel]:
    """While active, MkDocs' page loops are recorded and made by the ``Parallel`` plugin added to ``cfg``."""
    from mkdocs.commands import build as mkdocs_build

    plugin = Parallel(cfg.plugins["material/search"], keeper)
    cfg.plugins["navlaw-parallel"] = plugin
    _REAL["populate"], _REAL["build"] = mkdocs_build._populate_page, mkdocs_build._build_page
    mkdocs_build._populate_page = plugin._record_populate
    mkdocs_build._build_page = plugin._record_build
    try:
        yield plugin
    finally:
        mkdocs_build._populate_page, mkdocs_build._build_page = _REAL["populate"], _REAL["build"]
