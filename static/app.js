// Mexican Train Scorekeeper — small progressive enhancements; every page works without them.
(function () {
  "use strict";

  // ---- New game: player rows, the deal line (R1.3/R1.4), shortened game, blank sheets ----
  var newGame = document.getElementById("new-game");
  if (newGame) {
    var info = JSON.parse(newGame.dataset.deals);
    var rows = Array.prototype.slice.call(newGame.querySelectorAll(".player-row"));
    var setSelect = newGame.querySelector("select[name=set]");
    var dealSelect = newGame.querySelector("select[name=deal]");
    var starterSelect = newGame.querySelector("select[name=starter]");
    var shortened = newGame.querySelector("input[name=shortened]");
    var engines = document.getElementById("engines");
    var shown = 0;
    rows.forEach(function (row, i) {
      if (row.querySelector("input").value.trim() !== "") shown = i + 1;
    });
    shown = Math.max(shown, 4);
    function named() {
      return rows.slice(0, shown).map(function (r) { return r.querySelector("input").value.trim(); })
        .filter(function (v) { return v !== ""; });
    }
    function playerCount() { return Math.max(2, Math.min(14, Math.max(named().length, 2))); }
    function layout() {
      rows.forEach(function (row, i) { row.hidden = i >= shown; });
      document.getElementById("add-player").disabled = shown >= 14;
      document.getElementById("remove-player").disabled = shown <= 2;
    }
    function update() {
      var n = named().length;
      var count = Math.max(n, 2);
      var table = dealSelect.value;
      var suggest = document.getElementById("deal-suggest");
      suggest.textContent = "";
      if (n >= 2) {
        suggest.appendChild(document.createTextNode(newGame.dataset.suggest.replace("{count}", count) + " "));
        info.suggested[table][count].forEach(function (row) {
          var b = document.createElement("button");
          b.type = "button";
          b.className = "button chip" + (String(row[0]) === setSelect.value ? " chosen" : "");
          b.textContent = newGame.dataset.suggestItem.replace("{set}", row[0]).replace("{each}", row[1]);
          b.addEventListener("click", function () { setSelect.value = String(row[0]); update(); });
          suggest.appendChild(b);
        });
      }
      var key = [table, starterSelect.value, setSelect.value, count].join("|");
      var d = info.deals[key];
      var line = document.getElementById("deal-line");
      var warn = document.getElementById("deal-warning");
      if (n < 2) {
        line.textContent = newGame.dataset.needPlayers || "";
      } else {
        line.textContent = newGame.dataset.dealLine.replace("{each}", d[0])
          .replace("{count}", count).replace("{left}", d[4]) +
          (d[3] ? "" : " " + newGame.dataset.outside);
      }
      warn.hidden = d[1] || n < 2;
      warn.textContent = (newGame.dataset.noFit || "").replace("{max}", d[2]);
      engines.hidden = !shortened.checked;
      var top = parseInt(setSelect.value, 10);
      var start = engines.querySelector("input[name=start_engine]");
      var end = engines.querySelector("input[name=end_engine]");
      start.max = top; end.max = top;
      if (shortened.checked && start.value === "") start.value = top;
      if (shortened.checked && end.value === "") end.value = 0;
      var q = new URLSearchParams();
      named().forEach(function (p) { q.append("players", p); });
      q.set("set", setSelect.value);
      if (shortened.checked) { q.set("start_engine", start.value); q.set("end_engine", end.value); }
      var named_link = document.getElementById("blank-named");
      named_link.href = "/scoresheets/blank.pdf?" + q.toString();
      named_link.hidden = n < 2;
      var q2 = new URLSearchParams();
      q2.set("count", String(Math.max(shown, 2)));
      q2.set("set", setSelect.value);
      if (shortened.checked) { q2.set("start_engine", start.value); q2.set("end_engine", end.value); }
      document.getElementById("blank-count").href = "/scoresheets/blank.pdf?" + q2.toString();
    }
    document.getElementById("add-player").addEventListener("click", function () {
      if (shown < 14) { shown += 1; layout(); update(); rows[shown - 1].querySelector("input").focus(); }
    });
    document.getElementById("remove-player").addEventListener("click", function () {
      if (shown > 2) { rows[shown - 1].querySelector("input").value = ""; shown -= 1; layout(); update(); }
    });
    newGame.addEventListener("input", update);
    newGame.addEventListener("change", update);
    layout(); update();
  }

  // ---- Round screen: "went out", the pip counter (R7.3) ----
  var roundForm = document.getElementById("round-form");
  var dialog = document.getElementById("pip-counter");
  if (roundForm && dialog) {
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
    function refresh() {
      var total = 0, count = 0;
      Object.keys(picked).forEach(function (k) { if (picked[k]) { total += scores[k]; count += 1; } });
      document.getElementById("pip-score").textContent = total;
      document.getElementById("pip-count").textContent = "(" + count + ")";
      return total;
    }
    roundForm.querySelectorAll(".went-out").forEach(function (b) {
      b.addEventListener("click", function () {
        var i = b.dataset.seat;
        scoreInput(i).value = "0";
        handInput(i).value = "";
        summarize(i);
      });
    });
    roundForm.querySelectorAll(".score-input").forEach(function (inp) {
      inp.addEventListener("input", function () {
        // A typed score replaces a counted hand.
        var i = inp.id.split("-")[1];
        handInput(i).value = "";
        summarize(i);
      });
    });
    roundForm.querySelectorAll(".count-tiles").forEach(function (b) {
      b.addEventListener("click", function () {
        seat = b.dataset.seat;
        document.getElementById("pip-player").textContent = b.dataset.name;
        picked = {};
        tilesOf(seat).forEach(function (t) { picked[t] = true; });
        var taken = {};
        roundForm.querySelectorAll(".hand-input").forEach(function (h) {
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
      });
    });
    dialog.querySelectorAll(".tile-btn").forEach(function (t) {
      t.addEventListener("click", function () {
        var key = t.dataset.tile;
        picked[key] = !picked[key];
        t.setAttribute("aria-pressed", picked[key] ? "true" : "false");
        refresh();
      });
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
    roundForm.querySelectorAll(".hand-input").forEach(function (h) { summarize(h.id.split("-")[1]); });
  }
})();
