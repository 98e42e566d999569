// The trainer's pages (docs/drills.md, "The trainer's page"): the trainees with a drill history, and one trainee's
// history: per step kind an SVG chart of the trend over sessions (drawn here, no library) with the same figures
// in a table beside it, the weak items, the sessions and the certificates earned. The host reads every trainee
// with the host token; a trainee logged in reads their own page only (the server refuses another's).

import { api, stored } from "./api.js";
import { h } from "./ui.js";
import { refusal } from "./words.js";

export const STEP_NAMES = {
  offer_bank: "the bank offer", fees: "the fees", first_card: "the first card", irregularity: "the irregularity",
  walk_away: "the walk-away", qualify: "the qualifier", settle_seat: "a seat's settlement",
  bank_after: "the DP's stack after", settle_spot: "a spot's settlement", settle_box: "a box's settlement",
  dealer_exchange: "the dealer exchange", qualify_after: "the qualifier after the exchange", payout: "a payout",
};
export const stepName = (kind) => STEP_NAMES[kind] || String(kind).replaceAll("_", " ");
const SOURCES = { live: "at a live drill table", offline: "rehearsed with hcf drill", practice: "a practice session" };

/** `2026-12-05 01:40 UTC` from seconds since the epoch (the terminal's `hcf host trainee` says the same). */
export function utcWords(at) {
  const d = new Date(at * 1000);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/** A refusal as a sentence on its own: a capital first, a full stop last. */
export function refusalSentence(err) {
  const text = refusal(err);
  return `${text[0].toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;
}

export const percentWords = (n) => `${Number(n).toFixed(n % 1 ? 1 : 0)}%`;
export const secondsWords = (s) => (s == null ? "not timed" : `${Number(s).toFixed(1)} s`);

/** The token the pages read with: the host token, else the trainee's own session; and who reads. */
export function reader() {
  const saved = stored();
  if (saved.host_token && !saved.host_table) return { token: saved.host_token, host: true, name: null };
  return { token: saved.token || null, host: false, name: saved.name || null };
}

function bar(title, host) {
  return h("header", { class: "bar trainer-bar" }, h("h1", {}, title),
    h("nav", { "aria-label": "pages" }, h("a", { href: "/" }, "Lobby"), " ",
      host ? [h("a", { href: "/trainees" }, "Trainees"), " ", h("a", { href: "/host" }, "Host console")] : []));
}

/** /trainees: the host's list; a trainee goes to their own page; anyone else is told how to sign in. */
export async function traineesPage(root) {
  const who = reader();
  if (!who.host && who.token && who.name) {
    history.replaceState(null, "", `/trainees/${encodeURIComponent(who.name)}`);
    traineePage(root, who.name);
    return;
  }
  const note = h("p", { role: "status", "aria-live": "polite" });
  root.replaceChildren(bar("Trainees", who.host), note);
  if (!who.token) {
    note.textContent = "Give the host token on the host console to see every trainee, or log in on the lobby page to see your own drill history.";
    return;
  }
  let trainees = [];
  try { trainees = (await api("GET", "/api/trainees", undefined, who.token)).trainees; }
  catch (err) { note.textContent = refusalSentence(err); note.classList.add("bad"); return; }
  if (!trainees.length) { note.textContent = "No trainee has a drill report kept yet: a trainee's history starts with their first drill."; return; }
  const rows = trainees.map((t) => h("tr", { "data-trainee": t.trainee },
    h("th", { scope: "row" }, h("a", { href: `/trainees/${encodeURIComponent(t.trainee)}` }, t.trainee)),
    h("td", {}, String(t.sessions)), h("td", {}, utcWords(t.last_seen)), h("td", {}, percentWords(t.accuracy)),
    h("td", {}, String(t.certificates))));
  root.append(h("table", { class: "trainer-table" }, h("caption", {}, "Every trainee with a kept drill report"),
    h("thead", {}, h("tr", {}, ["Trainee", "Sessions", "Last seen", "Right in all", "Certificates"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows)));
}

/** /trainees/NAME: one trainee's history. */
export async function traineePage(root, name) {
  const who = reader();
  const note = h("p", { role: "status", "aria-live": "polite" });
  root.replaceChildren(bar(`Drill history of ${name}`, who.host), note);
  if (!who.token) { note.textContent = "Log in on the lobby page (a trainee sees their own history) or give the host token on the host console."; return; }
  let got;
  try { got = await api("GET", `/api/trainees/${encodeURIComponent(name)}`, undefined, who.token); }
  catch (err) { note.textContent = refusalSentence(err); note.classList.add("bad"); note.setAttribute("role", "alert"); return; }
  root.querySelector("h1").textContent = `Drill history of ${got.trainee}`;
  const sessions = got.sessions.length;
  note.textContent = `${got.trainee}: ${sessions} ${sessions === 1 ? "session" : "sessions"}, ${percentWords(got.accuracy)} right in all, ${got.certificates.length} ${got.certificates.length === 1 ? "certificate" : "certificates"}.`;
  root.append(weakList(got.weak), certificateList(got.trainee, got.certificates),
    h("h2", {}, "Each step kind, session by session"),
    h("div", { class: "trends" }, Object.entries(got.trend).map(([kind, points]) => trendFigure(kind, points))),
    sessionTable(got.sessions));
}

function weakList(weak) {
  const items = weak.map((w) => h("li", { "data-step": w.step },
    `${stepName(w.step)}: ${percentWords(w.accuracy)} right over its last ${w.sessions} ${w.sessions === 1 ? "session" : "sessions"}, ${w.missed} missed.`));
  return h("section", { class: "weak", "aria-labelledby": "weak-title" }, h("h2", { id: "weak-title" }, "Weak items"),
    weak.length ? h("p", {}, "The step kinds below 80% right over their last 3 sessions, weakest first:") : h("p", {}, "No weak item: every step kind is at 80% right or better over its last 3 sessions."),
    weak.length ? h("ul", {}, items) : null);
}

function certificateList(trainee, certificates) {
  const items = certificates.map((c) => h("li", {}, h("a", { href: `/certificate/${encodeURIComponent(trainee)}/${c.session}`, "data-session": c.session },
    `The exam ${c.scenario}, passed on ${utcWords(c.at)} (session ${c.session}): ${percentWords(c.right_percent)} right, ${percentWords(c.within_percent)} within the standard times.`)));
  return h("section", { class: "certificates", "aria-labelledby": "cert-title" }, h("h2", { id: "cert-title" }, "Certificates"),
    certificates.length ? h("ul", {}, items) : h("p", {}, "No certificate yet: an exam passed gives one."));
}

function sessionTable(sessions) {
  const rows = sessions.map((s) => h("tr", {}, h("th", { scope: "row" }, String(s.n)), h("td", {}, utcWords(s.at)),
    h("td", {}, s.scenario), h("td", {}, `${s.mode}, ${SOURCES[s.source] || s.source}${s.partial ? ", stopped early" : ""}`),
    h("td", {}, `${s.right} of ${s.total} (${percentWords(s.accuracy)})`)));
  return h("section", { "aria-labelledby": "sessions-title" }, h("h2", { id: "sessions-title" }, "Sessions"),
    h("table", { class: "trainer-table" }, h("thead", {}, h("tr", {}, ["Session", "Date", "Scenario", "How", "Right"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows)));
}

/** One step kind: its chart and, beside it, the same figures as a table. */
export function trendFigure(kind, points) {
  const id = `trend-${kind}`;
  const said = points.map((p) => `session ${p.session}, ${percentWords(p.accuracy)} right${p.median_seconds == null ? "" : `, median ${secondsWords(p.median_seconds)}`}`).join("; ");
  const table = h("table", { class: "trainer-table trend-table" }, h("caption", {}, `${stepName(kind)}: the figures of the chart`),
    h("thead", {}, h("tr", {}, ["Session", "Right", "Percent right", "Median time"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, points.map((p) => h("tr", {}, h("th", { scope: "row" }, String(p.session)), h("td", {}, `${p.right} of ${p.total}`),
      h("td", {}, percentWords(p.accuracy)), h("td", {}, secondsWords(p.median_seconds))))));
  return h("section", { class: "trend", "data-step": kind, "aria-labelledby": `${id}-title` },
    h("h3", { id: `${id}-title` }, stepName(kind)),
    h("div", { class: "trend-body" }, chart(id, `${stepName(kind)} over ${points.length} ${points.length === 1 ? "session" : "sessions"}: ${said}.`, points), table));
}

const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, text = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text != null) el.textContent = text;
  return el;
}

const H = 250, LEFT = 58, RIGHT = 62, TOP = 16, BOTTOM = 52;

/** The chart: percent right (solid, left axis) and median seconds (dashed, right axis) over the sessions. Drawn
 * as wide as it is shown (a phone's is narrower), so that its words keep their size. */
export function chart(id, sentence, points) {
  const W = window.matchMedia("(max-width: 640px)").matches ? 330 : 560;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "trend-chart", role: "img", "aria-labelledby": `${id}-svgtitle`, "data-points": points.length });
  svg.append(s("title", { id: `${id}-svgtitle` }, sentence));
  const plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
  const x = (i) => LEFT + (points.length === 1 ? plotW / 2 : (plotW * i) / (points.length - 1));
  const yPct = (v) => TOP + plotH * (1 - v / 100);
  const timed = points.filter((p) => p.median_seconds != null);
  const top = Math.max(5, Math.ceil(Math.max(0, ...timed.map((p) => p.median_seconds)) / 5) * 5);
  const ySec = (v) => TOP + plotH * (1 - v / top);
  for (const v of [0, 50, 100]) {
    svg.append(s("line", { x1: LEFT, x2: W - RIGHT, y1: yPct(v), y2: yPct(v), class: "grid" }),
      s("text", { x: LEFT - 6, y: yPct(v) + 4, class: "tick", "text-anchor": "end" }, `${v}%`));
  }
  if (timed.length) {
    for (const v of [0, top / 2, top]) svg.append(s("text", { x: W - RIGHT + 6, y: ySec(v) + 4, class: "tick" }, `${v} s`));
  }
  points.forEach((p, i) => svg.append(s("text", { x: x(i), y: H - BOTTOM + 18, class: "tick", "text-anchor": "middle" }, String(p.session))));
  svg.append(s("text", { x: LEFT + plotW / 2, y: H - 8, class: "axis", "text-anchor": "middle" }, "Session"),
    s("text", { x: 14, y: TOP + plotH / 2, class: "axis", "text-anchor": "middle", transform: `rotate(-90 14 ${TOP + plotH / 2})` }, "Percent right"));
  if (timed.length) svg.append(s("text", { x: W - 10, y: TOP + plotH / 2, class: "axis", "text-anchor": "middle", transform: `rotate(90 ${W - 10} ${TOP + plotH / 2})` }, "Median seconds"));
  svg.append(s("polyline", { class: "line-right", points: points.map((p, i) => `${x(i)},${yPct(p.accuracy)}`).join(" ") }));
  points.forEach((p, i) => svg.append(s("circle", { class: "dot-right", cx: x(i), cy: yPct(p.accuracy), r: 5 })));
  if (timed.length) {
    const at = points.map((p, i) => [p, i]).filter(([p]) => p.median_seconds != null);
    svg.append(s("polyline", { class: "line-time", points: at.map(([p, i]) => `${x(i)},${ySec(p.median_seconds)}`).join(" ") }));
    at.forEach(([p, i]) => svg.append(s("rect", { class: "dot-time", x: x(i) - 4, y: ySec(p.median_seconds) - 4, width: 8, height: 8 })));
  }
  const key = h("p", { class: "chart-key" }, h("span", { class: "key-right" }, "solid line and dots: percent right"),
    timed.length ? h("span", { class: "key-time" }, "dashed line and squares: median seconds") : null);
  return h("figure", { class: "chart" }, svg, key);
}
