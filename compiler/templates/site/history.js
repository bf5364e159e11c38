// History pages: "view as of" finds the version in force on any date (the last version date on or
// before it) and opens it; "compare" shows the redline between the two versions picked. Without
// JavaScript every version and every redline is on the page as it is.
(function () {
  function asOf(form) {
    var dates = (form.getAttribute("data-dates") || "").split(" ").filter(Boolean);
    var input = form.querySelector("input[name=on]"), out = form.querySelector("output");
    function show() {
      var day = input.value, pick = "";
      dates.forEach(function (d) { if (d <= day) pick = d; });
      if (!day) { out.textContent = ""; return; }
      if (!pick) { out.textContent = "The corpus has no text of this section before " + dates[0] + "."; return; }
      if (href) { location.href = href + "#v" + pick; return; }  // a law page: to the version on the history page
      var box = document.getElementById("v" + pick);
      out.textContent = "In force on " + day + ": the version as of " + pick + ".";
      if (box) {
        var d = box.nextElementSibling && box.nextElementSibling.querySelector("details.law-as-of");
        if (d) d.open = true;
        if (location.hash !== "#v" + pick) history.replaceState(null, "", "#v" + pick);
        box.scrollIntoView();
      }
    }
    var href = form.getAttribute("data-href");
    if (href) form.addEventListener("submit", show); else input.addEventListener("change", show);
  }
  function compare(form) {
    var from = form.querySelector("select[name=from]"), to = form.querySelector("select[name=to]");
    var pairs = document.querySelectorAll("section.pair");
    var same = document.createElement("p");
    same.className = "same";
    same.textContent = "Pick two different versions to see what changed between them.";
    form.appendChild(same);
    function show() {
      same.hidden = from.value !== to.value;
      var a = from.value < to.value ? from.value : to.value, b = from.value < to.value ? to.value : from.value;
      pairs.forEach(function (p) {
        p.hidden = !(p.getAttribute("data-from") === a && p.getAttribute("data-to") === b);
      });
    }
    from.addEventListener("change", show);
    to.addEventListener("change", show);
    show();
  }
  function setup() {
    document.querySelectorAll("form.as-of, form.compare").forEach(function (f) {
      f.addEventListener("submit", function (ev) { ev.preventDefault(); });  // nothing is sent anywhere
    });
    document.querySelectorAll("form.as-of").forEach(asOf);
    document.querySelectorAll("form.compare").forEach(compare);
  }
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(setup); else document.addEventListener("DOMContentLoaded", setup);
})();
