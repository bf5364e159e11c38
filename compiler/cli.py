"""The `navlaw` command line: arguments in, a call to the pipeline (compiler/build.py) or to one of its
stages, and what it returned printed. No pipeline logic lives here."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

# Stages are imported where used: `navlaw fee` and `show` start without them (tests/test_startup.py)
from navlaw.argtypes import (act_parser, build_parser, corpus_arg, date as _date, export_parser, fee_common,
                             format_arg, serve_parser)
from navlaw.export import stamped

if TYPE_CHECKING:
    import threading

    from navlaw.build import Result
    from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
    from navlaw.law import Law
    from navlaw.law.timeline import Composed, Timeline

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def _print_diagnostics(diags: list[Diagnostic] | Diagnostics, stream: Any = None, minimum: Severity | None = None) -> None:
    for d in diags:
        if minimum is None or d.severity >= minimum:
            print(d.format(), file=stream or sys.stderr)


def _dump(obj: Any) -> str:
    import json
    return json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=False)


# ---- commands --------------------------------------------------------------------------------------

def cmd_parse(args: argparse.Namespace) -> int:
    from navlaw.frontend.corpus import compile_file
    from navlaw.frontend.outline import document_json, outline
    from navlaw.diagnostics import Diagnostics
    diags = Diagnostics()
    doc = compile_file(args.file, diags)
    if args.format == "json":
        print(_dump(stamped("parse", {"document": document_json(doc), "diagnostics": [d.to_json() for d in diags]})))
    else:
        print("\n".join(outline(doc)))
    _print_diagnostics(diags)
    if args.format != "json":  # at a glance: was it understood?
        from navlaw.frontend.assess import summarize
        print(f"{args.file}: {summarize(doc).line(diags)}", file=sys.stderr)
    return EXIT_ERRORS if diags.has_errors() else EXIT_OK


def _read_law(command: str, corpus_dir: str) -> Law | None:
    """The front end and the law stage, as `navlaw build` runs them (compiler/build.py): None, the errors said
    as a build says them, when the corpus has errors (two texts in force on one day, an act that does not
    apply, a text navlaw cannot read)."""
    from navlaw.build import read_law, summary
    from navlaw.diagnostics import print_errors

    law = read_law(corpus_dir, relative=True)
    if law.diagnostics.has_errors():
        print_errors(law.diagnostics, corpus_dir)
        print(f"navlaw {command}: the corpus has errors: {summary(law.diagnostics)}; see them with `navlaw lint`",
              file=sys.stderr)
        return None
    return law


def _section_id(timeline: Timeline, name: str) -> str:
    from navlaw.model.nodes import other_code

    section = name.strip().lstrip("§ ").strip().lower()
    if section not in timeline.versions:  # "55.2": a section of another code, named without its prefix
        elsewhere = [s for s in timeline.versions if other_code(s) and s.split("/", 1)[1] == section]
        if len(elsewhere) == 1:
            return elsewhere[0]
    return section


def _sources_text(comp: Composed) -> list[str]:
    out = []
    for pid, v in comp.sources:
        out.append(f"  {pid}: {Path(v.file).name.split('#')[0]} — {v.note}")
    for g in comp.gaps:
        out.append(f"  {g}")
    return out


def cmd_show(args: argparse.Namespace) -> int:
    from navlaw.frontend.outline import outline

    law = _read_law("show", args.corpus)
    if law is None:
        return EXIT_ERRORS
    corpus, timeline = law.corpus, law.timeline
    section = _section_id(timeline, args.section)
    if section not in timeline.versions:
        known = sorted({s.id for c in corpus.documents for s in c.document.sections()})
        close = [k for k in known if k.split("-")[0] == section.split("-")[0]][:8]
        print(f"navlaw show: no section {args.section!r} in the corpus"
              + (f"; sections with that number: {', '.join(close)}" if close else ""), file=sys.stderr)
        return EXIT_ERRORS
    day = args.on or dt.date.today()
    comp = timeline.section_on(section, day)
    if comp.section is None:
        print(f"navlaw show: § {section} on {day}: {comp.message}", file=sys.stderr)
        return EXIT_ERRORS
    if args.format == "json":
        from navlaw.export.api import show_json
        print(_dump(show_json(corpus, comp, day, timeline.pending(section, day))))
    else:
        print("\n".join(outline(comp.section)))
        print(f"\nin force on {day}, from:")
        print("\n".join(_sources_text(comp) + [f"  may already be in force: {p}" for p in timeline.pending(section, day)]))
    return EXIT_OK


def cmd_diff(args: argparse.Namespace) -> int:
    from navlaw.law.redline import compare, render_html, render_json, render_text

    law = _read_law("diff", args.corpus)
    if law is None:
        return EXIT_ERRORS
    timeline = law.timeline
    section = _section_id(timeline, args.section)
    a, b = timeline.section_on(section, args.from_), timeline.section_on(section, args.to)
    for when, comp in ((args.from_, a), (args.to, b)):
        if comp.section is None:
            print(f"navlaw diff: § {section} on {when}: {comp.message}", file=sys.stderr)
            return EXIT_ERRORS
    changes = compare(a.section, b.section)
    if args.format == "json":
        print(_dump(stamped("diff", {"section": section, "from": args.from_.isoformat(), "to": args.to.isoformat(),
                                     "changes": render_json(changes)})))
    elif args.format == "html":
        print(render_html(changes))
    else:
        print(f"§ {section}: {args.from_} → {args.to}")
        print(render_text(changes) if any(c.status != "same" for c in changes) else "  no change")
    return EXIT_OK


def cmd_changes(args: argparse.Namespace) -> int:
    from navlaw.report.changes import change_report

    if args.to < args.from_:  # a period that ends before it begins was reported as one with no change
        print(f"navlaw changes: --to {args.to} is before --from {args.from_}; give the earlier date as --from", file=sys.stderr)
        return EXIT_USAGE
    result = _compile_checked(args.corpus)
    if result is None:
        return EXIT_ERRORS
    law = result.law
    if args.format == "json":
        from navlaw.export.api import changes_between_json
        print(_dump(changes_between_json(law.timeline, result.tariffs, args.from_, args.to, law.acts, law.outcomes)))
        return EXIT_OK
    print("\n".join(change_report(law.timeline, result.tariffs, args.from_, args.to, acts=law.acts,
                                  outcomes=law.outcomes)))
    return EXIT_OK


def _compile_checked(corpus_dir: str) -> Result | None:
    """The corpus compiled, for commands that need it sound: None (errors printed) when the text has errors
    (the front end's or the law stage's)."""
    result: Result = _compile_law(corpus_dir)
    if result.law.diagnostics.has_errors():
        from navlaw.diagnostics import print_errors
        print_errors(result.law.diagnostics, corpus_dir)
        return None
    return result


def cmd_build(args: argparse.Namespace) -> int:
    from navlaw.build import Options, build, print_report
    from navlaw.progress import build_progress

    options = Options(args.corpus, args.out, args.module, site=not args.no_site, cache=not args.no_cache,
                      dump=getattr(args, "dump", "") or "", site_url=getattr(args, "site_url", "") or "",
                      on=getattr(args, "on", None))
    with build_progress() as step:
        report = build(options, step)
    print_report(report)
    return report.code


def cmd_tariffs(args: argparse.Namespace) -> int:
    result = _compile_checked(args.corpus)
    if result is None:
        return EXIT_ERRORS
    corpus, tariffs = result.corpus, result.tariffs
    from navlaw.dumps import tariffs_json
    from navlaw.report.tariffs import tariff_text
    from navlaw.tariffs.routes import RouteTable

    family = RouteTable.of(corpus.manifest).family(args.route) if args.route else ()
    chosen = [t for t in tariffs if not args.route or t.route in family]
    if args.route and not chosen:
        routes = sorted({t.route for t in tariffs if t.route})
        print(f"navlaw tariffs: no tariffs for route {args.route!r}; routes: {', '.join(routes)}", file=sys.stderr)
        return EXIT_ERRORS
    if args.on:
        every = chosen
        chosen = [t for t in chosen if t.effective.contains(args.on) or
                  (t.effective.start_basis == "with" and t.status != "superseded")]
        if not chosen:
            starts = sorted(t.effective.start for t in every if t.effective.start)
            undated = sum(1 for t in every if not t.effective.start)
            print(f"navlaw tariffs: no tariff{f' of {args.route}' if args.route else ''} is in force on {args.on}"
                  + (f": the earliest takes effect on {starts[0]}" if starts and args.on < starts[0] else "")
                  + (f" ({undated} have no date the corpus establishes)" if undated else ""), file=sys.stderr)
            if args.format == "json":
                print(_dump({"on": args.on.isoformat(), "route": args.route or None, "tariffs": []}))
            return EXIT_ERRORS
    if args.format == "json":
        print(_dump(stamped("tariffs", {"on": args.on.isoformat() if args.on else None, "route": args.route or None,
                                        "tariffs": tariffs_json(chosen)})))
    else:
        for t in sorted(chosen, key=lambda t: (t.route, t.series, t.effective.start or dt.date.min, t.id)):
            print("\n".join(tariff_text(t)))
    return EXIT_OK


def cmd_lint(args: argparse.Namespace) -> int:
    from navlaw.build import summary
    diags = _compile_law(args.corpus).diagnostics
    if args.format == "json":
        print(_dump(stamped("lint", {"diagnostics": [d.to_json() for d in diags], "summary": summary(diags)})))
    else:
        _print_diagnostics(diags, sys.stdout)
        print(summary(diags))
    return EXIT_ERRORS if diags.has_errors() else EXIT_OK


def cmd_serve(args: argparse.Namespace, stop: threading.Event | None = None,
              ready: Callable[[str], None] | None = None) -> int:
    """`navlaw build`, then serve OUT/site and rebuild whenever the corpus changes (compiler/site/serve.py)."""
    from navlaw.site.serve import parse_addr, serve

    try:
        addr = parse_addr(args.addr)
    except ValueError as exc:
        print(f"navlaw serve: {exc}", file=sys.stderr)
        return EXIT_USAGE
    args.no_site, args.no_cache = False, False

    def build() -> int:
        try:
            return cmd_build(args)
        except NavlawError as exc:
            _print_diagnostics(exc.diagnostics)
            return EXIT_ERRORS

    from navlaw.diagnostics import NavlawError
    return serve(build, Path(args.corpus), Path(args.out) / "site", addr, args.interval,
                 say=lambda m: print(m, file=sys.stderr), stop=stop, ready=ready)


def cmd_fee(args: argparse.Namespace, extra: list[str]) -> int:
    from navlaw.fees.package import fee_module, stale_module
    nf = fee_module()  # navlaw_fees, installed (or an error saying how to install it)

    from navlaw.fees.cli_options import FeeUsage, route_options, route_parser

    known = args.route in nf.ROUTES
    routes = f"routes: {', '.join(nf.ROUTES)}; `navlaw fee ROUTE --help` lists a route's options"
    if args.help and known:
        route_parser(args.route, nf.option_forms(args.route), nf.options(args.route), _FEE_PARSER[1]).print_help()
        return EXIT_OK
    if args.help and args.route is None:
        _FEE_PARSER[0].print_help()
        print(f"\n{routes}")
        return EXIT_OK
    if args.route is None or args.help:
        print(f"navlaw fee: {'give a ROUTE' if args.route is None else f'unknown route {args.route!r}'}; {routes}",
              file=sys.stderr)
        return EXIT_USAGE
    options: dict[str, object] = {}
    if known:
        try:
            options = route_options(args.route, extra, nf)
        except FeeUsage as e:
            print(f"navlaw fee: {e}", file=sys.stderr)
            return EXIT_USAGE
    dims = (args.length, args.breadth, args.depth)
    if args.no_measurements:
        options["measurements_provided"] = False
    elif args.units is None and any(d is None for d in dims):
        print("navlaw fee: give --units N, or --length FT --breadth FT --depth FT", file=sys.stderr)
        return EXIT_USAGE
    stale = stale_module(Path(nf.__file__ or ""), Path(args.corpus))
    if stale:
        print(stale, file=sys.stderr)
    try:
        q = nf.quote(args.route, units=args.units, length_ft=args.length, breadth_ft=args.breadth,
                     depth_ft=args.depth, on=args.on or dt.date.today(), **options)
    except nf.FeeError as e:
        print(f"navlaw fee: {e}", file=sys.stderr)
        return EXIT_ERRORS
    if args.json or args.format == "json":
        print(_dump(stamped("quote", {**q.to_json(), **({"trace": q.trace().to_json()} if args.trace else {})})))
        return EXIT_OK
    if args.trace:
        print(q.trace().text())
        return EXIT_OK
    from navlaw.report.quote_table import quote_text

    print(quote_text(q))
    return EXIT_OK


# ---- argument parsing ------------------------------------------------------------------------------

class _VersionAction(argparse.Action):
    """``--version``, looked up only when asked (importlib.metadata costs as much as the fee module)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from importlib import metadata
        try:
            print(f"navlaw {metadata.version('navlaw')}")
        except metadata.PackageNotFoundError:
            print("navlaw (not installed: run from a source checkout)")
        parser.exit()


def _compile_law(*args: Any, **kwargs: Any) -> Any:
    from navlaw.build import compile_law  # where it runs: building the parser loads no pipeline
    return compile_law(*args, **kwargs)


_FEE_PARSER: list[argparse.ArgumentParser] = []  # `navlaw fee`'s parser and its common options, for the help


def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="navlaw", description="Compile a corpus of New York law texts (corpus/manifest.toml): "
                                "parse, extract tariffs, track versions, publish a site and a fee module.")
    p.add_argument("--version", action=_VersionAction)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    build_parser(sub).set_defaults(func=cmd_build)
    serve_parser(sub).set_defaults(func=cmd_serve)
    _fee_parser(sub)
    _law_parsers(sub)
    act_parser(sub, corpus_arg, _compile_law)
    corpus_arg(export_parser(sub))
    _data_parsers(sub)
    return p


def _fee_parser(sub: Any) -> None:
    sp = sub.add_parser("fee", help="quote a pilotage fee, itemized with citations", add_help=False,
                        description="Quote the pilotage fee for ROUTE (a route of the corpus manifest's [[route]] "
                                    "table; the routes are listed below) with the generated navlaw_fees module. "
                                    "Route options (the manifest's [[option]] table) follow as --name VALUE or "
                                    "--flag: `navlaw fee ROUTE --help` lists them.")
    sp.add_argument("-h", "--help", action="store_true", help="show this help (with ROUTE: the route's options)")
    sp.add_argument("route", metavar="ROUTE", nargs="?")
    # the options every route takes, again for a route's own help (its parser's parent)
    common = argparse.ArgumentParser(add_help=False)
    _FEE_PARSER[:] = [sp, common]
    for target in (sp, common):
        fee_common(target)
        corpus_arg(target)
    sp.set_defaults(func=cmd_fee, takes_extra=True)


def _law_parsers(sub: Any) -> None:
    """`navlaw parse`, `show`, `diff`, `changes`: the law's text, its versions and what changed."""
    sp = sub.add_parser("parse", help="parse one standalone file (no manifest)",
                        description="Parse one file on its own and print its section tree, or its diagnostics.")
    sp.add_argument("file", metavar="FILE")
    format_arg(sp)
    sp.set_defaults(func=cmd_parse)

    sp = sub.add_parser("show", help="print a section as in force on a date",
                        description="Print a section (e.g. 12-a) as in force on DATE (default today), with "
                                    "the source text and date of each part, as an outline or JSON. A date for which "
                                    "the corpus knows no text is said so, exit 1.")
    sp.add_argument("section", metavar="SECTION")
    sp.add_argument("--on", type=_date, metavar="DATE", help="the date (YYYY-MM-DD; default today)")
    corpus_arg(sp)
    format_arg(sp)
    sp.set_defaults(func=cmd_show)

    sp = sub.add_parser("diff", help="redline a section between two dates",
                        description="Compare a section as in force on two dates, provision by provision: "
                                    "[-deleted-] {+inserted+} words; unchanged provisions collapsed.")
    sp.add_argument("section", metavar="SECTION")
    sp.add_argument("--from", dest="from_", type=_date, required=True, metavar="DATE")
    sp.add_argument("--to", type=_date, required=True, metavar="DATE")
    sp.add_argument("--format", choices=("text", "html", "json"), default="text")
    corpus_arg(sp)
    sp.set_defaults(func=cmd_diff)

    sp = sub.add_parser("changes", help="what changed between two dates: provisions, redlines, fees in words",
                        description="A change report: every section whose text changes between the dates, its "
                                    "redline, and the fee changes in words.")
    sp.add_argument("--from", dest="from_", type=_date, required=True, metavar="DATE")
    sp.add_argument("--to", type=_date, required=True, metavar="DATE")
    corpus_arg(sp)
    format_arg(sp)
    sp.set_defaults(func=cmd_changes)


def _data_parsers(sub: Any) -> None:
    """`navlaw tariffs` and `lint`: the rate schedules and the findings."""
    sp = sub.add_parser("tariffs", help="list the rate schedules with dates and citations",
                        description="List every tariff extracted from the corpus: rate tables, per-unit rates, "
                                    "percentages, time fees, board-set fees and penalties, with effective dates, "
                                    "status, citations and the interpretations applied.")
    corpus_arg(sp)
    sp.add_argument("--route", metavar="R", help="only this route of the manifest's [[route]] table, with the fees "
                    "of its family (the routes that share its sections: their common fees)")
    sp.add_argument("--on", type=_date, metavar="DATE", help="only what is in force on DATE (YYYY-MM-DD)")
    format_arg(sp)
    sp.set_defaults(func=cmd_tariffs)

    sp = sub.add_parser("lint", help="report every diagnostic of the corpus",
                        description="Report every finding as file:line:col: severity: message, with a caret excerpt.")
    corpus_arg(sp)
    format_arg(sp)
    sp.set_defaults(func=cmd_lint)


def main(argv: list[str] | None = None) -> int:
    args, extra = make_parser().parse_known_args(argv)
    if extra and not getattr(args, "takes_extra", False):
        make_parser().parse_args(argv)  # reports the unknown arguments, exit 2
    try:
        if getattr(args, "takes_extra", False):
            return int(args.func(args, extra))
        from navlaw.collect import paced  # the garbage collector's pace (compiler/collect.py)
        from navlaw.compiled import kept  # `navlaw fee` (above) compiles little: it does without the table

        with kept(), paced():
            return int(args.func(args))
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a NavlawError comes from navlaw.diagnostics, loaded if one can be raised
        if not isinstance(exc, getattr(sys.modules.get("navlaw.diagnostics"), "NavlawError", ())):
            raise
        _print_diagnostics(getattr(exc, "diagnostics"))
        return EXIT_ERRORS


if __name__ == "__main__":
    sys.exit(main())
