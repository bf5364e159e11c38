"""The pipeline: `navlaw build` as one function whose body reads as the stages of DESIGN.md.

    corpus   = frontend(corpus_dir)           load -> normalize -> parse -> tree, per document (cached)
    timeline = law(corpus)                    text versions on their dates, amending acts applied
    tariffs  = tariffs(corpus, timeline)      extracted by form, dated on the timeline, linted
    module   = fee_module(...)                navlaw_fees: plans per route -> generated Python
    files    = outputs(...)                   trees, tariffs.json, diagnostics.json, changes.md
    pages    = site_pages(...)                the site's Markdown (MkDocs renders it when published)
    publish(...)                              checked paths, lock, staged, swapped in whole

Each stage is a typed call that can be run and printed alone: ``navlaw build --dump STAGE`` (one of
``STAGES``) prints that stage's result as JSON and writes nothing.
"""

from __future__ import annotations

import datetime as dt
import os
import stat
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, MutableMapping

from navlaw.cache import BuildCache, FileState, files_digest, tree_files, tree_stamp
from navlaw.stamps import Stamp, written_stamps
from navlaw.diagnostics import Diagnostics, Severity, print_errors, shown_from  # noqa: F401  (navlaw.build's, as before)
from navlaw.dumps import dump, stage_data, tariffs_json, tree_name  # noqa: F401  (navlaw.build's, as before)
from navlaw.parallel import later, worth
from navlaw.outputs import MODULE_KEEPS, OWN, carry_over, changed_while_read, output_dirs, write_files  # noqa: F401
from navlaw.outputs import OUT_TEXTS, keep_dirs, to_write, write_out
from navlaw.publish import OutputError, check_paths, modes_set, publish, write_marker
from navlaw.stages import STAGES  # noqa: F401  (navlaw.build.STAGES, as before)

if TYPE_CHECKING:  # the stages' modules are imported where they run: a build with nothing to do needs none
    from navlaw.export.data_memo import Keyed, Todo
    from navlaw.export.streamed import Files
    from navlaw.export.akn import Export
    from navlaw.frontend.corpus import Corpus
    from navlaw.law import Law
    from navlaw.fees.plans import Plan
    from navlaw.model.tariffs import AnyTariff
    from navlaw.law.timeline import Timeline
    from navlaw.report.changes import Changes
    from navlaw.site.mkdocs_build import SiteReport


@dataclass(frozen=True)
class Options:
    corpus: str = "corpus"
    out: str = "build"
    module: str = "navlaw_fees"
    site: bool = True
    cache: bool = True
    dump: str = ""  # one of STAGES: print that stage's result, write nothing
    site_url: str = ""  # where the site will be served: fills the sitemap and canonical links
    on: dt.date | None = None  # the site's date: law pages show the law in force then (None: the day of the build)


@dataclass(frozen=True)
class Result:
    """What the middle of the pipeline knows: the law stage's value (the corpus, its timeline, what each act
    did, the references), the tariffs, and every finding so far. A new value, made by ``tariffs``; what is
    derived from it for the outputs (the changes on each date, the Akoma Ntoso files) is made once, when first
    asked, and kept with it."""

    law: Law
    tariffs: list[AnyTariff]
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    cache: BuildCache | None = field(default=None, compare=False, repr=False)  # the build's: akn's memo

    @property
    def corpus(self) -> Corpus:
        return self.law.corpus

    @property
    def timeline(self) -> Timeline:
        return self.law.timeline

    @cached_property
    def changes(self) -> list[Changes]:
        """What changes on each date the law changes, oldest first (OUT/changes.md and the site's change
        report)."""
        from navlaw.report.changes import changes_between

        timeline, ts = self.timeline, self.tariffs
        dates = sorted(set(timeline.boundaries()) | {t.effective.start for t in ts if t.effective.start}
                       | {t.effective.end for t in ts if t.effective.end})
        found = (changes_between(timeline, ts, d - dt.timedelta(days=1), d, self.corpus.acts, self.law.outcomes)
                 for d in dates)
        return [c for c in found if c.acts or c.sections or c.known or c.deltas]

    @cached_property
    def plans(self) -> dict[str, Plan]:
        """The fee plans per route, made once: the fee module's and the site's."""
        from navlaw.fees.plans import build_plans
        from navlaw.tariffs.routes import RouteTable
        return build_plans(self.tariffs, RouteTable.of(self.corpus.manifest))

    @cached_property
    def digests(self) -> tuple[str, str]:
        """The tariffs' digests (navlaw.fees.memo.tariffs_digests: without and with their offsets), made once."""
        from navlaw.fees.memo import tariffs_digests
        return tariffs_digests(self.tariffs)

    @property
    def fees_key(self) -> str:
        """The tariffs' digest (navlaw.fees.memo.tariffs_digest): the fee module's memo and the site's."""
        return self.digests[0]

    @property
    def json_key(self) -> str:
        """The digest of every value of the tariffs, offsets too: the key of tariffs.json (OUT's, the API's)."""
        return self.digests[1]

    @cached_property
    def export(self) -> Export:
        """The sections as Akoma Ntoso works (compiler/export/akn.py)."""
        from navlaw.export.akn import Export

        return Export(self.corpus, self.timeline)

    @cached_property
    def akn(self) -> dict[str, str]:
        """Every section's Akoma Ntoso: made once per build (a file whose inputs did not change: kept from the
        last, compiler/export/akn_memo.py), written twice (OUT/akn/ and the site's akn/)."""
        from navlaw.export.akn_memo import akn_files

        return akn_files(self.export, self.cache)

    def akn_made(self) -> dict[str, str] | None:
        """``akn`` if it was made already (asked for, or given), else None: asking never makes it."""
        made: dict[str, str] | None = self.__dict__.get("akn")  # where the cached property keeps its value
        return made

    def give_akn(self, made: dict[str, str]) -> None:
        """``akn`` as another process made it (navlaw.parallel), unless it was made here already."""
        self.__dict__.setdefault("akn", made)


# ---- the stages --------------------------------------------------------------------------------------

def frontend(corpus_dir: str, cache: BuildCache | None = None, relative: bool = False) -> Corpus:
    """load -> normalize -> parse -> tree for every document of the manifest (``relative``: documents
    named relative to the manifest, as everything a build publishes names them)."""
    from navlaw.frontend.corpus import compile_corpus

    return compile_corpus(corpus_dir, cache, relative)


def law(corpus: Corpus) -> Law:
    """The timeline of text versions (amending acts applied, what each did), the cross-references; two texts
    in force on one day are errors (navlaw.law.compile_law)."""
    from navlaw.law import compile_law as law_stage

    return law_stage(corpus)


def tariffs(law: Law, cache: BuildCache | None = None) -> Result:
    """Tariffs by form, dated on the timeline and linted; the cross-references checked."""
    from navlaw.law import references
    from navlaw.tariffs import tariffs_and_lint

    diagnostics = Diagnostics()
    diagnostics.extend(law.diagnostics)
    if law.diagnostics.has_errors():
        return Result(law, [], diagnostics)
    found, findings = tariffs_and_lint(law.corpus, law.timeline, cache)
    diagnostics.extend(findings)
    diagnostics.extend(references.lint(law.corpus, list(law.references), set(law.timeline.sections())))
    return Result(law, found, diagnostics, cache)


def read_law(corpus_dir: str, cache: BuildCache | None = None, relative: bool = False) -> Law:
    """The first two stages (front end, law): what a command that shows the law (show, diff, export) needs."""
    return law(frontend(corpus_dir, cache, relative))


def compile_law(corpus_dir: str, cache: BuildCache | None = None, relative: bool = False) -> Result:
    """The first three stages: what every command that reads the corpus's fees or findings needs."""
    return tariffs(read_law(corpus_dir, cache, relative), cache)


def fee_module(result: Result, previous: Path | None = None, cache: BuildCache | None = None) -> dict[str, str]:
    """The generated navlaw_fees package: file name -> text; its CHANGES against the module in ``previous``.
    With a cache, the code is the last build's when it is made from the same fees (compiler/fees/memo.py)."""
    from navlaw.fees.changelog import attach
    from navlaw.fees.memo import rendered, versions
    from navlaw.fees.package import About, package_version, sources_of

    plans = result.plans
    sources = sources_of(result.corpus)
    about = About.of(plans, result.corpus.manifest.law)
    files = rendered(plans, result.tariffs, sources, versions(result.timeline) if result.timeline is not None else None,
                     about, cache, result.fees_key if cache is not None and cache.enabled else "")
    return attach(files, plans, package_version(result.tariffs, sources), previous, about)


def outputs(result: Result, cache: BuildCache | None = None) -> Files:
    """OUT's data files (trees, tariffs, findings, changes), each made as it is written (export/streamed.py)."""
    from navlaw.export import stamped
    from navlaw.export.streamed import Files, akn_later, put_tariffs, put_tree
    from navlaw.report.changes_md import changes_markdown

    files = Files()
    for c in result.corpus.documents:
        key = cache.key("tree-json", c.key) if cache is not None and c.key else ""
        put_tree(files, f"tree/{tree_name(result.corpus, c)}.json", c.document, dump, cache, key)
    json_key = result.json_key if cache is not None and cache.enabled else ""  # "": tariffs that cannot be digested
    put_tariffs(files, result.tariffs, dump, cache.key("tariffs-json", json_key) if cache and json_key else "")
    akn_later(result, files)
    files.put("diagnostics.json", lambda: dump(stamped("lint", {
        "diagnostics": [d.to_json() for d in result.diagnostics], "summary": summary(result.diagnostics)})) + "\n")
    files.put("changes.md", lambda: changes_markdown(result.changes, result.tariffs))  # report/changes_md.py
    return files


def site_pages(result: Result, on: dt.date | None = None, cache: BuildCache | None = None) -> dict[str, str]:
    """The site's pages (path under docs/ -> Markdown) and assets; law pages as in force ``on`` (default today).
    With a cache, the pages whose inputs did not change since the last build are taken from it."""
    from navlaw.export.data_memo import akn_of, data_later, remember, with_data
    from navlaw.site.pages import pages
    from navlaw.site.render import Memo

    key = cache.key("site-pages", "last") if cache is not None and cache.enabled else ""
    memo = Memo(cache.get("site-pages", key, held=True) if key and cache is not None else None)
    changes = dated_changes(result)  # made here first: both processes use them
    from navlaw.export.pieces import key_sections
    key_sections([c.document for c in result.corpus.documents], result.cache)  # before the forks: made once
    data = data_later(lambda todo: data_files(result, todo), len(result.timeline.sections()), cache)
    out = pages(result.corpus, result.timeline, result.tariffs, result.diagnostics, changes,
                on or dt.date.today(), memo, result.law.references,
                (result.plans, result.fees_key if key else ""))
    if key and cache is not None:
        cache.put("site-pages", key, memo.new, hold=True)  # only read by the next build's Memo
        cache.stats["page reused"] += memo.hits
        cache.stats["page made"] += len(memo.new) - memo.hits - memo.others
    made = data()
    remember(cache, made)  # the memo of this process's next build (compiler/export/data_memo.py)
    result.give_akn(akn_of(made))  # its Akoma Ntoso files are OUT/akn/'s too
    return with_data(out, made)


def data_files(result: Result, todo: Todo | None = None) -> Keyed:
    """The site's data: the JSON API (api/) and each section's Akoma Ntoso (akn/), which law pages link (with a
    ``todo``: the files to make are "" for now, their making put in it: compiler/export/data_memo.py)."""
    from navlaw.export.akn_memo import akn_files
    from navlaw.export.api import site_data

    akn = result.akn if todo is None else akn_files(result.export, result.cache, todo)
    json_key = result.json_key if result.cache is not None and result.cache.enabled else ""
    return site_data(result.corpus, result.timeline, result.tariffs, dated_changes(result), result.export, akn,
                     result.cache, json_key, todo)


def publish_all(options: Options, files: MutableMapping[str, str], module: dict[str, str], site: dict[str, str] | None,
                cache: BuildCache | None, kept: list[str] | None = None,
                stamps: dict[str, Stamp] | None = None) -> SiteReport | None:
    """Write OUT (with the MkDocs site in OUT/site) and MODULE together: see compiler/publish.py. Files of
    OUT that are not navlaw's are carried over (their names go to ``kept``). ``stamps`` gets the stamps of
    OUT's directories as they were written (the site's, and those of the files write_out recorded)."""
    out, module_dir = Path(options.out).resolve(), Path(options.module).resolve()
    reports: list[SiteReport | None] = []

    key = cache.key("outputs", str(out)) if cache is not None and cache.enabled else ""
    known = cache.get("outputs", key) if key and cache is not None else None

    def write(staged: dict[Path, Path]) -> None:
        texts = OUT_TEXTS.before(files)  # the digests write_out makes, kept in this process if it forks
        writing = later("outputs", lambda: write_out(staged[out], files, out if out.is_dir() else None, known, cache),
                        site is not None and worth(to_write(files, known), 0.25), cache)  # beside the site's build
        write_files(staged[module_dir], module)
        write_marker(staged[module_dir], list(module))
        carry_over(module_dir, staged[module_dir], MODULE_KEEPS)  # `pip install -e` metadata stays installed
        report = None
        if site is not None:
            from navlaw.site.mkdocs_build import build_site
            report = build_site(site, staged[out] / "site", out / "site", cache, options.site_url)
        written = writing.result()
        OUT_TEXTS.learned(texts, written)
        for top in {name.split("/", 1)[0] for name in written if "/" in name}:  # write_out's directories: their
            modes_set(staged[out] / top)  # modes set (outputs._take_dirs), their files new or links
        if key and cache is not None:
            cache.put("outputs", key, written)
        reports.append(report)
        if stamps is not None:
            stamps.update(written_stamps(written))
            if report is not None and report.stamp is not None:
                stamps["site"] = report.stamp
        write_marker(staged[out], os.listdir(staged[out]))  # before what is carried over: navlaw's own
        (kept if kept is not None else []).extend(carry_over(out, staged[out]))

    def retired(old: dict[Path, Path]) -> None:  # the replaced site and OUT start the next incremental build
        if cache is not None and cache.enabled and out in old:
            keep_dirs(old[out], cache)
        if site is not None and cache is not None and cache.enabled and out in old:
            from navlaw.site.site_spare import keep_spare
            keep_spare(old[out] / "site", cache)

    publish(Path(options.corpus), output_dirs(options.out, options.module), write, retired)
    return reports[0] if reports else None


# ---- the pipeline ------------------------------------------------------------------------------------

@dataclass
class Report:
    """What a build did, for the command line to print."""

    code: int  # exit status: 0 built (or up to date), 1 errors in the law text or the outputs, 2 usage
    summary: str = ""
    details: list[str] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    warnings: list[str] = field(default_factory=list)
    error: str = ""
    dumped: str = ""
    corpus: str = ""  # the corpus as the user gave it: findings name its files relative to it


def build(options: Options, progress: Callable[[str], None] | None = None) -> Report:
    """Compile the corpus and write every output; the stages in order. ``progress`` is told each stage
    as it starts (the command line shows it on a terminal)."""
    report = _build(options, progress)
    report.corpus = options.corpus
    return report


@dataclass(frozen=True)
class _Run:
    """One build's setting: its options, cache, output directories, and the up-to-date check's record."""

    options: Options
    cache: BuildCache
    out: Path
    module_dir: Path
    last_key: str
    before: dict[str, FileState]
    # OUT's directories as the build wrote them (navlaw.stamps): OUT's stamp takes them instead of a walk
    stamps: dict[str, Stamp] = field(default_factory=dict)


def _build(options: Options, progress: Callable[[str], None] | None = None) -> Report:
    step = progress or (lambda stage: None)
    if not options.dump:
        try:
            check_paths(Path(options.corpus), output_dirs(options.out, options.module))
        except OutputError as exc:
            return Report(exc.code, error=str(exc))
    run, done = _start(options)
    if done is not None:
        return done
    cache = run.cache
    step("front end: reading and parsing the corpus")
    corpus = frontend(options.corpus, cache, relative=True)
    if options.dump in ("manifest", "tree"):
        return Report(0, dumped=dump(stage_data(options.dump, corpus=corpus)))
    step("timeline: versions and amending acts")
    the_law = law(corpus)
    if options.dump == "timeline":
        return Report(0, dumped=dump(stage_data("timeline", timeline=the_law.timeline)))
    step("tariffs: extraction, dates and lint")
    result = tariffs(the_law, cache)
    if options.dump in ("tariffs", "lint"):
        return Report(0, dumped=dump(stage_data(options.dump, tariffs=result.tariffs,
                                                              diagnostics=result.diagnostics)))
    if result.diagnostics.has_errors():
        return Report(1, error=f"not built: {summary(result.diagnostics)}; the previous output is unchanged",
                      diagnostics=result.diagnostics, warnings=cache.warnings)
    try:
        step("fee module and outputs")
        module = fee_module(result, run.module_dir, cache)
        from navlaw.fees.changelog import changed as api_changed
        module_changed = api_changed(run.module_dir, module)
        files = outputs(result, cache)
        if options.site:
            step("site pages")
        pages = site_pages(result, options.on, cache) if options.site else None
        if options.dump in ("module", "outputs", "site"):
            return Report(0, dumped=dump({"module": module, "outputs": dict(files), "site": pages}[options.dump]))
        if pages is not None:
            files.update({f"site-docs/{k}": v for k, v in pages.items()})
            files.file_keys.update({f"site-docs/{k}": v for k, v in getattr(pages, "file_keys", {}).items()})
            # OUT/akn/'s files, made of the site's (export/streamed.py's akn_later): under the same keys
            files.file_keys.update({f"akn/{k}": v for k, v in getattr(result.akn_made(), "file_keys", {}).items()})
        step("writing the outputs" + (" and the MkDocs site" if pages is not None else ""))
        kept: list[str] = []
        site_report = publish_all(options, files, module, pages, cache, kept, run.stamps)
    except OSError as exc:
        return Report(1, error=f"cannot write the outputs: {exc.strerror or exc}"
                      f"{f' ({exc.filename})' if exc.filename else ''}; the previous output is unchanged",
                      diagnostics=result.diagnostics, warnings=cache.warnings)
    except OutputError as exc:
        return Report(exc.code, error=str(exc), diagnostics=result.diagnostics, warnings=cache.warnings)
    return _built(run, result, module if module_changed else None, kept, site_report)


def _start(options: Options) -> tuple[_Run, Report | None]:
    """The build's cache and setting; a report when there is nothing to do (the corpus is the one the outputs
    on disk were built from, and they are still what that build wrote)."""
    out, module_dir = Path(options.out).resolve(), Path(options.module).resolve()
    cache = BuildCache(cache_dir(options.out) if options.cache and not options.dump else None)
    last_key = cache.key("last", str(Path(options.corpus).resolve()), str(out), str(module_dir), str(not options.site),
                         options.site_url, (options.on or dt.date.today()).isoformat())
    before = dict[str, FileState]()
    done = None
    if cache.enabled:
        before = tree_files(Path(options.corpus))
        corpus_digest = files_digest({name: state[0] for name, state in before.items()}) if before else ""
        last = cache.get("last", last_key)
        if (last is not None and corpus_digest and last["corpus"] == corpus_digest
                and last["out"] == tree_stamp(out) and last["module"] == tree_stamp(module_dir)):
            done = Report(0, f"{last['head']}{options.out}/ and {options.module}/ are up to date {last['tail']}",
                          warnings=cache.warnings)
    return _Run(options, cache, out, module_dir, last_key, before), done


def _built(run: _Run, result: Result, changed_module: dict[str, str] | None, kept: list[str],
           site_report: SiteReport | None) -> Report:
    """What a build that wrote its outputs says: the counts, what was kept, the module's CHANGES when its API
    changed (``changed_module``), each act's review, the cache's figures; the build recorded as up to date."""
    options, corpus = run.options, result.corpus
    sections = sum(len(c.document.sections()) for c in corpus.documents)
    head = f"navlaw build: {len(corpus.documents)} documents, {sections} sections, {len(result.tariffs)} tariffs -> "
    tail = f"({summary(result.diagnostics)}" + ("; see them with `navlaw lint`)" if len(result.diagnostics) else ")")
    report = Report(0, head + f"{options.out}/; fee module -> {options.module}/ {tail}",
                    diagnostics=result.diagnostics, warnings=run.cache.warnings)
    if kept:
        report.details.append(f"  kept in {options.out}/ (not navlaw's, carried over): {', '.join(kept)}")
    if changed_module is not None:  # what a programmer using the module must know: its CHANGES, as written into it
        report.details.append(f"  {options.module}/CHANGES (the module's routes, options, schedules or quotes changed):")
        report.details.extend("    " + line for line in changed_module["CHANGES"].rstrip().splitlines())
    if corpus.acts:
        from navlaw.report.changes import act_review
        for act in corpus.acts:
            report.details.extend(act_review(act, result.law.outcome(act), result.tariffs))
    if run.cache.enabled:
        _record(run, corpus, report, head, tail)
        cache = run.cache
        reused, parsed = cache.stats["document hit"], cache.stats["document miss"]
        made, taken = cache.stats["page made"], cache.stats["page reused"]
        report.details.append(f"  cache: {parsed} of {reused + parsed} documents parsed, {reused} reused"
                              + (f"; {made} of {made + taken} law and history pages written afresh" if made + taken else "")
                              + (f"; {site_report.summary()}" if site_report else ""))
    return report


def _record(run: _Run, corpus: Corpus, report: Report, head: str, tail: str) -> None:
    """The build recorded as up to date with the corpus it read (unless a file changed while it read it). OUT's
    stamp takes its directories' as the build wrote them (navlaw.stamps): they are not walked again."""
    changed = changed_while_read(Path(run.options.corpus), run.before, corpus.read)
    if changed:
        report.warnings.append(f"{', '.join(changed[:5])}{' and more' if len(changed) > 5 else ''} changed while "
                               "the build read the corpus: the outputs are of the text as it was read, and this "
                               "build is not recorded as up to date, so the next build reads the corpus again")
    try:
        if not changed:
            run.cache.put("last", run.last_key, {"corpus": files_digest({**{n: s[0] for n, s in run.before.items()},
                                                                         **corpus.read}),
                                                 "out": Stamp.walk(run.out, run.stamps).digest(),
                                                 "module": tree_stamp(run.module_dir),
                                                 "head": head, "tail": tail})
        run.cache.prune()
    except OSError as exc:
        report.warnings.append(f"the build cache could not be written ({exc.strerror or exc})")


# ---- helpers -----------------------------------------------------------------------------------------

def summary(diags: Diagnostics) -> str:
    counts = {s: sum(1 for d in diags if d.severity is s) for s in Severity}
    return (f"{counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s), "
            f"{counts[Severity.INFO]} note(s)")


def cache_dir(out: str) -> Path:
    """Where `navlaw build --out DIR` keeps its cache: beside DIR, as .DIR-cache/."""
    p = Path(out)
    return p.with_name(f".{p.name}-cache")


def dated_changes(result: Result) -> list[Changes]:
    """What changes on each date the law changes, oldest first (Result.changes: found once per build)."""
    return result.changes


def print_report(report: Report, out: Callable[[str], None] | None = None) -> None:
    """How the command line shows a build: errors and warnings on stderr, the summary on stdout."""
    say = out or print
    print_errors(report.diagnostics, report.corpus)
    if report.error:
        print(f"navlaw build: {report.error}", file=sys.stderr)
    for w in report.warnings:
        print(f"navlaw build: warning: {w}", file=sys.stderr)
    if report.dumped:
        say(report.dumped)
    if report.summary:
        say(report.summary)
    for line in report.details:
        say(line)
