// The calculator form: options follow the route's plan; the result lists each line with its citation.
"use strict";
(function () {
  const form = document.getElementById("calc");
  if (!form) return;
  const box = document.getElementById("options");
  const result = document.getElementById("result");
  // "3811.50" -> "$3,811.50": the module's exact cents, with the thousands grouped for reading
  const money = (s) => { const [i, f] = String(s).split("."); return "$" + i.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (f === undefined ? "" : "." + f); };
  const link = (l) => {  // the provision's anchor on its law page
    const sec = l.provision.startsWith("21nycrr/") ? l.provision.split("/").slice(0, 2).join("/") : l.provision.split("/")[0];
    const page = (window.SECTION_PAGES || {})[sec];
    const anchor = "p-" + l.provision.replace(/\*/g, "x").replace(/[^A-Za-z0-9-]+/g, "-");
    return page ? `<a href="../${page}#${anchor}">${esc(l.citation)}</a>` : esc(l.citation);
  };
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  // "Show working": each line's arithmetic with the numbers put in, the rounding, and the provision
  function working(q) {
    const items = q.lines.filter((l) => l.working).map((l) => `<li>${esc(l.description)}: ` +
      l.working.steps.map((s) => `${esc(s)}; `).join("") +
      `<code>${esc(l.working.expression)}</code> = ${esc(l.working.exact)} → ${money(l.amount)} (rounded once to cents, ` +
      `half up), ${link(l)}</li>`);
    return `<details class="working" id="working"><summary>Show working</summary><ol>${items.join("")}</ol>` +
      `<p>The words of the law each number is read from: <code>navlaw fee … --trace</code> or <code>q.trace()</code>.</p></details>`;
  }
  function renderOptions() {
    const plan = PLANS[form.route.value];
    box.innerHTML = plan.options.map((o) => {
      if (o.kind === "flag" && o.most > 1) return `<p><label><input type="checkbox" name="opt-${o.name}"> ${esc(o.help)}</label> <label>times <input name="times-${o.name}" size="3" inputmode="numeric" placeholder="1"></label></p>`;
      if (o.kind === "flag") return `<p><label><input type="checkbox" name="opt-${o.name}"> ${esc(o.help)}</label></p>`;
      if (o.kind === "choice" && o.most > 1) return `<p><label>${esc(o.help)} (up to ${o.most}) <select multiple name="opt-${o.name}">${o.choices.map((c) => `<option>${esc(c)}</option>`).join("")}</select></label></p>`;
      if (o.kind === "choice") return `<p><label>${esc(o.help)} <select name="opt-${o.name}"><option value="">—</option>${o.choices.map((c) => `<option>${esc(c)}</option>`).join("")}</select></label></p>`;
      const several = o.kind === "hours" ? " (several: 6, 8)" : "";
      return `<p><label>${esc(o.help)}${several} <input name="opt-${o.name}" size="8" inputmode="decimal"></label></p>`;
    }).join("");
  }
  // What is wrong with the form, in words (null: nothing): checked before any quote is made.
  const NUMBER = /^\d+(\.\d+)?$/;
  function problem() {
    if (form.unmeasured.checked) {  // the units and dimensions are set aside (disabled)
      if (!/^\d{4}-\d{2}-\d{2}$/.test(form.on.value)) return "Enter the date of the service (year, month and day).";
      return null;
    }
    const u = form.units.value.trim();
    const dims = [["length", "overall length"], ["breadth", "extreme breadth"], ["depth", "depth"]];
    if (u) {
      if (!NUMBER.test(u.replace(/,/g, "")) || Number(u.replace(/,/g, "")) <= 0)
        return `Enter the vessel's pilotage units, a number above 0 (for example 350 or 412.5): "${u}" is not one.`;
    } else {
      const missing = dims.filter(([n]) => !form[n].value.trim());
      if (missing.length === 3) return "Enter the vessel's pilotage units, a number above 0, or its overall length, extreme breadth and depth in feet.";
      if (missing.length) return `Enter the vessel's ${missing.map(([, w]) => w).join(" and ")} in feet, or its pilotage units.`;
      for (const [n, w] of dims) {
        const v = form[n].value.trim();
        if (!NUMBER.test(v) || Number(v) <= 0) return `Enter the vessel's ${w} in feet, a number above 0: "${v}" is not one.`;
      }
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(form.on.value)) return "Enter the date of the service (year, month and day).";
    for (const o of PLANS[form.route.value].options) {
      const el = form.elements["opt-" + o.name];
      if (!el || o.kind === "flag" || o.kind === "choice") continue;
      const bad = el.value.split(",").map((x) => x.trim()).filter((x) => x && !NUMBER.test(x));
      if (bad.length) return `${o.help}: enter ${o.kind === "hours" ? "a number of hours" : "an amount"}, 0 or more ("${bad[0]}" is not one).`;
    }
    return null;
  }
  function units() {
    if (form.unmeasured.checked) return null;  // the maximum pilotage charge
    const u = form.units.value.trim();
    if (u) return u.replace(/,/g, "");
    const dims = [form.length.value, form.breadth.value, form.depth.value].map((x) => x.trim());
    const [l, b, d] = dims.map((x) => Q.of(x));
    const places = dims.reduce((n, x) => n + (x.includes(".") ? x.split(".")[1].length : 0), 0);
    const q = Q.div(Q.mul(Q.mul(l, b), d), Q.int(10000));  // exact: L × B × D / 10,000
    return { exact: q, text: decimalText(q, places) };
  }
  function run(ev) {
    if (ev) ev.preventDefault();
    const plan = PLANS[form.route.value];
    const options = {};
    for (const o of plan.options) {
      const el = form.elements["opt-" + o.name];
      if (!el) continue;
      if (o.kind === "flag" && o.most > 1) {
        const n = Number((form.elements["times-" + o.name].value || "1").trim());
        if (el.checked) options[o.name] = n > 1 ? n : true;
      } else if (o.kind === "flag") { if (el.checked) options[o.name] = true; }
      else if (o.kind === "choice" && o.most > 1) {
        const picked = [...el.selectedOptions].map((x) => x.value);
        if (picked.length) options[o.name] = picked;
      } else if (o.kind === "hours" && el.value.includes(",")) options[o.name] = el.value.split(",").map((x) => x.trim()).filter((x) => x);
      else if (el.value.trim()) options[o.name] = el.value.trim();
    }
    const wrong = problem();
    if (wrong) { result.innerHTML = `<p class="error" id="error" role="alert">${esc(wrong)}</p>`; return; }
    try {
      const q = quote(form.route.value, units(), form.on.value, options);
      const table = (one, id, caption) => `<table class="quote">${caption ? `<caption>${esc(caption)}</caption>` : ""}<tr><th>Item</th><th>Amount</th><th>Law</th></tr>` +
        one.lines.map((l) => `<tr><td>${esc(l.description)}</td><td class="amount">${money(l.amount)}</td><td>${link(l)}</td></tr>`).join("") +
        `<tr class="total"><td>Total</td><td class="amount" id="${id}">${money(one.total)}</td><td></td></tr></table>`;
      const alts = q.alternatives || [];  // a date known only between bounds: each possible amount
      result.innerHTML = table(q, "total", alts.length ? "If the change had not yet taken effect on that day" : "") +
        alts.map((a, i) => table(a.quote, `total-${i + 2}`, `If ${a.condition}`)).join("") +
        `<ul class="notes">${q.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>` + working(q);
    } catch (e) {
      result.innerHTML = `<p class="error" id="error">${esc(e.message)}</p>`;
    }
  }
  // the day the page is opened, in the reader's time zone (the field keeps the site's date otherwise)
  const now = new Date();
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(today)) form.on.value = today;
  form.unmeasured.addEventListener("change", () => {
    for (const n of ["units", "length", "breadth", "depth"]) form[n].disabled = form.unmeasured.checked;
  });
  form.route.addEventListener("change", renderOptions);
  form.addEventListener("submit", run);
  renderOptions();
})();
