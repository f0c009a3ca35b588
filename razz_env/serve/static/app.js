// The razz serve page: open a table (play or watch), follow its steps as the server sends them, act, replay files.
// Every card it draws came from the server, built from this seat's view: the page knows nothing more.
"use strict";
const $ = (id) => document.getElementById(id);
const STEP_MS = 450;
const POLL_MS = 250;
let OPTIONS = null, mode = "play", table = null, layouts = {}, shown = 0, queue = [], animating = false;
let replayData = null, replayHand = 0, replayStep = 0;

async function api(method, path, body) {
  const response = await fetch(path, {method, headers: {"Content-Type": "application/json"},
                                      body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}
function showError(error) {
  $("error").hidden = !error;
  $("error").textContent = error ? String(error.message || error) : "";
}
function option(select, value, text) {
  const node = document.createElement("option");
  node.value = value;
  node.textContent = text;
  select.appendChild(node);
}
function button(parent, text, onclick, key) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = text;
  if (key) { const k = document.createElement("kbd"); k.textContent = key; node.appendChild(k); }
  node.addEventListener("click", onclick);
  parent.appendChild(node);
  return node;
}

// ------------------------------------------------------------------ setup

function plays(agent, variant, seats) {
  return (agent.variants === null || agent.variants.includes(variant))
      && (agent.seats === null || agent.seats.includes(seats));
}
function fillSeats() {
  const variant = OPTIONS.variants.find((v) => v.name === $("variant").value);
  const seats = $("seats"), chosen = Number(seats.value) || 2;
  seats.replaceChildren();
  for (let n = OPTIONS.min_seats; n <= Math.min(OPTIONS.max_seats, variant.max_seats); n++) option(seats, n, n);
  seats.value = String(Math.min(chosen, variant.max_seats));
  fillAgents();
}
function fillAgents() {
  const variant = $("variant").value, seats = Number($("seats").value);
  const seat = $("seat"), mine = Number(seat.value) || 0;
  seat.replaceChildren();
  for (let s = 0; s < seats; s++) option(seat, s, s);
  seat.value = String(Math.min(mine, seats - 1));
  const box = $("agent-seats"), before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  const agentSeats = [...Array(seats).keys()].filter((s) => mode === "watch" || s !== Number(seat.value));
  const fits = OPTIONS.agents.filter((a) => plays(a, variant, seats));
  agentSeats.forEach((s, index) => {
    const label = document.createElement("label");
    label.textContent = `seat ${s}`;
    const select = document.createElement("select");
    select.dataset.seat = s;
    for (const agent of fits) option(select, agent.label, agent.label);
    const wanted = before[index] || (fits.find((a) => a.label === "razz_heuristic") ? "razz_heuristic" : "");
    if (fits.some((a) => a.label === wanted)) select.value = wanted;
    select.title = (fits.find((a) => a.label === select.value) || {}).idea || "";
    select.addEventListener("change", () => {
      select.title = (fits.find((a) => a.label === select.value) || {}).idea || "";
    });
    label.appendChild(select);
    box.appendChild(label);
  });
}
function setMode(next) {
  mode = next;
  for (const tab of document.querySelectorAll("button.tab")) tab.classList.toggle("chosen", tab.dataset.mode === mode);
  $("table-form").hidden = mode === "replay";
  $("replay-form").hidden = mode !== "replay";
  for (const node of document.querySelectorAll(".play-only")) node.hidden = mode !== "play";
  $("open").textContent = mode === "play" ? "Sit down" : "Seat the agents";
  if (OPTIONS) fillAgents();
}
async function openTable(event) {
  event.preventDefault();
  showError(null);
  await leave();
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  const setup = {variant: $("variant").value, rules: $("rules").value,
                 seat: mode === "play" ? Number($("seat").value) : null,
                 agents: [...$("agent-seats").querySelectorAll("select")].map((s) => s.value),
                 stack: Number($("stack").value), seed};
  try {
    const view = await api("POST", "/api/tables", setup);
    table = view.id;
    layouts = view.layouts;
    receive.hand = 0;
    shown = 0;
    queue = [];
    $("log").replaceChildren();
    $("table-view").hidden = false;
    receive(view);
  } catch (error) { showError(error); }
}
async function leave() {
  if (table === null) return;
  const id = table;
  table = null;
  try { await api("DELETE", `/api/tables/${id}`); } catch (error) { /* already freed */ }
}

// ------------------------------------------------------------------ a table's steps

let latest = null;
function receive(view) {
  if (mode === "replay") return;  // a table left open behind a replay is not drawn over it
  latest = view;
  if (view.hand !== (receive.hand || 0)) {  // a new hand: its steps start again at 0
    receive.hand = view.hand;
    shown = 0;
    const item = document.createElement("li");
    item.className = "new-hand";
    item.textContent = `hand ${view.hand}`;
    $("log").appendChild(item);
  }
  const fresh = view.steps.slice(Math.max(0, shown - (view.step_count - view.steps.length)));
  shown = view.step_count;
  queue.push(...fresh);
  animate();
  controls();
  if (view.busy) setTimeout(poll, POLL_MS);
}
async function poll() {
  if (table === null) return;
  try { receive(await api("GET", `/api/tables/${table}?since=${shown}`)); } catch (error) { showError(error); }
}
function animate() {
  if (animating || queue.length === 0) { controls(); return; }
  animating = true;
  const step = queue.shift();
  draw(step);
  setTimeout(() => { animating = false; animate(); }, queue.length ? STEP_MS : 0);
}
function draw(step) {
  const state = step.state;
  drawTable($("table"), layouts[`${state.seats.length}/${state.cards_per_seat}`], state);
  if (step.action && step.action !== "the deal") {
    const item = document.createElement("li");
    item.textContent = step.action;
    $("log").appendChild(item);
    $("log").scrollTop = $("log").scrollHeight;
  }
  const policy = $("policy");
  policy.replaceChildren();
  if (step.policy) {
    policy.appendChild(document.createTextNode(`seat ${step.seat} stated:`));
    for (const [name, p] of Object.entries(step.policy)) {
      const line = document.createElement("div");
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = `${Math.round(120 * p)}px`;
      line.append(bar, `${name} ${(100 * p).toFixed(1)}%`);
      policy.appendChild(line);
    }
  }
  if (step.aivat) {
    const line = document.createElement("div");
    line.textContent = "AIVAT this hand: " + step.aivat.map((c, s) => `seat ${s} ${c >= 0 ? "+" : ""}${c}`).join(", ");
    policy.appendChild(line);
  }
}
function rate(figure) {
  const sign = figure.bb100 >= 0 ? "+" : "";
  return `${sign}${figure.bb100.toFixed(1)}` + (figure.ci95 === null ? "" : ` ± ${figure.ci95.toFixed(1)}`);
}
function results(view) {
  const r = view.results, box = $("results");
  const rows = r.seats.map((seat, s) => `<tr><td>${view.seat === s ? "you" : `seat ${s} ${escapeHtml(view.names[s])}`}</td>
    <td>${seat.chips >= 0 ? "+" : ""}${seat.chips}</td><td>${rate(seat.raw)}</td><td>${rate(seat.aivat)}</td></tr>`);
  box.innerHTML = `<table><tr><th>after ${r.hands} hand${r.hands === 1 ? "" : "s"}</th><th>chips</th>
    <th>bb/100</th><th>AIVAT</th></tr>${rows.join("")}</table>
    <div class="muted">95% CIs; a big bet is ${r.big_bet} chips${view.carry ? "; stacks carry over" : "; every hand starts at the table's stacks (an agent was trained there)"}</div>`;
}
function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}
function controls() {
  const view = latest;
  if (view === null) return;
  const waiting = animating || queue.length > 0;
  results(view);
  $("notes").textContent = view.notes.join("; ");
  showError(view.error ? `this table stopped: ${view.error}` : null);
  $("where").textContent = `hand ${view.hand}` + (view.busy ? ": the agents are thinking..." : view.over ? ": over" :
    view.your_turn ? ": your turn" : "");
  const box = $("controls");
  box.replaceChildren();
  if (view.seat === null) {
    button(box, "step", () => post("step", {decisions: 1}), "s").disabled = view.busy || view.over || !!view.error;
    button(box, "play the hand", () => post("step", {decisions: null}), "h").disabled =
      view.busy || view.over || !!view.error;
  }
  button(box, "next hand", () => post("next"), "n").disabled = !view.over || view.busy || waiting || !!view.error;
  const download = document.createElement("a");
  download.href = `/api/tables/${view.id}/hands.jsonl`;
  download.download = "razz-serve-hands.jsonl";
  download.textContent = "download hands";
  box.appendChild(download);
  button(box, "replay hands", () => replayTable(view)).disabled = view.results.hands === 0;
  button(box, "leave table", async () => { await leave(); $("table-view").hidden = true; });
  const actions = $("actions");
  actions.replaceChildren();
  if (view.your_turn && !waiting) {
    for (const action of view.legal) button(actions, action.label, () => post("act", {action: action.name}), action.key);
  }
}
async function post(what, body) {
  if (table === null) return;
  showError(null);
  try { receive(await api("POST", `/api/tables/${table}/${what}?since=${shown}`, body || {})); }
  catch (error) { showError(error); }
}

// ------------------------------------------------------------------ replay

async function openReplay(event) {
  event.preventDefault();
  showError(null);
  const file = $("replay-file").files[0];
  if (!file) { showError("choose a file first"); return; }
  const seat = $("replay-seat").value === "" ? null : Number($("replay-seat").value);
  await showReplay(file.name, await file.text(), seat);
}
async function replayTable(view) {  // the hands played at this table, as its seat saw them
  showError(null);
  const text = await (await fetch(`/api/tables/${view.id}/hands.jsonl`)).text();
  setMode("replay");
  await showReplay(`table ${view.id}`, text, view.seat);
}
async function showReplay(name, text, seat) {
  try {
    replayData = await api("POST", "/api/replay", {name, text, seat});
    latest = null;
    layouts = replayData.layouts;
    $("table-view").hidden = false;
    $("actions").replaceChildren();
    $("results").replaceChildren();
    $("log").replaceChildren();
    goReplay(0, 0);
  } catch (error) { showError(error); }
}
function goReplay(hand, step) {
  replayHand = Math.min(Math.max(hand, 0), replayData.hands.length - 1);
  const steps = replayData.hands[replayHand].steps;
  replayStep = Math.min(Math.max(step, 0), steps.length - 1);
  draw({state: steps[replayStep].state});
  const h = replayData.hands[replayHand];
  $("where").textContent = `${replayData.name}: hand ${h.number} of ${replayData.hands.length}, step ${replayStep} of ${steps.length - 1}`;
  const box = $("controls");
  box.replaceChildren();
  button(box, "previous hand", () => goReplay(replayHand - 1, 0));
  button(box, "◀", () => goReplay(replayHand, replayStep - 1));
  button(box, "▶", () => goReplay(replayHand, replayStep + 1));
  button(box, "next hand", () => goReplay(replayHand + 1, 0));
}

// ------------------------------------------------------------------ start

document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  if (mode === "replay" && replayData) {
    if (event.key === "ArrowRight") goReplay(replayHand, replayStep + 1);
    else if (event.key === "ArrowLeft") goReplay(replayHand, replayStep - 1);
    return;
  }
  const view = latest;
  if (view === null) return;
  const action = view.your_turn && !animating ? view.legal.find((a) => a.key === event.key) : null;
  if (action) post("act", {action: action.name});
  else if (event.key === "n" && view.over && !view.busy) post("next");
  else if (event.key === "s" && view.seat === null && !view.over && !view.busy) post("step", {decisions: 1});
  else if (event.key === "h" && view.seat === null && !view.over && !view.busy) post("step", {decisions: null});
});
window.addEventListener("pagehide", () => { if (table !== null) navigator.sendBeacon(`/api/tables/${table}/close`); });
for (const tab of document.querySelectorAll("button.tab")) tab.addEventListener("click", () => setMode(tab.dataset.mode));
$("table-form").addEventListener("submit", openTable);
$("replay-form").addEventListener("submit", openReplay);
$("variant").addEventListener("change", fillSeats);
$("seats").addEventListener("change", fillAgents);
$("seat").addEventListener("change", fillAgents);
for (let s = 0; s < 8; s++) option($("replay-seat"), s, `seat ${s}`);
(async () => {
  try {
    OPTIONS = await api("GET", "/api/options");
    for (const v of OPTIONS.variants) option($("variant"), v.name, v.title);
    for (const r of OPTIONS.rules) option($("rules"), r, r);
    $("stack").value = OPTIONS.stack;
    const asked = new URLSearchParams(location.hash.slice(1));
    if (asked.get("mode")) setMode(asked.get("mode"));
    if (asked.get("variant")) $("variant").value = asked.get("variant");
    fillSeats();
  } catch (error) { showError(error); }
})();
