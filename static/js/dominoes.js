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
