// Copy-citation buttons: one per provision and section, copying its citation ("Nav. Law § 89-b(4)(b)(1)")
// and link. The citation is the element's title (set by navlaw from the provision id); nothing else is read.
(function () {
  function button(el, cite) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copy-cite";
    b.textContent = "Copy citation";
    b.title = "Copy " + cite + " and this page's link";
    b.addEventListener("click", function (ev) {
      ev.preventDefault();
      var url = location.href.split("#")[0] + (el.id ? "#" + el.id : "");
      var text = cite + " — " + url;
      var done = function () { b.textContent = "Copied: " + cite; b.dataset.copied = cite; delete b.dataset.failed; };
      // the clipboard refused (or there is none): say so, and leave the citation selected to copy by hand
      var failed = function () {
        b.textContent = "Could not copy: select the citation and copy it yourself";
        b.dataset.failed = cite;
        delete b.dataset.copied;
        var field = el.querySelector("input.cite-text") || document.createElement("input");
        field.className = "cite-text";
        field.readOnly = true;
        field.value = text;
        field.setAttribute("aria-label", "Citation to copy");
        if (!field.parentNode) b.insertAdjacentElement("afterend", field);
        field.select();
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, failed);
      } else {
        failed();
      }
    });
    return b;
  }
  // print: every <details> open (sources, contents, the law as of a date), the page's address and the day printed
  var opened = [];
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details:not([open])").forEach(function (d) { d.open = true; opened.push(d); });
    var meta = document.querySelector(".print-meta");
    var article = document.querySelector("article") || document.body;
    if (!meta) { meta = document.createElement("p"); meta.className = "print-meta print-only"; article.insertBefore(meta, article.firstChild); }
    meta.textContent = "Printed from " + location.href + " on " + new Date().toISOString().slice(0, 10) + ".";
  });
  window.addEventListener("afterprint", function () { opened.forEach(function (d) { d.open = false; }); opened = []; });
  function setup() {
    // bracket notation: the law in force without its deleted matter, the markup one click away
    document.querySelectorAll("button.show-markup").forEach(function (b) {
      if (b.dataset.ready) return;
      b.dataset.ready = "1";
      b.addEventListener("click", function () {
        var s = document.querySelector("section.law-section");
        if (!s) return;
        var clean = s.classList.toggle("clean");
        b.setAttribute("aria-pressed", clean ? "false" : "true");
        b.textContent = clean ? "Show the markup" : "Hide the deleted matter";
      });
    });
    // the search dialog gets a name (Material's has none)
    var dialog = document.querySelector(".md-search");
    if (dialog && !dialog.getAttribute("aria-label")) dialog.setAttribute("aria-label", "Search the site");
    document.querySelectorAll("p.prov[title]").forEach(function (p) {
      if (!p.querySelector(".copy-cite")) p.appendChild(button(p, p.getAttribute("title")));
    });
    document.querySelectorAll("section.law-section[data-cite]").forEach(function (s) {
      var h = document.querySelector("h1");
      if (h && !h.querySelector(".copy-cite")) h.appendChild(button(s, s.getAttribute("data-cite")));
    });
  }
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(setup); else document.addEventListener("DOMContentLoaded", setup);
})();
