// The site's search worker, run by Material's search box in place of Material's own worker (see
// site/overrides/main.html and compiler/site/search_index.py). It speaks Material's messages (SETUP ->
// READY, QUERY -> RESULT) and gives the results Material's worker gives, but it never holds the whole
// index. For a query it fetches the term ranges the query's words can expand to (search/terms/N.json),
// the postings of the large terms among them (search/postings/K-J.json, a run of documents each) and the
// documents of the pages it returns (search/docs/N.json, one page each), and ranks them with lunr itself,
// taken from Material's worker (its URL comes as ?theme=), over that part of the index. A query of one
// word that begins many terms ("p", "§": a wide prefix, listed in the manifest) fetches instead that
// prefix's candidates (search/top/NAME.json, compiler/site/search_top.py): the same results, from a file
// whose size does not grow with the corpus. In a query of more than one word, a word of one character
// matches that one-character word only (Material's worker: every word it begins, thousands of terms at
// scale): "89-b" is searched as Material searches "89-b~0" (the words "89" and "b"); a word that is
// only "*" (what "89-" becomes) is left out. The query's rewriting, the post-query boosts,
// the grouping by page and the highlighting are Material's (9.x), copied here because its worker does not
// export them. Results are the best MAX_GROUPS pages; the count says how many matched (RESULT's `total`,
// which main.html's script shows).
"use strict";
var MAX_GROUPS = 50;  // pages returned: Material lists 10, then 4 more at each scroll to the end (search_top.py)
var FORMAT = 2;  // the split index's format (search_index.py)
var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;  // Material's SearchMessageType

(function () {  // lunr from Material's worker, without Material's message handler
  var theme = new URL(self.location.href).searchParams.get("theme");
  var add = self.addEventListener;
  self.addEventListener = function () {};
  try { importScripts(theme); } finally { self.addEventListener = add; }
})();
var lunr = self.lunr;

var state = null;  // {config, fields, manifest, terms/postings/top/docs: {name: Promise}, index: {key, lunr}}

function fetchJSON(path) {
  return fetch(new URL("../search/" + path, self.location.href).href).then(function (r) {
    if (!r.ok) throw new Error("search: " + path + ": HTTP " + r.status);
    return r.json();
  });
}

// ---- which files a query needs ------------------------------------------------------------------------

function shardOf(firsts, term) {  // the last shard whose first term is <= term (UTF-16 order, as sorted)
  var lo = 0, hi = firsts.length - 1;
  while (lo < hi) {
    var mid = (lo + hi + 1) >> 1;
    if (firsts[mid] <= term) lo = mid; else hi = mid - 1;
  }
  return lo;
}

function clausesOf(query) {
  var q = new lunr.Query(state.fields);
  new lunr.QueryParser(query, q).parse();
  return q.clauses;
}

// The term ranges (their numbers, in order) the query's words can expand to. A fuzzy word ("pilotge~1")
// or one with a leading wildcard ("*age") can match terms anywhere in the order: their terms are found
// first among the index's term names of the lengths they can have (search/names/LENGTH-K.json: for a
// fuzzy word, within its edit distance of its length), and only the ranges of those terms are fetched
function termShards(query) {
  var firsts = state.manifest.terms, need = {}, clauses = clausesOf(query), wild = [];
  for (var i = 0; i < clauses.length; i++) {
    var c = clauses[i], star = c.term.indexOf("*");
    if (c.editDistance > 0 || star === 0) { wild.push(c); continue; }
    var prefix = star > 0 ? c.term.slice(0, star) : c.term;
    var last = star > 0 ? shardOf(firsts, prefix + "\uffff") : shardOf(firsts, prefix);
    for (var s = shardOf(firsts, prefix); s <= last; s++) need[s] = true;
  }
  function numbers() { return Object.keys(need).map(Number).sort(function (a, b) { return a - b; }); }
  if (!wild.length) return Promise.resolve(numbers());
  var files = {}, names = state.manifest.names;
  wild.forEach(function (c) {
    var bare = c.term.replace(/\*/g, ""), fuzzy = c.editDistance > 0 && c.term.indexOf("*") < 0;
    Object.keys(names).forEach(function (n) {
      if (fuzzy ? Math.abs(n - c.term.length) > c.editDistance : n < bare.length - (c.editDistance || 0)) return;
      for (var k = 0; k < names[n]; k++) files[n + "-" + k] = true;
    });
  });
  var list = Object.keys(files);
  return Promise.all(list.map(function (f) { return load(state.names, "names", f); })).then(function (got) {
    var all = [].concat.apply([], got).sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; });
    var range = {}, set = lunr.TokenSet.fromArray(all.map(function (e) { range[e[0]] = e[1]; return e[0]; }));
    wild.forEach(function (c) {
      set.intersect(lunr.TokenSet.fromClause(c)).toArray().forEach(function (t) { need[range[t]] = true; });
    });
    return numbers();
  });
}

// The postings files of the large terms the query's words expand to, among the loaded ranges' terms (as
// lunr expands them: its token sets)
function postingFiles(query, loaded) {
  var entries = [].concat.apply([], loaded), files = [];
  var large = entries.filter(function (e) { return typeof e[2] === "number"; });
  if (!large.length) return files;
  var all = lunr.TokenSet.fromArray(entries.map(function (e) { return e[0]; })), want = {};
  clausesOf(query).forEach(function (c) {
    all.intersect(lunr.TokenSet.fromClause(c)).toArray().forEach(function (t) { want[t] = true; });
  });
  large.forEach(function (e) { if (want[e[0]]) for (var j = 0; j < e[2]; j++) files.push(e[1] + "-" + j); });
  return files;
}

// The one word of a query that is a wide prefix ("p*"), or null: then its top file holds its candidates
function widePrefix(query) {
  var clauses = clausesOf(query);
  if (clauses.length !== 1) return null;
  var c = clauses[0], m = /^([^*]+)\*+$/.exec(c.term);
  if (!m || c.editDistance > 0 || c.boost !== 1 || c.presence !== lunr.Query.presence.OPTIONAL
      || c.fields.length !== state.fields.length) return null;
  var top = state.manifest.top, lo = 0, hi = top.length - 1;
  while (lo <= hi) {
    var mid = (lo + hi) >> 1;
    if (top[mid] === m[1]) return m[1];
    if (top[mid] < m[1]) lo = mid + 1; else hi = mid - 1;
  }
  return null;
}

function fileName(prefix) {  // search_top.file_name
  return prefix.replace(/[^a-z0-9-]/g, function (c) { return "_" + ("000" + c.charCodeAt(0).toString(16)).slice(-4); }) + ".json";
}

// The query with each of lunr's words `str` that `change` gives a text for written that way
function relex(query, change) {
  return query.split(" ").map(function (part) {
    var lexer = new lunr.QueryLexer(part), out = "", at = 0;
    lexer.run();
    lexer.lexemes.forEach(function (x) {
      var to = x.type === lunr.QueryLexer.TERM ? change(x.str) : null;
      if (to === null) return;
      out += part.slice(at, x.start) + to;
      at = x.end;
    });
    return out + part.slice(at);
  }).join(" ");
}

// A word that is only "*" is left out: typed, "89-" is "89-*" to Material, whose "*" is every term of the
// index (the whole index fetched at each such key)
function noBareStars(query) {
  return relex(query, function (str) { return /^\*+$/.test(str) ? "" : null; });
}

// In a query lunr reads as more than one word, a word of one character that Material's rewriting made a
// prefix ("89-b" -> "89-b*": lunr's words "89" and "b*") is that word ("89-b~0": "89" and "b")
function oneLetterWords(query) {
  if (clausesOf(query).length < 2) return query;
  return relex(query, function (str) {
    return /^(?:[^*]|[\ud800-\udbff][\udc00-\udfff])\*+$/.test(str) ? str.replace(/\*+$/, "~0") : null;
  });
}

function load(cache, kind, name) {
  if (!(name in cache)) cache[name] = fetchJSON(kind + "/" + name + (/\.json$/.test(name) ? "" : ".json"));
  return cache[name];
}

// ---- lunr over the loaded part of the index ----------------------------------------------------------

// A lunr index of the given terms ([term, index in the whole index's term order, [postings per field, ...]
// a run of documents each]), as lunr.Index.load reads a serialized one: the terms in sorted order with
// their term indexes from the whole index, and each document field's vector holding the weights of these
// terms (the query vector has no others, so every score is the whole index's). `more` terms named after
// `prefix` with no postings stand for the prefix's terms that are not here (they count in the length of
// the query's vector, as in the whole index).
function indexOf(key, terms, more) {
  if (state.index && state.index.key === key) return state.index.lunr;
  var fields = state.fields, inverted = [], vectors = {};
  terms.forEach(function (e) {
    var term = e[0], index = e[1], posting = { _index: index };
    fields.forEach(function (field, k) {
      var docs = {};
      e[2].forEach(function (run) {
        var flat = run[k], n = 0;
        for (var i = 0; i < flat.length; i += 3) {  // document (less the one before), less its page's, weight / 1000
          n += flat[i];
          var ref = (n - flat[i + 1]) + ":" + n;  // "page's first document:document"
          docs[ref] = {};
          var fref = field + "/" + ref;
          (vectors[fref] || (vectors[fref] = [])).push([index, flat[i + 2] / 1000]);
        }
      });
      posting[field] = docs;
    });
    inverted.push([term, posting]);
  });
  if (more) {
    var width = String(more.count).length;
    for (var j = 0; j < more.count; j++) {
      var stand = { _index: more.base + j };
      fields.forEach(function (field) { stand[field] = {}; });
      inverted.push([more.prefix + "\uffff" + ("0000000000" + j).slice(-width), stand]);
    }
  }
  var fieldVectors = Object.keys(vectors).map(function (fref) {
    var pairs = vectors[fref].sort(function (a, b) { return a[0] - b[0]; }), flat = [];
    pairs.forEach(function (p) { flat.push(p[0], p[1]); });
    return [fref, flat];
  });
  var idx = lunr.Index.load({ version: lunr.version, fields: fields, fieldVectors: fieldVectors,
                              invertedIndex: inverted, pipeline: [] });
  state.index = { key: key, lunr: idx };
  return idx;
}

// ---- Material's query handling (integrations/search/query, internal) -----------------------------------

function split(input, separator, fn) {
  separator = new RegExp(separator, "g");
  var match, index = 0;
  do {
    match = separator.exec(input);
    var until = match ? match.index : input.length;
    if (index < until) fn(index, until);
    if (match) {
      index = match.index + match[0].length;
      if (match[0].length === 0) separator.lastIndex = match.index + 1;
    }
  } while (match);
}

function transform(query, fn) {
  return query.trim()
    .split(/"([^"]+)"/g)
    .map(function (parts, index) { return index & 1 ? parts.replace(/^\b|^(?![^\x00-\x7F]|$)|\s+/g, " +") : parts; })
    .join("")
    .replace(/"|(?:^|\s+)[*+\-:^~]+(?=\s+|$)/g, "")
    .split(/\s+/g)
    .reduce(function (prev, term) { var next = fn(term); return prev.concat(Array.isArray(next) ? next : [next]); }, [])
    .map(function (term) { return /([~^]$)/.test(term) ? term + "1" : term; })
    .map(function (term) { return /(^[+-]|[~^]\d+$)/.test(term) ? term : term + "*"; })
    .join(" ");
}

function transformSearchQuery(query) {
  return transform(query, function (part) {
    var terms = [], lexer = new lunr.QueryLexer(part);
    lexer.run();
    lexer.lexemes.forEach(function (lexeme) {
      var type = lexeme.type, term = lexeme.str, start = lexeme.start, end = lexeme.end;
      if (type === "FIELD") {
        if (["title", "text", "tags"].indexOf(term) < 0) part = [part.slice(0, end), " ", part.slice(end + 1)].join("");
      } else if (type === "TERM") {
        split(term, lunr.tokenizer.separator, function (a, b) {
          terms.push([part.slice(0, start), term.slice(a, b), part.slice(end)].join(""));
        });
      }
    });
    return terms;
  });
}

function parseSearchQuery(value) {
  var query = new lunr.Query(["title", "text", "tags"]);
  new lunr.QueryParser(value, query).parse();
  query.clauses.forEach(function (clause) {
    clause.usePipeline = true;
    if (clause.term.startsWith("*")) { clause.wildcard = lunr.Query.wildcard.LEADING; clause.term = clause.term.slice(1); }
    if (clause.term.endsWith("*")) { clause.wildcard = lunr.Query.wildcard.TRAILING; clause.term = clause.term.slice(0, -1); }
  });
  return query.clauses;
}

function getSearchQueryTerms(query, terms) {
  var clauses = new Set(query), result = {};
  for (var t = 0; t < terms.length; t++)
    clauses.forEach(function (clause) {
      if (terms[t].startsWith(clause.term)) { result[clause.term] = true; clauses.delete(clause); }
    });
  clauses.forEach(function (clause) { if (lunr.stopWordFilter && lunr.stopWordFilter(clause.term)) result[clause.term] = false; });
  return result;
}

// Material's tokenizer (internal/extract, internal/tokenize): the words of a field with their positions
// (block << 20 | index in the block's table), and the table that maps positions to the text
function extract(input, fn) {
  var block = 0, start = 0, end = 0;
  for (var stack = 0; end < input.length; end++) {
    if (input.charAt(end) === "<" && end > start) {
      fn(block, 1, start, start = end);
    } else if (input.charAt(end) === ">") {
      if (input.charAt(start + 1) === "/") {
        if (--stack === 0) fn(block++, 2, start, end + 1);
      } else if (input.charAt(end - 1) !== "/") {
        if (stack++ === 0) fn(block, 0, start, end + 1);
      }
      start = end + 1;
    }
  }
  if (end > start) fn(block, 1, start, end);
}

function tokenize(input) {
  var tokens = [], table = [];
  var inputs = Array.isArray(input) ? input : [input];
  inputs.forEach(function (text) {
    var total = table.length;
    extract(text, function (block, type, start, end) {
      block += total;
      table[block] = table[block] || [];
      if (type !== 1) { table[block].push(start << 12 | end - start << 2 | type); return; }
      var section = text.slice(start, end);
      split(section, lunr.tokenizer.separator, function (index, until) {
        table[block].push(start + index << 12 | until - index << 2 | type);
        tokens.push([section.slice(index, until).toLowerCase(), block << 20 | table[block].length - 1]);
      });
    });
  });
  return { tokens: tokens, table: table };
}

function highlightAll(inputs, table, positions, full) {
  var mapping = [0];
  for (var t = 1; t < table.length; t++) {
    var prev = table[t - 1], next = table[t];
    var p = prev[prev.length - 1] >>> 2 & 0x3FF, q = next[0] >>> 12;
    mapping.push(+(p > q) + mapping[mapping.length - 1]);
  }
  return inputs.map(function (input, i) {
    var cursor = 0, blocks = new Map();
    positions.sort(function (a, b) { return a - b; }).forEach(function (p) {
      var index = p & 0xFFFFF, block = p >>> 20;
      if (mapping[block] !== i) return;
      if (!blocks.has(block)) blocks.set(block, []);
      blocks.get(block).push(index);
    });
    if (blocks.size === 0) return input;
    var slices = [];
    for (var entry of blocks) {
      var block = entry[0], indexes = entry[1], tb = table[block];
      var start = tb[0] >>> 12, end = tb[tb.length - 1] >>> 12, length = tb[tb.length - 1] >>> 2 & 0x3FF;
      if (full && start > cursor) slices.push(input.slice(cursor, start));
      var slice = input.slice(start, end + length);
      indexes.sort(function (a, b) { return b - a; }).forEach(function (j) {
        var p = (tb[j] >>> 12) - start, q = (tb[j] >>> 2 & 0x3FF) + p;
        slice = [slice.slice(0, p), "<mark>", slice.slice(p, q), "</mark>", slice.slice(q)].join("");
      });
      cursor = end + length;
      if (slices.push(slice) === 2) break;
    }
    if (full && cursor < input.length) slices.push(input.slice(cursor));
    return slices.join("");
  });
}

// A result's document with its fields highlighted where the query's terms matched (as Material's worker
// does with the positions lunr keeps; here the words are found again in the document)
function highlighted(doc, metadata) {
  var out = { location: doc.location, title: doc.title, text: doc.text };
  if (doc.tags) out.tags = doc.tags.slice();
  state.fields.forEach(function (field) {
    if (doc[field] === undefined || doc[field] === null) return;
    var matched = {};
    Object.keys(metadata).forEach(function (term) { if (metadata[term][field] !== undefined) matched[term] = true; });
    var tk = tokenize(doc[field]), positions = [];
    tk.tokens.forEach(function (tok) {
      var word = state.stop ? lunr.stopWordFilter(new lunr.Token(tok[0])) : tok[0];
      if (word && matched[tok[0]]) positions.push(tok[1]);
    });
    if (!positions.length) return;
    var many = Array.isArray(doc[field]);
    var done = highlightAll(many ? doc[field] : [doc[field]], tk.table, positions, field !== "text");
    out[field] = many ? done : done.pop();
  });
  return out;
}

// ---- the search (Material's Search.search, over the loaded shards) -------------------------------------

function documents(pages) {  // the documents of these pages (by their first documents' numbers): number -> document
  return Promise.all(pages.map(function (p) { return load(state.docs, "docs", p); })).then(function (got) {
    var byId = {};
    pages.forEach(function (p, k) {
      got[k].forEach(function (d, i) {
        var doc = { location: d[0] };
        state.fields.forEach(function (f, j) { if (d[j + 1] !== null) doc[f] = d[j + 1]; });
        byId[p + i] = doc;
      });
    });
    return byId;
  });
}

function search(raw, seq) {  // null when a newer query came while this one waited for its files
  var query = transformSearchQuery(raw);  // (Material's experimental segmentation of Han script is not done here)
  query = query && noBareStars(query);
  if (!query || !clausesOf(query).length) return Promise.resolve({ items: [] });
  var prefix = widePrefix(query);
  if (prefix !== null) {
    return load(state.top, "top", fileName(prefix)).then(function (top) {
      if (seq !== latest) return null;
      var terms = top.terms.map(function (e) { return [e[0], e[1], [e[2]]]; });
      var idx = indexOf("top:" + prefix, terms, { prefix: prefix, count: top.more, base: top.base });
      return ranked(idx, query, seq, top.total);
    });
  }
  query = oneLetterWords(query);
  var shards;
  return termShards(query).then(function (numbers) {
    shards = numbers;
    return Promise.all(shards.map(function (s) { return load(state.terms, "terms", s); }));
  }).then(function (loaded) {
    if (seq !== latest) return null;
    var files = postingFiles(query, loaded);
    return Promise.all(files.map(function (f) { return load(state.postings, "postings", f); })).then(function (runs) {
      if (seq !== latest) return null;
      var got = {};
      files.forEach(function (f, i) { got[f] = runs[i]; });
      var terms = [];
      loaded.forEach(function (entries) {
        entries.forEach(function (e) {
          if (typeof e[2] !== "number") { terms.push([e[0], e[1], [e[2]]]); return; }
          var all = [];
          for (var j = 0; j < e[2]; j++) if (got[e[1] + "-" + j]) all.push(got[e[1] + "-" + j]);
          if (all.length === e[2]) terms.push([e[0], e[1], all]);  // (a large term the query does not reach is left out)
        });
      });
      return ranked(indexOf(shards.join(",") + "|" + files.join(","), terms, null), query, seq, null);
    });
  });
}

// Material's Search.search over an index of the needed part: the best MAX_GROUPS pages, their documents
// highlighted; `total`: how many pages matched (null: those found here)
function ranked(idx, query, seq, total) {
  var clauses = parseSearchQuery(query).filter(function (c) { return c.presence !== lunr.Query.presence.PROHIBITED; });
  var found = idx.search(query).map(function (r) {
    var parts = r.ref.split(":"), article = +parts[0], id = +parts[1];
    var terms = getSearchQueryTerms(clauses, Object.keys(r.matchData.metadata));
    var boost = +(article === id) + Object.values(terms).filter(function (t) { return t; }).length / Object.keys(terms).length;
    return { id: id, article: article, score: r.score * (1 + Math.pow(boost, 2)), terms: terms, metadata: r.matchData.metadata };
  }).sort(function (a, b) { return b.score - a.score; });
  var groups = new Map();
  found.forEach(function (r) {
    if (!groups.has(r.article)) groups.set(r.article, []);
    groups.get(r.article).push(r);
  });
  var shown = Array.from(groups.entries()).slice(0, MAX_GROUPS);
  return documents(shown.map(function (g) { return g[0]; })).then(function (docs) {
    if (seq !== latest) return null;
    var items = shown.map(function (g) {
      var article = docs[g[0]];
      var group = g[1].map(function (r) {
        var item = highlighted(docs[r.id], r.metadata);
        if (r.id !== r.article) item.parent = article;
        item.score = r.score;
        item.terms = r.terms;
        return item;
      });
      if (!g[1].some(function (r) { return r.id === g[0]; })) {
        var whole = { location: article.location, title: article.title, text: article.text, score: 0, terms: {} };
        if (article.tags) whole.tags = article.tags.slice();
        group.push(whole);
      }
      return group;
    });
    var result = { items: items, total: total === null ? groups.size : total };
    if (state.suggest) result.suggest = suggestions(idx, clauses);
    return result;
  });
}

function suggestions(idx, clauses) {
  var titles = idx.query(function (builder) {
    clauses.forEach(function (clause) {
      builder.term(clause.term, { fields: ["title"], presence: lunr.Query.presence.REQUIRED, wildcard: lunr.Query.wildcard.TRAILING });
    });
  });
  return titles.length ? Object.keys(titles[0].matchData.metadata) : [];
}

// ---- messages -------------------------------------------------------------------------------------------

var queue = Promise.resolve(), latest = 0;

function handle(message, seq) {
  if (message.type === SETUP) {
    var config = message.data.config, manifest = config.navlaw;
    if (!manifest || manifest.format !== FORMAT) throw new Error("search: this page's index is not one this worker reads; reload the page");
    lunr.tokenizer.separator = new RegExp(config.separator);
    state = { config: config, fields: manifest.fields, manifest: manifest, terms: {}, postings: {}, top: {}, names: {}, docs: {}, index: null,
              stop: config.pipeline.indexOf("stopWordFilter") >= 0,
              suggest: !!(message.data.options && message.data.options.suggest) };
    postMessage({ type: READY });
    return Promise.resolve();
  }
  if (message.type !== QUERY) throw new TypeError("Invalid message type");
  if (seq !== latest) return Promise.resolve();  // a newer query is waiting: answer that one
  return search(message.data, seq).catch(function (err) {
    console.warn("Invalid query: " + message.data + " – see https://bit.ly/2s3ChXG");
    console.warn(err);
    return { items: [] };
  }).then(function (data) {
    if (data && seq === latest) postMessage({ type: RESULT, data: data });
  });
}

addEventListener("message", function (ev) {
  var seq = ev.data && ev.data.type === QUERY ? ++latest : latest;
  queue = queue.then(function () { return handle(ev.data, seq); }).catch(function (err) { console.warn(err); });
});
