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
      if (answered) answered.hidden = true;
      showToes(row, false);
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
    if (answered) answered.hidden = near !== end;
    showToes(row, near === end);
  }
  function showToes(row, isDouble) {
    // Under chicken foot: a double's toes (R10.1) asked only where the last tile is a double,
    // or where toes were given (so that a refusal names what is there).
    var toes = row.querySelector(".toes-sketch");
    if (!toes) return;
    var given = Array.prototype.some.call(toes.querySelectorAll("select"), function (s) {
      return s.value;
    });
    toes.hidden = !isDouble && !given;
    if (isDouble) toes.open = true;
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
