// Copy-citation buttons: one per provision and section, copying its citation ("Nav. Law § 89-b(4)(b)(1)")
// and link. The citation is the element's title (set by navlaw from the provision id); nothing else is read.
(function () {
  function button(el, cite) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copy-cite";
    b.textContent = "Copy citation";
    b.setAttribute("aria-label", "Copy the citation " + cite);
    b.addEventListener("click", function (ev) {
      ev.preventDefault();
      var url = location.href.split("#")[0] + (el.id ? "#" + el.id : "");
      var text = cite + " — " + url;
      var done = function () { b.textContent = "Copied: " + cite; b.dataset.copied = cite; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, done);
      } else {
        done();
      }
    });
    return b;
  }
  function setup() {
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
