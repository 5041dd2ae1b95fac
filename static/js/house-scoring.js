/* House scoring on the round page (R11): the "Went out" and "Marker stands" toggles of
   each seat, and the score that counts shown beside the hand's as it is typed.
   Without this file the page works the same: the toggles are checkboxes the form sends,
   and the server shows the score that counts after each save or refusal. */
(function () {
  "use strict";
  var form = document.getElementById("round-form");
  if (!form || !form.dataset.bonus) return;
  var bonus = parseInt(form.dataset.bonus, 10) || 0;
  var penalty = parseInt(form.dataset.penalty, 10) || 0;

  function seatBox(cls, seat) {
    return form.querySelector("." + cls + "[data-seat='" + seat + "']");
  }
  function signed(n) { return n < 0 ? "\u2212" + (-n) : String(n); }
  function show(seat) {
    var out = document.getElementById("counts-" + seat);
    var score = document.getElementById("score-" + seat);
    if (!out || !score) return;
    var text = score.value.trim();
    var hand = /^[0-9]+$/.test(text) ? parseInt(text, 10) : null;
    var wentOut = seatBox("out-toggle", seat).checked;
    var marked = seatBox("marker-toggle", seat).checked;
    if (wentOut) out.textContent = signed(-bonus);
    else if (hand === null) out.textContent = "\u2014";
    else out.textContent = signed(hand + (marked ? penalty : 0));
  }
  function showAll() {
    form.querySelectorAll(".out-toggle").forEach(function (b) { show(b.dataset.seat); });
  }
  form.addEventListener("change", function (e) {
    var box = e.target;
    if (!box.matches(".out-toggle, .marker-toggle") || !box.checked) return;
    var seat = box.dataset.seat;
    if (box.classList.contains("out-toggle")) {
      // Who went out holds no tiles (R11.3) and takes no penalty (R11.2).
      seatBox("marker-toggle", seat).checked = false;
      var score = document.getElementById("score-" + seat);
      score.value = "0";
      score.dispatchEvent(new Event("input", {bubbles: true}));
    } else {
      seatBox("out-toggle", seat).checked = false;
    }
  });
  form.addEventListener("change", showAll);
  form.addEventListener("input", showAll);
  document.addEventListener("click", function (e) {
    // The pip counter's "Use this score" fills a box without an input event.
    if (e.target.closest && e.target.closest("#pip-use")) setTimeout(showAll, 0);
  });
  document.addEventListener("updates:replaced", function () {
    form = document.getElementById("round-form") || form;
    showAll();
  });
  showAll();
})();
