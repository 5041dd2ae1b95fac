// Mexican Train Scorekeeper — small progressive enhancements; every page works without them.
// A domino drawn from the cached sprite, the same markup as the server's domino_svg: a
// frame and two halves, three <use> references. An empty label hides it from screen readers.
function dominoSvg(sprite, a, b, size, vertical, label) {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", "domino");
  svg.setAttribute("viewBox", vertical ? "0 0 100 200" : "0 0 200 100");
  svg.setAttribute("width", vertical ? size : 2 * size);
  svg.setAttribute("height", vertical ? 2 * size : size);
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  [[vertical ? "fv" : "fh", 0, 0], ["p" + a, 0, 0], ["p" + b, vertical ? 0 : 100, vertical ? 100 : 0]]
    .forEach(function (u) {
      var use = document.createElementNS(NS, "use");
      use.setAttribute("href", sprite + "#" + u[0]);
      if (u[1]) use.setAttribute("x", u[1]);
      if (u[2]) use.setAttribute("y", u[2]);
      svg.appendChild(use);
    });
  return svg;
}

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

  // ---- New game: player rows, the deal line (R1.3/R1.4), shortened game, blank sheets ----
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

  // ---- Round screen: "went out", the pip counter (R7.3) ----
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
    // Delegated from the document: the round form may be replaced by a live update.
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
    document.addEventListener("live:replaced", summarizeAll);
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

// ---- The typed round stays on this device until the server has it ----
// Tablets on club Wi-Fi drop out. A round typed and saved while the server cannot be
// reached is kept in localStorage (plain http on the LAN: no service worker), keyed by
// game, round and the revision the page was opened at; the page says so and offers it
// again when the server answers. It is sent as the form always is (its revision and
// base scores with it), so a round another device saved meanwhile is merged or asked
// about (409) as usual, and a round is never saved twice. A save that reached the
// server leads to a page flashing "saved" (views/rounds.py): only then is it forgotten.
(function () {
  "use strict";
  var PREFIX = "scorekeeper.draft:", SENDING = "scorekeeper.sending";
  var store, tab;
  try { store = window.localStorage; tab = window.sessionStorage; store.getItem(PREFIX); }
  catch (e) { return; }   // storage refused (a private window): the form works as before
  var form = document.getElementById("round-form");

  // A save this tab sent: the page it led to says whether the server took it.
  var sent = tab.getItem(SENDING);
  if (sent) {
    var sentRound = sent.slice(PREFIX.length).split(":").slice(0, 2).join(":");
    if (document.querySelector(".flash.saved")) {
      store.removeItem(sent);
      tab.removeItem(SENDING);
    } else if (form && form.dataset.draft === sentRound) {
      tab.removeItem(SENDING);   // refused and shown again with what was typed: kept
    }   // else the PIN page, or no answer at all: wait for the page that follows
  }
  if (!form || !form.dataset.draft) return;

  var box = document.getElementById("unsent"), text = document.getElementById("unsent-text");
  var sendNow = document.getElementById("unsent-send");
  var saveButton = document.getElementById("save-round");
  var round = form.dataset.draft.split(":")[1];
  var watching = null;

  function draftsOfThisRound() {
    var keys = [];
    for (var i = 0; i < store.length; i++) {
      var k = store.key(i);
      if (k && k.indexOf(PREFIX + form.dataset.draft + ":") === 0) keys.push(k);
    }
    return keys;
  }
  function fields() {
    var out = [];
    new FormData(form).forEach(function (v, k) { if (k !== "csrf_token") out.push([k, String(v)]); });
    return out;
  }
  function keep() {
    draftsOfThisRound().forEach(function (k) { store.removeItem(k); });
    var key = PREFIX + form.dataset.draft + ":" + (form.elements.revision ? form.elements.revision.value : "");
    try { store.setItem(key, JSON.stringify({ fields: fields(), at: Date.now() })); }
    catch (e) { /* storage full: the form is still on the page */ }
    return key;
  }
  function say(sentence, canSend) {
    text.textContent = sentence.replace("{round}", round);
    sendNow.hidden = !canSend;
    box.hidden = false;
  }
  function reachable(timeout) {
    var ctrl = window.AbortController ? new AbortController() : null;
    var timer = ctrl ? setTimeout(function () { ctrl.abort(); }, timeout) : null;
    return fetch(form.dataset.probe, { cache: "no-store", credentials: "same-origin",
                                       signal: ctrl ? ctrl.signal : undefined })
      .then(function (r) { return r.ok; }, function () { return false; })
      .then(function (ok) { if (timer) clearTimeout(timer); return ok; });
  }
  function watch() {
    // Offered again as soon as the server answers: on the browser's "online", and every 3 s.
    if (watching) return;
    function check() {
      reachable(4000).then(function (ok) {
        if (!ok || !watching) return;
        clearInterval(watching);
        watching = null;
        say(form.dataset.reachable, true);
      });
    }
    watching = setInterval(check, 3000);
    window.addEventListener("online", check);
  }
  var sending = false;
  function send() {
    if (sending) return;   // one save at a time: a second tap never sends it twice
    sending = true;
    var key = keep();
    if (saveButton) saveButton.disabled = true;
    reachable(6000).then(function (ok) {
      if (!ok) {
        sending = false;
        if (saveButton) saveButton.disabled = false;
        say(form.dataset.unsent, false);
        watch();
        return;
      }
      tab.setItem(SENDING, key);
      HTMLFormElement.prototype.submit.call(form);   // the form as always, not this handler
    });
  }
  window.addEventListener("pageshow", function (e) {
    // Back to this page from the browser's history: it may be sent again.
    if (e.persisted) { sending = false; if (saveButton) saveButton.disabled = false; }
  });
  form.addEventListener("submit", function (e) {
    if (!window.fetch) return;
    e.preventDefault();
    send();
  });
  sendNow.addEventListener("click", send);
  document.getElementById("unsent-discard").addEventListener("click", function () {
    draftsOfThisRound().forEach(function (k) { store.removeItem(k); });
    tab.removeItem(SENDING);
    location.reload();
  });

  // A round typed here and never sent: put it back in the form, unless the server has just
  // shown the form again with what was typed (a refusal, a conflict, a warning).
  var kept = draftsOfThisRound();
  if (!kept.length || form.hasAttribute("data-hold")) return;
  var draft;
  try { draft = JSON.parse(store.getItem(kept[kept.length - 1])); } catch (e) { draft = null; }
  if (!draft || !draft.fields) return;
  var differs = draft.fields.some(function (f) {
    var el = form.elements[f[0]];
    return /^score-/.test(f[0]) && el && el.value !== f[1];
  });
  if (!differs) {   // what is stored already: nothing to offer
    kept.forEach(function (k) { store.removeItem(k); });
    return;
  }
  draft.fields.forEach(function (f) {
    var el = form.elements[f[0]];
    if (!el) return;
    if (el.length !== undefined && !el.tagName) {   // a radio group (a conflict's choice)
      Array.prototype.forEach.call(el, function (r) { r.checked = r.value === f[1]; });
    } else {
      el.value = f[1];
    }
  });
  document.dispatchEvent(new CustomEvent("live:replaced", { bubbles: true }));
  say(form.dataset.restored, false);
})();

// ---- Referee: each train described by tapping its last tile (the select stays the value) ----
(function () {
  "use strict";
  var list = document.getElementById("trains-sketch");
  var dialog = document.getElementById("last-dialog");
  if (!list || !dialog || !dialog.showModal) return;
  var sprite = list.dataset.sprite;
  var top = parseInt(list.dataset.set, 10);
  var engine = parseInt(list.dataset.engine, 10);
  function domino(a, b, size, vertical) { return dominoSvg(sprite, a, b, size, vertical, ""); }
  function key(a, b) { return Math.min(a, b) + "-" + Math.max(a, b); }
  var rows = Array.prototype.slice.call(list.querySelectorAll(".train-sketch"));
  var current = null;

  function taken(except) {
    var out = {};
    rows.forEach(function (row) {
      if (row === except) return;
      var v = row.querySelector(".last-select").value;
      if (v) { var p = v.split("-"); out[key(+p[0], +p[1])] = true; }
    });
    return out;
  }
  function show(row) {
    var select = row.querySelector(".last-select");
    var button = row.querySelector(".last-btn");
    var flip = row.querySelector(".flip-btn");
    var answered = row.querySelector(".answered");
    button.textContent = "";
    var v = select.value;
    if (!v) {
      button.appendChild(document.createTextNode(list.dataset.empty));
      button.setAttribute("aria-label", select.getAttribute("aria-label") + ": " + list.dataset.empty);
      flip.hidden = true;
      answered.hidden = true;
      return;
    }
    var p = v.split("-"), near = +p[0], end = +p[1];
    button.appendChild(domino(near, end, 22, false));
    var open = document.createElement("span");
    open.className = "open-end";
    open.textContent = end;
    button.appendChild(open);
    button.setAttribute("aria-label", select.getAttribute("aria-label") + ": " + near + "-" + end +
      " (" + list.dataset.openEnd.replace("{end}", end) + ")");
    flip.hidden = near === end;
    answered.hidden = near !== end;
  }
  function choose(a, b) {
    // The open end is the number away from the engine when the tile touches it; else the higher.
    var near = a, end = b;
    if (b === engine && a !== engine) { near = b; end = a; }
    else if (a !== engine && a > b) { near = b; end = a; }
    current.querySelector(".last-select").value = near + "-" + end;
    show(current);
    dialog.close();
    current.querySelector(".last-btn").focus();
  }
  // The dialog's tiles: the whole set but the engine, drawn once.
  var picker = document.getElementById("last-picker");
  for (var lo = 0; lo <= top; lo++) {
    var line = document.createElement("div");
    line.className = "picker-row";
    for (var hi = lo; hi <= top; hi++) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "tile-btn";
      b.dataset.tile = lo + "-" + hi;
      b.setAttribute("aria-label", lo + "-" + hi);
      if (lo === engine && hi === engine) { b.disabled = true; b.dataset.engine = "1"; }
      b.appendChild(domino(lo, hi, 19, true));
      (function (a, c) { b.addEventListener("click", function () { choose(a, c); }); })(lo, hi);
      line.appendChild(b);
    }
    picker.appendChild(line);
  }
  document.getElementById("last-cancel").addEventListener("click", function () {
    dialog.close();
    if (current) current.querySelector(".last-btn").focus();
  });
  document.getElementById("last-empty").addEventListener("click", function () {
    current.querySelector(".last-select").value = "";
    show(current);
    dialog.close();
  });
  rows.forEach(function (row) {
    var select = row.querySelector(".last-select");
    select.hidden = true;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button last-btn";
    var flip = document.createElement("button");
    flip.type = "button";
    flip.className = "button flip-btn";
    flip.textContent = "⇄";
    flip.title = list.dataset.flip;
    flip.setAttribute("aria-label", list.dataset.flip);
    select.parentNode.appendChild(button);
    select.parentNode.appendChild(flip);
    button.addEventListener("click", function () {
      current = row;
      var used = taken(row);
      picker.querySelectorAll(".tile-btn").forEach(function (t) {
        t.disabled = !!t.dataset.engine || !!used[t.dataset.tile];
        var p = select.value.split("-");
        t.setAttribute("aria-pressed", select.value && key(+p[0], +p[1]) === t.dataset.tile ? "true" : "false");
      });
      document.getElementById("last-dialog-title").textContent =
        list.dataset.pickTitle + " — " + row.querySelector(".name").textContent;
      dialog.showModal();
    });
    flip.addEventListener("click", function () {
      var p = select.value.split("-");
      if (p.length === 2) { select.value = p[1] + "-" + p[0]; show(row); }
    });
    show(row);
  });
})();

// ---- Times: shown in this device's own time zone, in the page's language ----
(function () {
  "use strict";
  if (!window.Intl || !Intl.DateTimeFormat) return;
  var lang = document.documentElement.lang || undefined;
  var fmt;
  // The Gregorian calendar in every language, as the server writes dates (Thai would
  // otherwise count Buddhist years here and not there).
  if (lang) lang = lang + "-u-ca-gregory";
  try { fmt = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }); }
  catch (e) { fmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }); }
  var timeFmt = new Intl.DateTimeFormat(lang, { timeStyle: "medium" });
  function localTimes() {
    document.querySelectorAll("time[data-local]").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) t.textContent = (t.dataset.local === "time" ? timeFmt : fmt).format(d);
    });
  }
  localTimes();
  document.addEventListener("live:replaced", localTimes);
})();

// ---- Round times: the running time of a round in progress, every second ----
// The page says when the round started ([data-since], by the server's clock); without
// script it says only that. The device's clock may be off: the server's, read from the
// Date of the live updates' answers, is used once it differs by more than two seconds.
(function () {
  "use strict";
  var offset = 0;
  function pad(n) { return n < 10 ? "0" + n : String(n); }
  function tick() {
    document.querySelectorAll("[data-since]").forEach(function (el) {
      var since = Date.parse(el.dataset.since);
      if (isNaN(since)) return;
      var s = Math.max(0, Math.floor((Date.now() + offset - since) / 1000));
      var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
      var shown = (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s % 60);
      el.textContent = (el.dataset.running || "{time}").replace("{time}", shown);
      el.hidden = false;
    });
  }
  document.addEventListener("live:servertime", function (e) {
    var d = e.detail - Date.now();
    offset = Math.abs(d) > 2000 ? d : 0;
  });
  document.addEventListener("live:replaced", tick);
  tick();
  setInterval(tick, 1000);
})();

// ---- Live: another device's save shows here within seconds, without a reload ----
// Every 2 s the page asks for itself again with If-None-Match (its ETag: the game's
// version, this device's role, the language); the server answers 304 while nothing
// changed, which costs it almost nothing. On news, the page's live parts ([data-live], by
// id) are replaced. A form someone is filling in is never replaced: a notice says another
// device saved, and saving goes through the stale-save merge as usual.
(function () {
  "use strict";
  var body = document.body;
  var etag = body.dataset.updatesEtag;
  if (!etag || !window.fetch || !window.DOMParser) return;
  etag = '"' + etag + '"';
  var busy = false, stopped = false;
  var INTERVAL = 2000;

  function dirty(form) {
    return Array.prototype.some.call(form.elements, function (el) {
      if (el.type === "hidden" || el.type === "submit" || el.type === "button") return false;
      if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
      if (el.tagName === "SELECT") {
        return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
      }
      return el.value !== el.defaultValue;
    });
  }
  function notice(text) {
    var box = document.getElementById("live-notice");
    if (!box || !text) return;
    box.textContent = text;
    box.hidden = false;
  }
  function apply(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var round = fresh.body.dataset.savedRound || "";
    document.querySelectorAll("[data-live]").forEach(function (old) {
      var next = old.id && fresh.getElementById(old.id);
      if (!next) return;
      var form = old.matches("form[data-keep-typed]") ? old : old.querySelector("form[data-keep-typed]");
      if (form && (form.hasAttribute("data-hold") || dirty(form))) {
        notice((form.dataset.savedElsewhere || "").replace("{round}", round));
        return;
      }
      if (old.contains(document.activeElement) && document.activeElement.matches("input, select, textarea")) return;
      if (old.tagName === "DETAILS") next.open = old.open;
      old.replaceWith(next);
      next.dispatchEvent(new CustomEvent("live:replaced", { bubbles: true }));
    });
    var title = fresh.querySelector("title");
    if (title) document.title = title.textContent;
  }
  function poll() {
    if (busy || stopped || document.hidden) return;
    busy = true;
    fetch(location.href, { headers: { "If-None-Match": etag }, credentials: "same-origin",
                           cache: "no-store" })
      .then(function (r) {
        // The server's clock, for the running round times (the Date of every answer).
        var date = Date.parse(r.headers.get("Date") || "");
        if (!isNaN(date)) document.dispatchEvent(new CustomEvent("live:servertime", { detail: date }));
        if (r.status === 304) return null;
        if (r.status === 404) { stopped = true; location.reload(); return null; }
        if (!r.ok) return null;
        etag = r.headers.get("ETag") || etag;
        return r.text();
      })
      .then(function (html) { if (html) apply(html); })
      .catch(function () { /* the Wi-Fi hiccuped: try again next time */ })
      .then(function () { busy = false; });
  }
  setInterval(poll, INTERVAL);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
})();
