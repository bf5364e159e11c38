"""Standard exports (issue 31): Akoma Ntoso 3.0 valid against the OASIS schema, the site's JSON API and
every JSON output valid against the schema it names, outputs that do not depend on how paths are spelled,
and no POSIX-only import."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import jsonschema
import pytest
from lxml import etree

from navlaw.build import compile_law, dated_changes
from navlaw.cli import main
from navlaw.export import slug
from navlaw.export.akn import Export, akn_files
from navlaw.export.api import SCHEMAS, anchor, api_files

from .conftest import CORPUS, ROOT

AKN = "{http://docs.oasis-open.org/legaldocml/ns/akn/3.0}"
ACTS = Path(__file__).resolve().parent / "acts"


@lru_cache(maxsize=1)
def akn_schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(SCHEMAS / "akomantoso30.xsd")))


def valid_akn(text: str) -> etree._Element:
    doc = etree.fromstring(text.encode("utf-8"))
    schema = akn_schema()
    assert schema.validate(doc), [str(e) for e in schema.error_log][:5]
    return doc


def validate_json(data: dict, name: str | None = None) -> None:
    """``data`` names its schema (and version), and is valid against it."""
    assert data["schema"] == (name or data["schema"]) and data["version"] == 1
    schema = json.loads((SCHEMAS / data["schema"]).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(data)


@pytest.fixture(scope="module")
def law():
    return compile_law(str(CORPUS), relative=True)


@pytest.fixture(scope="module")
def acted(tmp_path_factory):
    """The corpus with an amending act of § 89-b(4)(b)(1) and one that adds § 89-a(9) and repeals § 88-a."""
    root = tmp_path_factory.mktemp("acts") / "corpus"
    shutil.copytree(CORPUS, root)
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        for name, became in (("lis-rates-2028.txt", "2027-06-15"), ("hudson-and-repeal.txt", "2027-03-01")):
            shutil.copy(ACTS / name, root / name)
            m.write(f'\n[[document]]\nfile = "{name}"\nkind = "act"\nbecame_law = {became}\nstatus = "in-force"\n'
                    f'source = "test act {name}"\nconfidence = "verified"\n')
    result = compile_law(str(root), relative=True)
    assert not result.diagnostics.has_errors()
    return result


# ---- Akoma Ntoso ------------------------------------------------------------------------------------------

def test_every_akn_file_of_the_corpus_validates_against_the_oasis_schema(law):
    files = akn_files(law.corpus, law.timeline)
    # every section on every date its text changes: more files than sections (§ 89-b has two texts)
    assert len(files) > len(law.timeline.sections()) > 200
    for name, text in files.items():
        doc = valid_akn(text)
        eids = [e.get("eId") for e in doc.iter() if e.get("eId")]
        assert len(eids) == len(set(eids)), name  # an eId names one element


def test_89b_on_2026_06_01_holds_4_b_1_with_its_eid_and_its_source(law):
    files = akn_files(law.corpus, law.timeline, dt.date(2026, 6, 1))
    doc = valid_akn(files["89-b/2022-07-21.xml"])  # the text in force on 2026-06-01 is the one of 2022-07-21
    (sub,) = [e for e in doc.iter(f"{AKN}subparagraph") if e.get("eId") == "sec_89-b__subsec_4__para_b__subpara_1"]
    assert sub.find(f"{AKN}num").text == "(1)"
    text = "".join(sub.find(f"{AKN}content").itertext())
    assert "ten dollars and eighty-nine cents per pilotage unit" in text
    parent = sub.getparent()
    assert parent.tag == f"{AKN}paragraph" and parent.get("eId") == "sec_89-b__subsec_4__para_b"
    assert parent.getparent().tag == f"{AKN}subsection" and parent.getparent().get("eId") == "sec_89-b__subsec_4"
    # FRBR: the work from the section's own law (Nav. Law -> nav), the expression dated by its text
    assert doc.find(f".//{AKN}FRBRWork/{AKN}FRBRuri").get("value") == "/akn/us-ny/act/statute/nav/89-b"
    assert (doc.find(f".//{AKN}FRBRExpression/{AKN}FRBRuri").get("value")
            == "/akn/us-ny/act/statute/nav/89-b/eng@2022-07-21")
    # chapter 427 of 2022 is a section text in this corpus, not an act: its source is the event's source
    events = doc.findall(f".//{AKN}lifecycle/{AKN}eventRef")
    assert [(e.get("date"), e.get("type")) for e in events] == [("2002-07-01", "generation"), ("2022-07-21", "amendment")]
    src = doc.find(f".//{AKN}references/*[@eId='{events[1].get('source')[1:]}']")
    assert src.get("showAs") == "L.2022, ch. 427 (signed 2022-07-21)"
    assert doc.find(f".//{AKN}passiveModifications") is None  # no act of the corpus amends it


def test_an_applied_act_is_a_textual_mod_with_source_destination_and_force(acted):
    files = akn_files(acted.corpus, acted.timeline)
    for text in files.values():
        valid_akn(text)
    doc = valid_akn(files["89-b/2028-01-01.xml"])
    (mod,) = doc.findall(f".//{AKN}passiveModifications/{AKN}textualMod")
    assert mod.get("type") == "substitution"
    assert mod.find(f"{AKN}source").get("href") == "/akn/us-ny/act/2027/lis-rates-2028/~sec_1"
    assert mod.find(f"{AKN}destination").get("href") == "#sec_89-b__subsec_4__para_b__subpara_1"
    period = mod.find(f"{AKN}force").get("period")[1:]
    interval = doc.find(f".//{AKN}temporalGroup[@eId='{period}']/{AKN}timeInterval")
    event = doc.find(f".//{AKN}eventRef[@eId='{interval.get('start')[1:]}']")
    assert event.get("date") == "2028-01-01" and event.get("type") == "amendment"
    assert doc.find(f".//{AKN}passiveRef").get("showAs") == "test act lis-rates-2028.txt"
    assert "eleven dollars and fifty-six cents" in "".join(doc.find(f".//{AKN}body").itertext())
    # an added provision is an insertion; a repealed section's expressions carry its repeal
    added = valid_akn(files["89-a/2027-05-30.xml"])
    assert [m.get("type") for m in added.iter(f"{AKN}textualMod")] == ["insertion"]
    assert added.find(f".//{AKN}textualMod/{AKN}destination").get("href") == "#sec_89-a__subsec_9"
    repealed = valid_akn(files["88-a/2002-07-01.xml"])
    assert [(e.get("date"), e.get("type")) for e in repealed.iter(f"{AKN}eventRef")][-1] == ("2027-05-30", "repeal")
    assert not [k for k in files if k.startswith("88-a/2027")]  # not in force: no text to give


def test_levels_tables_references_and_the_rule(law):
    files = akn_files(law.corpus, law.timeline)
    doc = valid_akn(files["88/2023-01-01.xml"])
    table = next(doc.iter(f"{AKN}table"))
    assert [th.findtext(f"{AKN}p") for th in table.find(f"{AKN}tr")] == ["PILOTAGE UNITS", "FACTOR", "ADJUSTMENT"]
    assert table.get("eId").startswith("sec_88__subsec_4__para_b__table_")
    # NY levels below the clause: subclause, item (point), subitem (level, its NY name in class)
    eids = {e.get("eId"): e for e in doc.iter() if e.get("eId")}
    item = eids["sec_88__subsec_4__para_b__subpara_1__clause_ii__subclause_1__point_A"]
    assert item.tag == f"{AKN}point"
    sub_item = eids["sec_88__subsec_4__para_b__subpara_1__clause_ii__subclause_1__point_A__lvl_iii"]
    assert sub_item.tag == f"{AKN}level" and sub_item.find(f"{AKN}num").text == "(iii)"
    # a chapter reference is a <ref> to the cited section's work
    doc103 = valid_akn(files["103/2002-07-01.xml"])
    ref = next(doc103.iter(f"{AKN}ref"))
    assert ref.text == "section one hundred two of this article" and ref.get("href") == "/akn/us-ny/act/statute/nav/102"
    # a rule: its work is a regulation of its own code
    rule = valid_akn(files["21-nycrr-55.2/2016-10-01.xml"])
    assert rule.find(f".//{AKN}FRBRWork/{AKN}FRBRuri").get("value") == "/akn/us-ny/act/regulation/21nycrr/55.2"
    assert rule.find(f".//{AKN}section").get("eId") == "sec_55.2"


def test_export_akn_command(tmp_path, capsys):
    out = tmp_path / "akn"
    assert main(["export", "akn", "--corpus", str(CORPUS), "--on", "2026-06-01", "--out", str(out)]) == 0
    assert "as in force on 2026-06-01" in capsys.readouterr().out
    assert (out / "89-b" / "2022-07-21.xml").is_file() and not (out / "89-b" / "2002-07-01.xml").exists()
    assert main(["export", "akn", "--corpus", str(CORPUS), "--out", str(out)]) == 0  # every date, DIR replaced
    assert (out / "89-b" / "2002-07-01.xml").is_file()
    assert main(["export", "akn", "--corpus", str(CORPUS), "--out", str(CORPUS / "akn")]) == 2
    assert "inside the corpus" in capsys.readouterr().err
    assert main(["export", "akn", "--corpus", str(CORPUS), "--on", "1990-01-01", "--out", str(tmp_path / "x")]) == 1
    assert "no section of the corpus is in force on 1990-01-01" in capsys.readouterr().err


# ---- the JSON API and the JSON outputs ----------------------------------------------------------------------

def test_the_json_api_validates_against_its_schemas(law):
    works = {s: w.uri for s, w in Export(law.corpus, law.timeline).works.items()}
    files = api_files(law.corpus, law.timeline, law.tariffs, dated_changes(law), works)
    assert {"tariffs.json", "changes.json", "sections/89-b.json", "sections/21-nycrr-55.2.json",
            "schema/section.schema.json"} <= set(files)
    for name, text in files.items():
        if not name.startswith("schema/"):
            validate_json(json.loads(text))
    data = json.loads(files["sections/89-b.json"])
    assert data["work"] == "/akn/us-ny/act/statute/nav/89-b" and data["page"] == "law/89-b/"
    versions = [(v["from"], v["until"], v["in_force"]) for v in data["versions"]]
    assert versions == [("2002-07-01", "2006-01-01", True), ("2006-01-01", "2022-07-21", False),
                        ("2022-07-21", None, True)]
    last = data["versions"][-1]
    assert last["akn"] == "../../akn/89-b/2022-07-21.xml"
    assert last["sources"][0]["file"] == "089-b.2022.txt" and last["sources"][0]["source"].startswith("L.2022, ch. 427")
    node = find(last["tree"], "89-b/4/b/1")
    # the text whole: the lead-in and the rates, one string, with the two ranges it came from
    assert node["text"].startswith("Upon the effective date of this paragraph and thereafter:\nAll vessels shall pay eight")
    assert [c["kind"] for c in node["children"]] == [] and len(node["span"]) == 2
    assert node["anchor"] == "p-89-b-4-b-1" and node["citation"] == "Nav. Law § 89-b(4)(b)(1)"
    raw = (CORPUS / "089-b.2022.txt").read_text(encoding="utf-8").splitlines()
    s = node["span"][1]
    assert raw[s["line"] - 1][s["column"] - 1:].startswith("All vessels shall pay eight dollars")
    tariffs = json.loads(files["tariffs.json"])["tariffs"]
    assert all(not Path(t["file"]).is_absolute() and not t["file"].startswith("corpus/") for t in tariffs)


def find(node: dict, node_id: str) -> dict:
    if node["id"] == node_id:
        return node
    for c in node["children"]:
        got = find(c, node_id) if isinstance(c, dict) else None
        if got:
            return got
    return {}


@pytest.mark.parametrize("argv, schema", [
    (["show", "89-b", "--on", "2026-06-01", "--format", "json"], "show.schema.json"),
    (["parse", str(CORPUS / "089-b.2022.txt"), "--format", "json"], "parse.schema.json"),
    (["lint", "--format", "json"], "lint.schema.json"),
    (["diff", "89-b", "--from", "2004-06-01", "--to", "2026-06-01", "--format", "json"], "diff.schema.json"),
    (["tariffs", "--on", "2026-06-01", "--format", "json"], "tariffs.schema.json"),
    (["changes", "--from", "2025-12-31", "--to", "2026-01-01", "--format", "json"], "changes.schema.json"),
    (["fee", "long-island-sound", "--units", "350", "--on", "2026-06-01", "--format", "json"], "quote.schema.json"),
    (["fee", "long-island-sound", "--units", "350", "--on", "2026-06-01", "--json"], "quote.schema.json"),
])
def test_every_json_output_names_its_schema_and_validates(argv, schema, capsys):
    corpus = [] if argv[0] == "parse" else ["--corpus", str(CORPUS)]
    main(argv + corpus)
    validate_json(json.loads(capsys.readouterr().out), schema)


def test_changes_json_says_the_fee_change(capsys):
    assert main(["changes", "--from", "2025-12-31", "--to", "2026-01-01", "--format", "json", "--corpus", str(CORPUS)]) == 0
    (found,) = json.loads(capsys.readouterr().out)["changes"]
    assert any(line.startswith("§ 89-b(4)(b)(1): from 2026-01-01 the rate is $10.89") for line in found["fee_changes"])


def test_file_names_and_anchors_are_the_site_s(law):
    from navlaw.site.render import anchor as site_anchor, section_slug

    for sec in law.timeline.sections():
        assert slug(sec) == section_slug(sec)
    for c in law.corpus.documents:
        for n in c.document.walk():
            if n.id:
                assert anchor(n.id) == site_anchor(n.id)


# ---- portable -------------------------------------------------------------------------------------------

def test_a_build_publishes_the_same_bytes_however_its_paths_are_spelled(tmp_path):
    """--corpus and --out absolute, or relative from another directory: the same files, byte for byte,
    and no path of the machine in any of them."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    absolute = tmp_path / "a"
    elsewhere = tmp_path / "b" / "deep"
    elsewhere.mkdir(parents=True)
    common = ["--no-cache", "--on", "2026-06-01"]
    runs = [([str(CORPUS), str(absolute / "out"), str(absolute / "fees")], tmp_path),
            ([os.path.relpath(CORPUS, elsewhere), "out", "./fees"], elsewhere)]
    for (corpus, out, fees), cwd in runs:
        r = subprocess.run([sys.executable, "-m", "navlaw.cli", "build", "--corpus", corpus, "--out", out,
                            "--module", fees, *common], cwd=cwd, env=env, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-2000:]
    a, b = tree_bytes(absolute), tree_bytes(elsewhere)
    assert sorted(a) == sorted(b) and [k for k in a if a[k] != b[k]] == []
    leaked = [k for k, v in a.items() if str(ROOT).encode() in v or str(tmp_path).encode() in v]
    assert leaked == []


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and not p.name.endswith(".lock")}


def test_every_module_imports_without_fcntl():
    """As on Windows: no POSIX-only module at import time (the output lock is filelock's)."""
    code = ("import sys, pkgutil, importlib\n"
            "for name in ('fcntl', 'termios', 'pwd', 'grp', 'resource'):\n"
            "    sys.modules[name] = None  # import of it raises ImportError\n"
            "import navlaw\n"
            "names = [m.name for m in pkgutil.walk_packages(navlaw.__path__, 'navlaw.') if not m.name.endswith('__main__')]\n"
            "for n in names + ['navlaw_fees']:\n"
            "    importlib.import_module(n)\n"
            "print(len(names))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr[-2000:]
    assert int(r.stdout) > 60
