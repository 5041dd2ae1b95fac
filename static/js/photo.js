// "Take a photo" in the round page's "Count tiles" dialog (templates/_photo.html).
// The page carries only a placeholder: the photo part's buttons and sentences
// (templates/_photo_dialog.html) are fetched from GET /api/hand-photo/dialog when the dialog
// first opens, so the round page does not carry them (without JavaScript there is no photo
// to take). The photo is sent to POST /api/hand-photo and shown from the device's own copy (a
// blob: URL); every tile read is outlined and labelled on it and picked in the dialog's
// picker (static/js/pip-counter.js keeps the picker and the score: this file only taps its tiles). A
// tile the reader is unsure of is marked "?", a likely misreading "!" with its sentence:
// neither is counted until the person says which tile it is, in one tap (its first
// candidate is offered first; "Not a tile" takes its outline away). Markers never overlap
// and each is at least 44 px. Nothing is saved before "Use this score".
// Started once the page's scripts have run: the picker's tiles are pip-counter.js's, and this
// file's listeners on the dialog must come after pip-counter.js's (they read what it toggled).
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var panel = document.getElementById("photo-reader");
  var dialog = document.getElementById("pip-counter");
  if (!panel || !dialog || !window.FormData || !window.URL || !URL.createObjectURL ||
      !window.fetch) return;
  var seat = null, name = "", loading = null, started = null;

  // The API answers in the language the request asks for (Accept-Language): ask for the
  // page's, which may be one chosen on this device rather than the browser's.
  var language = document.documentElement.lang || "en";

  // The photo part fetched once, at the first opening (tried again at the next if it failed).
  function load() {
    if (loading) return;
    loading = fetch(panel.dataset.dialog, { credentials: "same-origin",
                                            headers: { Accept: "text/html",
                                                       "Accept-Language": language } })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        panel.innerHTML = html;
        panel.hidden = false;
        started = start();
      })
      .catch(function () { loading = null; });
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest("#round-form .count-tiles") : null;
    if (!b) return;
    seat = b.dataset.seat;
    name = b.dataset.name || "";
    if (started) started.reset(); else load();
  });

  function start() {
  var text = {};
  [panel, document.getElementById("photo-reader-body")].forEach(function (node) {
    for (var k in node.dataset) text[k] = node.dataset[k];
  });
  var NS = "http://www.w3.org/2000/svg";
  var el = function (id) { return document.getElementById(id); };
  var picker = el("pip-picker");
  var status = el("photo-message"), progress = el("photo-progress");
  var result = el("photo-result"), frame = el("photo-frame"), image = el("photo-image");
  var outlines = el("photo-outlines"), problemList = el("photo-problems");
  var chooser = el("photo-choose"), candidates = el("photo-candidates"), note = el("photo-choose-note");
  var top = parseInt(text.set, 10);
  var entries = [], choosing = null, photoUrl = null, request = null;
  var tapping = false;

  function fill(template, tile) { return template.replace("{tile}", tile); }
  function key(a, b) { return Math.min(a, b) + "-" + Math.max(a, b); }
  function button(k) { return picker.querySelector(".tile-btn[data-tile='" + k + "']"); }
  function pressed(k) { var b = k && button(k); return !!b && b.getAttribute("aria-pressed") === "true"; }
  function usable(k) { var b = k && button(k); return !!b && !b.disabled; }
  // Tap a picker tile the way a person would, so that pip-counter.js keeps the score.
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
    xhr.setRequestHeader("Accept-Language", language);
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
    var open = entries.filter(function (e) { return !e.answered; });
    say(entries.length === 0 ? text.none : open.length ? text.done + " " + text.questions : text.done);
    if (open.length) choose(open[0]);     // the first question asked at once
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
    image.onerror = function () { frame.classList.add("no-preview"); say(text.noPreview); placeChips(); };
    image.onload = function () {
      placeChips();
      if (choosing) chooser.scrollIntoView({ block: "nearest" });   // the photo moved it down
    };
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
      e.cx = cx / width;
      e.cy = cy / height;
      var chip = document.createElement("button");
      chip.type = "button";
      chip.className = "photo-chip";
      chip.dataset.entry = String(i);
      frame.appendChild(chip);
      e.chip = chip;
    });
    refresh();
  }

  // Every entry's outline and label from its answer and the picker as it is now.
  function refresh() {
    problemList.textContent = "";
    entries.forEach(function (e, i) {
      if (e.none) return;                  // not a tile: its outline is gone
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
    // every question answered: "First answer each tile marked …" goes
    if (entries.length && (status.textContent === text.answerFirst ||
                           status.textContent === text.done + " " + text.questions) &&
        !entries.some(function (e) { return !e.answered; })) say(text.done);
    placeChips();
  }

  // Markers at their tiles' middles, pushed apart until none overlaps another (each at
  // least 44 px, app.css), kept inside the photo.
  function placeChips() {
    var w = frame.clientWidth, h = frame.clientHeight;
    var live = entries.filter(function (e) { return !e.none && e.chip; });
    if (!w || !h || !live.length) return;
    var boxes = live.map(function (e) {
      return { x: e.cx * w, y: e.cy * h, w: e.chip.offsetWidth + 4, h: e.chip.offsetHeight + 4 };
    });
    for (var round = 0; round < 60; round++) {
      var moved = false;
      for (var i = 0; i < boxes.length; i++) {
        for (var j = i + 1; j < boxes.length; j++) {
          var a = boxes[i], b = boxes[j];
          var ox = (a.w + b.w) / 2 - Math.abs(a.x - b.x), oy = (a.h + b.h) / 2 - Math.abs(a.y - b.y);
          if (ox <= 0 || oy <= 0) continue;
          moved = true;
          if (ox < oy) {                   // apart along the shorter way out
            var sx = (a.x < b.x || (a.x === b.x && i < j)) ? -1 : 1;
            a.x += sx * ox / 2; b.x -= sx * ox / 2;
          } else {
            var sy = (a.y < b.y || (a.y === b.y && i < j)) ? -1 : 1;
            a.y += sy * oy / 2; b.y -= sy * oy / 2;
          }
        }
      }
      boxes.forEach(function (c) {
        c.x = Math.min(Math.max(c.x, c.w / 2), Math.max(c.w / 2, w - c.w / 2));
        c.y = Math.min(Math.max(c.y, c.h / 2), Math.max(c.h / 2, h - c.h / 2));
      });
      if (!moved) break;
    }
    live.forEach(function (e, k) {
      e.chip.style.left = boxes[k].x + "px";
      e.chip.style.top = boxes[k].y + "px";
    });
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
      b.className = "button photo-candidate" + (candidates.firstChild ? "" : " primary");
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
    chooser.scrollIntoView({ block: "nearest" });
  }
  function doneChoosing() {
    var e = choosing;
    choosing = null;
    chooser.hidden = true;
    refresh();
    if (e) e.chip.focus();
  }
  // One tap a question: once one is answered, the next still open is asked at once.
  function nextQuestion() {
    var open = entries.filter(function (o) { return !o.answered; })[0];
    if (open) choose(open); else doneChoosing();
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
    if (b && !b.disabled && answer(choosing, b.dataset.tile)) nextQuestion();
  });
  // "Not a tile": the outline and its marker go, in one tap.
  el("photo-not-tile").addEventListener("click", function () {
    var e = choosing;
    if (e.answered && !e.none && !heldByAnother(e, e.tile)) press(e.tile, false);
    e.none = true;
    e.answered = true;
    choosing = null;
    chooser.hidden = true;
    e.shape.remove();
    e.chip.remove();
    refresh();
    var open = entries.filter(function (o) { return !o.answered; })[0];
    var next = entries.filter(function (o) { return !o.none; })[0];
    if (open) choose(open); else (next ? next.chip : el("photo-take")).focus();
  });
  el("photo-choose-done").addEventListener("click", doneChoosing);
  frame.addEventListener("click", function (ev) {
    var chip = ev.target.closest(".photo-chip, polygon");
    if (!chip) return;
    var e = entries[+chip.dataset.entry];
    if (choosing === e) doneChoosing(); else choose(e);
  });

  // A tap on the picker: pip-counter.js has toggled the tile already; while an entry is being
  // answered the tile tapped is its answer, otherwise the outlines follow the picker.
  dialog.addEventListener("click", function (ev) {
    var t = ev.target.closest(".tile-btn");
    if (tapping || !t || t.disabled || !entries.length) return;
    var k = t.dataset.tile;
    if (choosing) {
      var e = choosing;
      if (pressed(k)) {
        tap(t);                           // undone: answer() picks it for the entry
        if (answer(e, k)) nextQuestion(); else tap(t);
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
  // Clear empties the picker (pip-counter.js) and the photo's outlines and questions with it.
  el("pip-clear").addEventListener("click", reset);

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
  dialog.addEventListener("close", reset);
  window.addEventListener("resize", placeChips);
  return { reset: reset };
  }
});
