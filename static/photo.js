// "Take a photo" in the round page's "Count tiles" dialog (templates/_photo.html).
// The photo is sent to POST /api/hand-photo and shown from the device's own copy (a blob:
// URL); every tile read is outlined and labelled on it and picked in the dialog's picker
// (static/app.js keeps the picker and the score: this file only taps its tiles). A tile the
// reader is unsure of is marked "?", a likely misreading "!" with its sentence: neither is
// counted until the person says which tile it is. Nothing is saved before "Use this score".
// Started once the page's scripts have run: the picker's tiles are app.js's, and this
// file's listeners on the dialog must come after app.js's (they read what it toggled).
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var panel = document.getElementById("photo-reader");
  var dialog = document.getElementById("pip-counter");
  if (!panel || !dialog || !window.FormData || !window.URL || !URL.createObjectURL) return;
  var text = panel.dataset;
  var NS = "http://www.w3.org/2000/svg";
  var el = function (id) { return document.getElementById(id); };
  var picker = el("pip-picker");
  var status = el("photo-message"), progress = el("photo-progress");
  var result = el("photo-result"), frame = el("photo-frame"), image = el("photo-image");
  var outlines = el("photo-outlines"), problemList = el("photo-problems");
  var chooser = el("photo-choose"), candidates = el("photo-candidates"), note = el("photo-choose-note");
  var top = parseInt(text.set, 10);
  var seat = null, name = "", entries = [], choosing = null, photoUrl = null, request = null;
  var tapping = false;

  function fill(template, tile) { return template.replace("{tile}", tile); }
  function key(a, b) { return Math.min(a, b) + "-" + Math.max(a, b); }
  function button(k) { return picker.querySelector(".tile-btn[data-tile='" + k + "']"); }
  function pressed(k) { var b = k && button(k); return !!b && b.getAttribute("aria-pressed") === "true"; }
  function usable(k) { var b = k && button(k); return !!b && !b.disabled; }
  // Tap a picker tile the way a person would, so that app.js keeps the score.
  function tap(b) {
    tapping = true;
    try { b.click(); } finally { tapping = false; }
  }
  function press(k, on) { if (usable(k) && pressed(k) !== on) tap(button(k)); }
  function say(message, busy) {
    status.textContent = message || "";
    status.parentNode.setAttribute("aria-busy", busy ? "true" : "false");
  }

  // The tiles picked for the other players of this round (R3.3: each tile is in one hand).
  function pickedElsewhere() {
    var out = {};
    document.querySelectorAll("#round-form .hand-input").forEach(function (h) {
      if (h.id !== "hand-" + seat) h.value.trim().split(/\s+/).forEach(function (t) { if (t) out[t] = true; });
    });
    return out;
  }

  function reset() {
    if (request) { request.abort(); request = null; }
    if (photoUrl) { URL.revokeObjectURL(photoUrl); photoUrl = null; }
    entries = [];
    choosing = null;
    image.removeAttribute("src");
    result.hidden = true;
    chooser.hidden = true;
    progress.hidden = true;
    say("");
    setBusy(false);
  }
  function setBusy(on) { el("photo-take").disabled = on; el("photo-pick").disabled = on; }

  // ---- sending the photo (an XMLHttpRequest: fetch cannot tell how much is sent) ----
  function send(file) {
    reset();
    if (file.size > +text.maxBytes) { say(text.tooLarge); return; }
    photoUrl = URL.createObjectURL(file);
    var form = new FormData();
    form.append("photo", file, file.name || "photo.jpg");
    form.append("game", text.game);
    form.append("round", text.round);
    if (name) form.append("player", name);
    var xhr = request = new XMLHttpRequest();
    xhr.open("POST", text.url);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.responseType = "json";
    setBusy(true);
    progress.hidden = false;
    progress.removeAttribute("value");
    say(text.sending, true);
    xhr.upload.addEventListener("progress", function (e) {
      if (e.lengthComputable) progress.value = Math.round(100 * e.loaded / e.total);
    });
    xhr.upload.addEventListener("load", function () {
      progress.removeAttribute("value");
      say(text.reading, true);
    });
    xhr.addEventListener("load", function () {
      if (xhr !== request) return;
      request = null;
      setBusy(false);
      progress.hidden = true;
      var body = xhr.response;
      if (xhr.status === 200 && body && body.tiles) {
        show(body);
      } else {
        say(body && body.error ? body.error : xhr.status === 413 ? text.tooLarge : text.failed);
      }
    });
    xhr.addEventListener("error", function () {
      if (xhr !== request) return;
      request = null;
      setBusy(false);
      progress.hidden = true;
      say(text.failed);
    });
    xhr.send(form);
  }

  // ---- the answer: entries on the photo, tiles in the picker ----
  function show(body) {
    var elsewhere = pickedElsewhere();
    var flagged = {};
    body.problems.forEach(function (p) {
      var k = key(p.tile[0], p.tile[1]);
      (flagged[k] = flagged[k] || []).push(p);
    });
    var seen = {};
    body.tiles.forEach(function (t) {
      var k = key(t.tile[0], t.tile[1]);
      var messages = [];
      seen[k] = (seen[k] || 0) + 1;
      (flagged[k] || []).forEach(function (p) {
        // R3.3 "twice" belongs to the second reading of the tile; the others to each one.
        if (p.code !== "twice" || seen[k] === 2) messages.push(p.message);
      });
      var counted = (flagged[k] || []).some(function (p) { return p.code === "already_counted"; });
      if (elsewhere[k] && !counted) messages.push(fill(text.counted, k));
      entries.push({ box: t.box, tile: k, candidates: around(k), question: false,
                     messages: messages, answered: messages.length === 0, none: false });
    });
    body.unsure.forEach(function (u) {
      var cands = u.candidates.map(function (c) { return key(c[0], c[1]); })
        .filter(function (k) { return !!button(k); });
      entries.push({ box: u.box, tile: null, candidates: cands, question: true, messages: [],
                     answered: false, none: false });
    });
    entries.forEach(function (e) { if (e.answered) press(e.tile, true); });
    draw(body.width, body.height);
    var open = entries.some(function (e) { return !e.answered; });
    say(entries.length === 0 ? text.none : open ? text.done + " " + text.questions : text.done);
  }

  // The tile and those one pip away on either half: what a misread tile most likely is.
  function around(k) {
    var p = k.split("-").map(Number), out = [k];
    [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(function (d) {
      var a = p[0] + d[0], b = p[1] + d[1];
      if (a >= 0 && b >= 0 && a <= top && b <= top && out.indexOf(key(a, b)) < 0) out.push(key(a, b));
    });
    return out.filter(function (c) { return !!button(c); });
  }

  function draw(width, height) {
    result.hidden = false;
    frame.classList.remove("no-preview");
    frame.style.aspectRatio = width + " / " + height;
    image.onerror = function () { frame.classList.add("no-preview"); say(text.noPreview); };
    image.src = photoUrl;
    outlines.setAttribute("viewBox", "0 0 " + width + " " + height);
    outlines.textContent = "";
    frame.querySelectorAll(".photo-chip").forEach(function (c) { c.remove(); });
    entries.forEach(function (e, i) {
      var shape = document.createElementNS(NS, "polygon");
      shape.setAttribute("points", e.box.map(function (p) { return p[0] + "," + p[1]; }).join(" "));
      shape.setAttribute("vector-effect", "non-scaling-stroke");
      shape.dataset.entry = String(i);
      outlines.appendChild(shape);
      e.shape = shape;
      var cx = 0, cy = 0;
      e.box.forEach(function (p) { cx += p[0] / 4; cy += p[1] / 4; });
      var chip = document.createElement("button");
      chip.type = "button";
      chip.className = "photo-chip";
      chip.dataset.entry = String(i);
      chip.style.left = (100 * cx / width) + "%";
      chip.style.top = (100 * cy / height) + "%";
      frame.appendChild(chip);
      e.chip = chip;
    });
    refresh();
  }

  // Every entry's outline and label from its answer and the picker as it is now.
  function refresh() {
    problemList.textContent = "";
    entries.forEach(function (e, i) {
      var state, label;
      if (e.none) { state = "off"; label = "×"; }
      else if (!e.answered) { state = e.question ? "question" : "problem"; label = e.question ? "?" : e.tile + " !"; }
      else { state = pressed(e.tile) ? "counted" : "off"; label = e.tile; }
      e.chip.textContent = label;
      e.chip.className = "photo-chip " + state;
      e.shape.setAttribute("class", state);
      e.chip.setAttribute("aria-label",
        e.none ? text.chipNone :
        !e.answered ? (e.question ? text.chipUnsure : fill(text.chipProblem, e.tile)) :
        fill(state === "counted" ? text.chipSure : text.chipOff, e.tile));
      e.chip.setAttribute("aria-pressed", choosing === e ? "true" : "false");
      e.chip.removeAttribute("aria-describedby");
      if (!e.answered && e.messages.length) {
        var li = document.createElement("li");
        li.id = "photo-problem-" + i;
        li.textContent = e.messages.join(" ");
        problemList.appendChild(li);
        e.chip.setAttribute("aria-describedby", li.id);
      }
    });
    problemList.hidden = !problemList.firstChild;
  }

  // ---- answering one entry: a candidate, "keep", "not a tile", or any tile of the picker ----
  function choose(e) {
    choosing = e;
    note.textContent = e.messages.join(" ");
    candidates.textContent = "";
    e.candidates.forEach(function (k) {
      var b = document.createElement("button");
      var p = k.split("-");
      b.type = "button";
      b.className = "button photo-candidate";
      b.dataset.tile = k;
      var mine = k === e.tile && e.answered && !e.none;
      b.disabled = !usable(k) || (pressed(k) && !mine);
      b.setAttribute("aria-pressed", mine && pressed(k) ? "true" : "false");
      b.appendChild(dominoSvg(text.sprite, +p[0], +p[1], 14, false, ""));
      b.appendChild(document.createTextNode(k === e.tile && !e.answered ? fill(text.keep, k) : k));
      candidates.appendChild(b);
    });
    chooser.hidden = false;
    refresh();
    var first = candidates.querySelector("button:not(:disabled)") || el("photo-not-tile");
    first.focus();
  }
  function doneChoosing() {
    var e = choosing;
    choosing = null;
    chooser.hidden = true;
    refresh();
    if (e) e.chip.focus();
  }
  // The entry is tile k now (R3.3: a tile another reading or the person holds is refused).
  function answer(e, k) {
    var mine = pressed(e.tile) && !e.none && e.answered;
    if (k !== e.tile || !mine) {
      if (pressed(k)) { note.textContent = fill(text.twice, k); return false; }
      if (!usable(k)) return false;
    }
    if (mine && k !== e.tile && !heldByAnother(e, e.tile)) press(e.tile, false);
    e.tile = k;
    e.answered = true;
    e.none = false;
    press(k, true);
    return true;
  }
  function heldByAnother(e, k) {
    return entries.some(function (o) { return o !== e && o.answered && !o.none && o.tile === k; });
  }

  candidates.addEventListener("click", function (ev) {
    var b = ev.target.closest(".photo-candidate");
    if (b && !b.disabled && answer(choosing, b.dataset.tile)) doneChoosing();
  });
  el("photo-not-tile").addEventListener("click", function () {
    var e = choosing;
    if (e.answered && !e.none && !heldByAnother(e, e.tile)) press(e.tile, false);
    e.none = true;
    e.answered = true;
    doneChoosing();
  });
  el("photo-choose-done").addEventListener("click", doneChoosing);
  frame.addEventListener("click", function (ev) {
    var chip = ev.target.closest(".photo-chip, polygon");
    if (!chip) return;
    var e = entries[+chip.dataset.entry];
    if (choosing === e) doneChoosing(); else choose(e);
  });

  // A tap on the picker: app.js has toggled the tile already; while an entry is being
  // answered the tile tapped is its answer, otherwise the outlines follow the picker.
  dialog.addEventListener("click", function (ev) {
    var t = ev.target.closest(".tile-btn");
    if (tapping || !t || t.disabled || !entries.length) return;
    var k = t.dataset.tile;
    if (choosing) {
      var e = choosing;
      if (pressed(k)) {
        tap(t);                           // undone: answer() picks it for the entry
        if (answer(e, k)) doneChoosing(); else tap(t);
      } else if (k === e.tile) {
        doneChoosing();                   // the entry's own tile tapped off: not counted
      } else {
        tap(t);                           // it was picked already: it stays so
        note.textContent = fill(text.twice, k);
      }
      return;
    }
    refresh();
  });
  el("pip-clear").addEventListener("click", refresh);

  // "Use this score" waits until every "?" and "!" is answered (never a guess).
  dialog.addEventListener("click", function (ev) {
    if (ev.target.closest("#pip-use") === null) return;
    var open = entries.filter(function (e) { return !e.answered; });
    if (!open.length) return;
    ev.stopPropagation();
    ev.preventDefault();
    say(text.answerFirst);
    open[0].chip.focus();
  }, true);

  // ---- opening and closing ----
  el("photo-take").addEventListener("click", function () { el("photo-camera").click(); });
  el("photo-pick").addEventListener("click", function () { el("photo-file").click(); });
  ["photo-camera", "photo-file"].forEach(function (id) {
    el(id).addEventListener("change", function () {
      var file = this.files && this.files[0];
      this.value = "";
      if (file) send(file);
    });
  });
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest("#round-form .count-tiles") : null;
    if (!b) return;
    seat = b.dataset.seat;
    name = b.dataset.name || "";
    reset();
  });
  dialog.addEventListener("close", reset);
});
