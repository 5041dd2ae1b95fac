// ---- Round screen: "went out", the pip counter (R7.3) ----
(function () {
  "use strict";

  var dialog = document.getElementById("pip-counter");
  var pipPicker = document.getElementById("pip-picker");
  if (pipPicker) {
    // The pip counter's tiles are drawn here rather than sent in the page: the counter
    // needs script anyway, and the page stays small.
    var top = parseInt(pipPicker.dataset.set, 10);
    var engineKey = pipPicker.dataset.engine + "-" + pipPicker.dataset.engine;
    for (var lo = 0; lo <= top; lo++) {
      var row = document.createElement("div");
      row.className = "picker-row";
      for (var hi = lo; hi <= top; hi++) {
        var key = lo + "-" + hi;
        var btn = document.createElement("button");
        btn.type = "button";
        btn.className = "tile-btn";
        btn.dataset.tile = key;
        btn.setAttribute("aria-pressed", "false");
        if (key === engineKey) {
          btn.disabled = true;
          btn.dataset.engine = "1";
          btn.title = pipPicker.dataset.engineLabel;
        }
        btn.appendChild(dominoSvg(pipPicker.dataset.sprite, lo, hi, 19, true, key));
        row.appendChild(btn);
      }
      pipPicker.appendChild(row);
    }
  }
  if (dialog) {
    // Delegated from the document: the round form may be replaced by an update (updates.js).
    var scores = JSON.parse(dialog.dataset.scores);
    var seat = null;
    var picked = {};
    function handInput(i) { return document.getElementById("hand-" + i); }
    function scoreInput(i) { return document.getElementById("score-" + i); }
    function tilesOf(i) { var v = handInput(i).value.trim(); return v ? v.split(/\s+/) : []; }
    function summarize(i) {
      var tiles = tilesOf(i);
      document.getElementById("hand-summary-" + i).textContent = tiles.length ?
        tiles.join("  ·  ") : "";
    }
    function summarizeAll() {
      document.querySelectorAll("#round-form .hand-input").forEach(function (h) { summarize(h.id.split("-")[1]); });
    }
    function refresh() {
      var total = 0, count = 0;
      Object.keys(picked).forEach(function (k) { if (picked[k]) { total += scores[k]; count += 1; } });
      document.getElementById("pip-score").textContent = total;
      document.getElementById("pip-count").textContent = "(" + count + ")";
      return total;
    }
    function openCounter(b) {
      seat = b.dataset.seat;
      document.getElementById("pip-player").textContent = b.dataset.name;
      picked = {};
      tilesOf(seat).forEach(function (t) { picked[t] = true; });
      var taken = {};
      document.querySelectorAll("#round-form .hand-input").forEach(function (h) {
        var i = h.id.split("-")[1];
        if (i !== String(seat)) tilesOf(i).forEach(function (t) { taken[t] = true; });
      });
      dialog.querySelectorAll(".tile-btn").forEach(function (t) {
        var key = t.dataset.tile;
        t.disabled = !!t.dataset.engine || !!taken[key];
        t.setAttribute("aria-pressed", picked[key] ? "true" : "false");
      });
      refresh();
      dialog.showModal();
    }
    document.addEventListener("click", function (e) {
      var b = e.target.closest ? e.target.closest("#round-form .went-out, #round-form .count-tiles") : null;
      if (!b) return;
      if (b.classList.contains("went-out")) {
        var i = b.dataset.seat;
        scoreInput(i).value = "0";
        handInput(i).value = "";
        summarize(i);
      } else {
        openCounter(b);
      }
    });
    document.addEventListener("input", function (e) {
      // A typed score replaces a counted hand.
      if (!e.target.matches || !e.target.matches("#round-form .score-input")) return;
      var i = e.target.id.split("-")[1];
      handInput(i).value = "";
      summarize(i);
    });
    document.addEventListener("updates:replaced", summarizeAll);
    dialog.addEventListener("click", function (e) {
      var t = e.target.closest(".tile-btn");
      if (!t || t.disabled) return;
      var key = t.dataset.tile;
      picked[key] = !picked[key];
      t.setAttribute("aria-pressed", picked[key] ? "true" : "false");
      refresh();
    });
    document.getElementById("pip-clear").addEventListener("click", function () {
      picked = {};
      dialog.querySelectorAll(".tile-btn").forEach(function (t) { t.setAttribute("aria-pressed", "false"); });
      refresh();
    });
    document.getElementById("pip-use").addEventListener("click", function () {
      var total = refresh();
      var keys = Object.keys(picked).filter(function (k) { return picked[k]; });
      scoreInput(seat).value = String(total);
      handInput(seat).value = keys.join(" ");
      summarize(seat);
      dialog.close();
    });
    summarizeAll();
  }
})();
