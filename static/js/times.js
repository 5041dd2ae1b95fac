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
  document.addEventListener("updates:replaced", localTimes);
})();

// ---- Round times: the running time of a round in progress, every second ----
// The page says when the round started ([data-since], by the server's clock); without
// script it says only that. The device's clock may be off: the server's, read from the
// Date of the updates' answers (updates.js), is used once it differs by more than two seconds.
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
  document.addEventListener("updates:servertime", function (e) {
    var d = e.detail - Date.now();
    offset = Math.abs(d) > 2000 ? d : 0;
  });
  document.addEventListener("updates:replaced", tick);
  tick();
  setInterval(tick, 1000);
})();
