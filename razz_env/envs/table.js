// Draws one table picture (razz_env.envs.render.TableState, as JSON) into an <svg>, placed by the layout
// razz_env.envs.render.layout(num_seats, cards_per_seat) gives. Shared by the replay page (razz show) and the
// browser app (razz serve): one drawing of a table.
"use strict";
const SVG_NS = "http://www.w3.org/2000/svg";

function el(tag, attrs, parent, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}
function fit(node, width) {
  const text = node.textContent;
  for (let keep = text.length; keep > 0 && node.getComputedTextLength() > width; keep--) {
    node.textContent = text.slice(0, keep - 1) + "...";
  }
  return node;
}
function suit(parent, L, name, x, y, size, fill) {
  const shape = L.suits[name];
  for (const [cx, cy, r] of shape.circles) {
    el("circle", {cx: x + cx * size, cy: y + cy * size, r: r * size, fill}, parent);
  }
  for (const points of shape.polygons) {
    el("polygon", {points: points.map(([px, py]) => `${x + px * size},${y + py * size}`).join(" "), fill}, parent);
  }
}
function card(parent, L, x, y, name, down) {
  const [w, h] = L.card, C = L.colours;
  if (name === null) {
    el("rect", {x, y, width: w, height: h, rx: 4, fill: C.back, stroke: "#f3e6e8", "stroke-width": 2}, parent);
    const width = w - 8, height = h - 8;
    for (let k = -height; k < width; k += 6) {  // the diagonals x - y = k of the inner rectangle
      const x0 = Math.max(k, 0), x1 = Math.min(width, height + k);
      el("line", {x1: x + 4 + x0, y1: y + 4 + x0 - k, x2: x + 4 + x1, y2: y + 4 + x1 - k,
                  stroke: C.back_line, "stroke-width": 1}, parent);
    }
    return;
  }
  const colour = L.suit_colours[name[1]];
  el("rect", {x, y, width: w, height: h, rx: 4, fill: down ? C.hole_face : C.face, stroke: "#8a8f95"}, parent);
  el("text", {x: x + 3, y: y + 15, "font-size": 15, fill: colour}, parent, L.ranks[name[0]]);
  suit(parent, L, name[1], x + (w - 15) / 2, y + h - 20, 15, colour);
}
function drawSeat(svg, L, state, s) {
  const [x, y] = L.seats[s.seat], [W, H] = L.seat, C = L.colours;
  const turn = state.actor === s.seat;
  const group = el("g", {"data-seat": s.seat}, svg);
  const edge = turn ? C.turn : (s.payoff || 0) > 0 ? C.win : C.edge;
  el("rect", {x, y, width: W, height: H, rx: 8, fill: s.folded ? C.seat_folded : C.seat, stroke: edge,
              "stroke-width": turn ? 3 : 1}, group);
  const text = s.folded ? C.muted : C.text;
  let badge = "", badgeColour = text;
  if (turn) { badge = "TO ACT"; badgeColour = C.turn; }
  else if (s.payoff !== null) {
    badge = (s.payoff > 0 ? "+" : "") + s.payoff;
    badgeColour = s.payoff > 0 ? C.win : s.payoff < 0 ? C.loss : text;
  } else if (s.folded) badge = "folded";
  else if (s.all_in) { badge = "all-in"; badgeColour = C.turn; }
  const badgeText = el("text", {x: x + W - 8, y: y + 19, "font-size": 14, fill: badgeColour, "text-anchor": "end"},
                       group, badge);
  const label = `seat ${s.seat}` + (s.name ? "  " + s.name : "");
  fit(el("text", {x: x + 8, y: y + 19, "font-size": 14, fill: text}, group, label),
      W - 24 - badgeText.getComputedTextLength());
  const cards = el("g", {opacity: s.folded ? 0.4 : 1}, group);
  s.cards.forEach(([name, down], position) => card(cards, L, ...L.cards[s.seat][position], name, down));
  const money = `stack ${s.stack}   in pot ${s.in_pot}` + (s.bet ? `   bet ${s.bet}` : "");
  fit(el("text", {x: x + 8, y: y + L.card_row_y + L.card[1] + 18, "font-size": 13, fill: text}, group, money), W - 16);
  (s.shows ? s.shows.split("; ") : []).forEach((half, line) => {
    fit(el("text", {x: x + 8, y: y + L.card_row_y + L.card[1] + 34 + 14 * line, "font-size": 12,
                    fill: (s.payoff || 0) > 0 ? C.turn : text}, group, half), W - 16);
  });
}
function drawTable(svg, L, state) {
  const C = L.colours;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${L.width} ${L.height}`);
  svg.setAttribute("width", L.width);
  svg.setAttribute("height", L.height);
  el("rect", {x: 0, y: 0, width: L.width, height: L.height, fill: C.background}, svg);
  const [fx, fy, rx, ry] = L.felt;
  el("ellipse", {cx: fx, cy: fy, rx: rx - 7, ry: ry - 7, fill: C.felt, stroke: C.rim, "stroke-width": 14}, svg);
  el("text", {x: 12, y: 26, "font-size": 16, fill: C.text}, svg, state.title);
  el("text", {x: L.width - 12, y: 26, "font-size": 14, fill: C.muted, "text-anchor": "end"}, svg,
     `${state.street}   ${state.viewer}`);
  for (const s of state.seats) drawSeat(svg, L, state, s);
  const [left, top, right, bottom] = L.panel, middle = (left + right) / 2;
  const centred = (y, text, size, fill) => fit(el("text", {x: middle, y: y + size, "font-size": size, fill,
                                                           "text-anchor": "middle"}, svg, text), right - left);
  centred(top, `pot ${state.pot}`, 24, C.text);
  centred(top + 32, state.stakes, 13, C.muted);
  let y = top + 56;
  if (state.community !== null) {
    card(svg, L, middle - L.card[0] / 2, y, state.community, false);
    y += L.card[1] + 6;
  }
  if (state.actor !== null) {
    centred(y, `seat ${state.actor} to act` + (state.to_call ? `, ${state.to_call} to call` : ""), 15, C.turn);
    y += 24;
  }
  if (state.over) { centred(y, "hand over", 15, C.turn); y += 24; }
  for (const line of (state.over ? state.result : state.actions)) {
    if (y + 18 > bottom) break;
    centred(y, line, 13, C.text);
    y += 18;
  }
}
