// Compares navlaw's search worker over the split index with Material's worker over the whole index, in
// node (no browser: a site of any size, e.g. 100x, where the browser tests build 1x and 4x):
//   node benchmarks/search_compare.js SITE p "§" pilotage "89-b=89-b~0"
// QUERY=AS_MATERIAL asks Material's worker for AS_MATERIAL where navlaw's reads QUERY otherwise on purpose
// (tests/test_search_split.py's AS_MATERIAL). Prints, per query, SAME when the listed pages, scores,
// titles, texts, tags and terms and the count are Material's, else DIFFERENT.
const fs = require("fs"), path = require("path"), vm = require("vm");
const site = process.argv[2], queries = process.argv.slice(3);
const theme = fs.readdirSync(path.join(site, "assets/javascripts/workers")).find(f => /^search\..*\.min\.js$/.test(f));
function worker(code, onmsg) {
  const listeners = [];
  const ctx = { console, URL, Promise, Map, Set, setTimeout, clearTimeout, Object, Array, JSON };
  ctx.self = ctx;
  ctx.location = { href: "http://x/assets/navlaw-search-worker.js?theme=" + encodeURIComponent("http://x/assets/javascripts/workers/" + theme) };
  ctx.addEventListener = (t, f) => { if (t === "message") listeners.push(f); };
  ctx.importScripts = u => vm.runInContext(fs.readFileSync(path.join(site, new URL(u).pathname), "utf8"), ctx);
  ctx.postMessage = m => onmsg(m);
  ctx.fetch = u => { const p = path.join(site, new URL(u).pathname);
    if (!fs.existsSync(p)) return Promise.resolve({ ok: false, status: 404 });
    return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(JSON.parse(fs.readFileSync(p, "utf8"))) }); };
  vm.createContext(ctx);
  vm.runInContext(code, ctx);
  return { send: d => listeners.forEach(f => f({ data: d })) };
}
function run(code, setup, qs) {
  return new Promise(done => {
    const out = []; let w;
    w = worker(code, m => {
      if (m.type === 1) w.send({ type: 2, data: qs[0] });
      if (m.type !== 3) return;
      out.push(m.data);
      if (out.length < qs.length) w.send({ type: 2, data: qs[out.length] }); else done(out);
    });
    w.send({ type: 0, data: setup });
  });
}
const manifest = JSON.parse(fs.readFileSync(path.join(site, "search/search_index.json"), "utf8"));
const cfg = Object.assign({}, manifest.config); delete cfg.navlaw;
const nav = manifest.config.navlaw, docs = [];
fs.readdirSync(path.join(site, "search/docs")).map(f => +f.split(".")[0]).sort((a, b) => a - b).forEach(n => {
  JSON.parse(fs.readFileSync(path.join(site, "search/docs", n + ".json"), "utf8")).forEach(row => {
    const d = { location: row[0] }; nav.fields.forEach((f, i) => { if (row[i + 1] !== null) d[f] = row[i + 1]; }); docs.push(d);
  });
});
const [ours, asked] = [queries.map(q => q.split("=")[0]), queries.map(q => q.split("=").slice(-1)[0])];
(async () => {
  const m = await run(fs.readFileSync(path.join(site, "assets/javascripts/workers", theme), "utf8"), { config: cfg, docs, options: { suggest: false } }, asked);
  const o = await run(fs.readFileSync(path.join(site, "assets/navlaw-search-worker.js"), "utf8"), { config: manifest.config, docs: [], options: { suggest: false } }, ours);
  const shown = g => g.map(i => [i.location, i.score.toFixed(9), i.title, i.text, JSON.stringify(i.tags), JSON.stringify(i.terms)].join("|")).join("\n");
  ours.forEach((q, k) => {
    const a = m[k].items.slice(0, 50).map(shown), b = o[k].items.map(shown);
    const same = a.length === b.length && a.every((x, i) => x === b[i]) && o[k].total === m[k].items.length;
    console.log(JSON.stringify(q), same ? "SAME" : "DIFFERENT", m[k].items.length, o[k].total);
  });
})();
