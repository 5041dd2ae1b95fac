// ---- New game: player rows, the deal line (R1.3/R1.4), shortened game, blank sheets ----
(function () {
  "use strict";

  // Rule numbers in text written by script link to the rulebook, like the server's.
  function linkRules(el, base) {
    var text = el.textContent;
    var re = /(^|[^\w#./-])(R[1-9](?:\.[0-9]{1,2})?)(?!\w)/g, last = 0, m;
    if (!base || !re.test(text)) return;
    re.lastIndex = 0;
    el.textContent = "";
    while ((m = re.exec(text)) !== null) {
      var at = m.index + m[1].length;
      el.appendChild(document.createTextNode(text.slice(last, at)));
      var a = document.createElement("a");
      a.className = "rule-ref";
      a.href = base + "#" + m[2];
      a.textContent = m[2];
      el.appendChild(a);
      last = at + m[2].length;
    }
    el.appendChild(document.createTextNode(text.slice(last)));
  }

  var newGame = document.getElementById("new-game");
  if (newGame) {
    // The deals and the player limits come from the server (views/games.py), as does
    // the address of the blank scoresheet.
    var info = JSON.parse(newGame.dataset.deals);
    var fewest = info.players.min, most = info.players.max;
    var blankSheet = newGame.dataset.blankSheet;
    var rows = Array.prototype.slice.call(newGame.querySelectorAll(".player-row"));
    var setSelect = newGame.querySelector("select[name=set]");
    function checkedValue(name) {
      var picked = newGame.querySelector("input[name=" + name + "]:checked");
      return picked ? picked.value : "";
    }
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
    function layout() {
      rows.forEach(function (row, i) { row.hidden = i >= shown; });
      document.getElementById("add-player").disabled = shown >= most;
      document.getElementById("remove-player").disabled = shown <= fewest;
    }
    function update() {
      var n = named().length;
      var count = Math.max(n, fewest);
      var table = checkedValue("deal") || "A";
      var suggest = document.getElementById("deal-suggest");
      suggest.textContent = "";
      if (n >= fewest) {
        var lead = document.createElement("span");
        lead.textContent = newGame.dataset.suggest.replace("{count}", count) + " ";
        linkRules(lead, newGame.dataset.rules);
        suggest.appendChild(lead);
        info.suggested[table][count].forEach(function (row) {
          var b = document.createElement("button");
          b.type = "button";
          b.className = "button chip" + (String(row.set) === setSelect.value ? " chosen" : "");
          b.textContent = newGame.dataset.suggestItem.replace("{set}", row.set)
            .replace("{each}", row.tiles_each);
          b.addEventListener("click", function () { setSelect.value = String(row.set); update(); });
          suggest.appendChild(b);
        });
      }
      var key = [table, checkedValue("starter") || "engine_holder", setSelect.value, count].join("|");
      var d = info.deals[key];
      var line = document.getElementById("deal-line");
      var warn = document.getElementById("deal-warning");
      if (n < fewest) {
        line.textContent = newGame.dataset.needPlayers || "";
      } else {
        line.textContent = newGame.dataset.dealLine.replace("{each}", d.tiles_each)
          .replace("{count}", count).replace("{left}", d.boneyard) +
          (d.in_table ? "" : " " + newGame.dataset.outside);
      }
      warn.hidden = d.fits || n < fewest;
      warn.textContent = (newGame.dataset.noFit || "").replace("{max}", d.max_each);
      [line, warn].forEach(function (el) { linkRules(el, newGame.dataset.rules); });
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
      named_link.href = blankSheet + "?" + q.toString();
      named_link.hidden = n < fewest;
      var q2 = new URLSearchParams();
      q2.set("count", String(Math.max(shown, fewest)));
      q2.set("set", setSelect.value);
      if (shortened.checked) { q2.set("start_engine", start.value); q2.set("end_engine", end.value); }
      document.getElementById("blank-count").href = blankSheet + "?" + q2.toString();
    }
    document.getElementById("add-player").addEventListener("click", function () {
      if (shown < most) { shown += 1; layout(); update(); rows[shown - 1].querySelector("input").focus(); }
    });
    document.getElementById("remove-player").addEventListener("click", function () {
      if (shown > fewest) { rows[shown - 1].querySelector("input").value = ""; shown -= 1; layout(); update(); }
    });
    newGame.addEventListener("input", update);
    newGame.addEventListener("change", update);
    layout(); update();
  }
})();
