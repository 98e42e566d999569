// The trainer's pages (docs/drills.md, "The trainer's page"): the trainees with a drill history, and one trainee's
// history: per step kind an SVG chart of the trend over sessions (drawn here, no library) with the same figures
// in a table beside it, the weak items, the sessions and the certificates earned. The host reads every trainee
// with the host token; a trainee logged in reads their own page only (the server refuses another's).

import { api, stored } from "./api.js";
import { h } from "./ui.js";
import { refusal } from "./words.js";
import { language, t } from "./i18n.js";

export const STEP_NAMES = {
  offer_bank: t("the bank offer"), fees: t("the fees"), first_card: t("the first card"), irregularity: t("the irregularity"),
  walk_away: t("the walk-away"), qualify: t("the qualifier"), settle_seat: t("a seat's settlement"),
  bank_after: t("the DP's stack after"), settle_spot: t("a spot's settlement"), settle_box: t("a box's settlement"),
  dealer_exchange: t("the dealer exchange"), qualify_after: t("the qualifier after the exchange"), payout: t("a payout"),
};
export const stepName = (kind) => STEP_NAMES[kind] || String(kind).replaceAll("_", " ");
const MODES = { training: t("training"), exam: t("exam") };
const SOURCES = { live: t("at a live drill table"), offline: t("rehearsed with hcf drill"), practice: t("a practice session") };

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

/** A percentage (0 to 100) as the page's language writes it: 33.3% in English, 33,3 % in German and Spanish. */
export const percentWords = (n) => new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 1 })
  .format(Number(n) / 100);
/** Seconds with one decimal as the page's language writes them: 12.5 s, 12,5 s. */
export const secondsWords = (s) => (s == null ? t("not timed")
  : `${new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Number(s))} s`);

/** The token the pages read with: the host token, else the trainee's own session; and who reads. */
export function reader() {
  const saved = stored();
  if (saved.host_token && !saved.host_table) return { token: saved.host_token, host: true, name: null };
  return { token: saved.token || null, host: false, name: saved.name || null };
}

function bar(title, host) {
  return h("header", { class: "bar trainer-bar" }, h("h1", {}, title),
    h("nav", { "aria-label": "pages" }, h("a", { href: "/" }, t("Lobby")), " ",
      host ? [h("a", { href: "/trainees" }, t("Trainees")), " ", h("a", { href: "/host" }, t("Host console"))] : []));
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
  root.replaceChildren(bar(t("Trainees"), who.host), note);
  if (!who.token) {
    note.textContent = t("Give the host token on the host console to see every trainee, or log in on the lobby page to see your own drill history.");
    return;
  }
  let trainees = [];
  try { trainees = (await api("GET", "/api/trainees", undefined, who.token)).trainees; }
  catch (err) { note.textContent = refusalSentence(err); note.classList.add("bad"); return; }
  if (!trainees.length) { note.textContent = t("No trainee has a drill report kept yet: a trainee's history starts with their first drill."); return; }
  const rows = trainees.map((one) => h("tr", { "data-trainee": one.trainee },
    h("th", { scope: "row" }, h("a", { href: `/trainees/${encodeURIComponent(one.trainee)}` }, one.trainee)),
    h("td", {}, String(one.sessions)), h("td", {}, utcWords(one.last_seen)), h("td", {}, percentWords(one.accuracy)),
    h("td", {}, String(one.certificates))));
  root.append(h("div", { class: "table-wrap" }, h("table", { class: "trainer-table" }, h("caption", {}, t("Every trainee with a kept drill report")),
    h("thead", {}, h("tr", {}, [t("Trainee"), t("Sessions"), t("Last seen"), t("Right in all"), t("Certificates")].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows))));
}

/** /trainees/NAME: one trainee's history. */
export async function traineePage(root, name) {
  const who = reader();
  const note = h("p", { role: "status", "aria-live": "polite" });
  root.replaceChildren(bar(t("Drill history of {name}", { name }), who.host), note);
  if (!who.token) { note.textContent = t("Log in on the lobby page (a trainee sees their own history) or give the host token on the host console."); return; }
  let got;
  try { got = await api("GET", `/api/trainees/${encodeURIComponent(name)}`, undefined, who.token); }
  catch (err) { note.textContent = refusalSentence(err); note.classList.add("bad"); note.setAttribute("role", "alert"); return; }
  root.querySelector("h1").textContent = t("Drill history of {name}", { name: got.trainee });
  const sessions = got.sessions.length, certs = got.certificates.length;
  note.textContent = t("{name}: {sessions}, {percent} right in all, {certificates}.", { name: got.trainee,
    sessions: sessions === 1 ? t("1 session") : t("{count} sessions", { count: sessions }), percent: percentWords(got.accuracy),
    certificates: certs === 1 ? t("1 certificate") : t("{count} certificates", { count: certs }) });
  root.append(weakList(got.weak), certificateList(got.trainee, got.certificates),
    h("h2", {}, t("Each step kind, session by session")),
    h("div", { class: "trends" }, Object.entries(got.trend).map(([kind, points]) => trendFigure(kind, points))),
    sessionTable(got.sessions));
}

function weakList(weak) {
  const items = weak.map((w) => h("li", { "data-step": w.step },
    w.sessions === 1 ? t("{step}: {percent} right over its last session, {missed} missed.", { step: stepName(w.step), percent: percentWords(w.accuracy), missed: w.missed })
      : t("{step}: {percent} right over its last {count} sessions, {missed} missed.", { step: stepName(w.step), percent: percentWords(w.accuracy), count: w.sessions, missed: w.missed })));
  return h("section", { class: "weak", "aria-labelledby": "weak-title" }, h("h2", { id: "weak-title" }, t("Weak items")),
    weak.length ? h("p", {}, t("The step kinds below 80% right over their last 3 sessions, weakest first:")) : h("p", {}, t("No weak item: every step kind is at 80% right or better over its last 3 sessions.")),
    weak.length ? h("ul", {}, items) : null);
}

function certificateList(trainee, certificates) {
  const items = certificates.map((c) => h("li", {}, h("a", { href: `/certificate/${encodeURIComponent(trainee)}/${c.session}`, "data-session": c.session },
    t("The exam {scenario}, passed on {at} (session {session}): {right} right, {within} within the standard times.", { scenario: c.scenario, at: utcWords(c.at), session: c.session, right: percentWords(c.right_percent), within: percentWords(c.within_percent) }))));
  return h("section", { class: "certificates", "aria-labelledby": "cert-title" }, h("h2", { id: "cert-title" }, t("Certificates")),
    certificates.length ? h("ul", {}, items) : h("p", {}, t("No certificate yet: an exam passed gives one.")));
}

function sessionTable(sessions) {
  const rows = sessions.map((s) => h("tr", {}, h("th", { scope: "row" }, String(s.n)), h("td", {}, utcWords(s.at)),
    h("td", {}, s.scenario), h("td", {}, `${MODES[s.mode] || s.mode}, ${SOURCES[s.source] || s.source}${s.partial ? t(", stopped early") : ""}`),
    h("td", {}, t("{right} of {total} ({percent})", { right: s.right, total: s.total, percent: percentWords(s.accuracy) }))));
  return h("section", { "aria-labelledby": "sessions-title" }, h("h2", { id: "sessions-title" }, t("Sessions")),
    h("div", { class: "table-wrap" }, h("table", { class: "trainer-table" }, h("thead", {}, h("tr", {}, [t("Session"), t("Date"), t("Scenario"), t("How"), t("Right")].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows))));
}

/** One step kind: its chart and, beside it, the same figures as a table. */
export function trendFigure(kind, points) {
  const id = `trend-${kind}`;
  const said = points.map((p) => (p.median_seconds == null
    ? t("session {session}, {percent} right", { session: p.session, percent: percentWords(p.accuracy) })
    : t("session {session}, {percent} right, median {time}", { session: p.session, percent: percentWords(p.accuracy), time: secondsWords(p.median_seconds) }))).join("; ");
  const table = h("table", { class: "trainer-table trend-table" }, h("caption", {}, t("{step}: the figures of the chart", { step: stepName(kind) })),
    h("thead", {}, h("tr", {}, [t("Session"), t("Right"), t("Percent right"), t("Median time")].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, points.map((p) => h("tr", {}, h("th", { scope: "row" }, String(p.session)), h("td", {}, t("{right} of {total}", { right: p.right, total: p.total })),
      h("td", {}, percentWords(p.accuracy)), h("td", {}, secondsWords(p.median_seconds))))));
  return h("section", { class: "trend", "data-step": kind, "aria-labelledby": `${id}-title` },
    h("h3", { id: `${id}-title` }, stepName(kind)),
    h("div", { class: "trend-body" }, chart(id, points.length === 1 ? t("{step} over 1 session: {said}.", { step: stepName(kind), said })
      : t("{step} over {count} sessions: {said}.", { step: stepName(kind), count: points.length, said }), points),
    h("div", { class: "table-wrap" }, table)));
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
      s("text", { x: LEFT - 6, y: yPct(v) + 4, class: "tick", "text-anchor": "end" }, percentWords(v)));
  }
  if (timed.length) {
    for (const v of [0, top / 2, top]) svg.append(s("text", { x: W - RIGHT + 6, y: ySec(v) + 4, class: "tick" }, `${v} s`));
  }
  points.forEach((p, i) => svg.append(s("text", { x: x(i), y: H - BOTTOM + 18, class: "tick", "text-anchor": "middle" }, String(p.session))));
  svg.append(s("text", { x: LEFT + plotW / 2, y: H - 8, class: "axis", "text-anchor": "middle" }, t("Session")),
    s("text", { x: 14, y: TOP + plotH / 2, class: "axis", "text-anchor": "middle", transform: `rotate(-90 14 ${TOP + plotH / 2})` }, t("Percent right")));
  if (timed.length) svg.append(s("text", { x: W - 10, y: TOP + plotH / 2, class: "axis", "text-anchor": "middle", transform: `rotate(90 ${W - 10} ${TOP + plotH / 2})` }, t("Median seconds")));
  svg.append(s("polyline", { class: "line-right", points: points.map((p, i) => `${x(i)},${yPct(p.accuracy)}`).join(" ") }));
  points.forEach((p, i) => svg.append(s("circle", { class: "dot-right", cx: x(i), cy: yPct(p.accuracy), r: 5 })));
  if (timed.length) {
    const at = points.map((p, i) => [p, i]).filter(([p]) => p.median_seconds != null);
    svg.append(s("polyline", { class: "line-time", points: at.map(([p, i]) => `${x(i)},${ySec(p.median_seconds)}`).join(" ") }));
    at.forEach(([p, i]) => svg.append(s("rect", { class: "dot-time", x: x(i) - 4, y: ySec(p.median_seconds) - 4, width: 8, height: 8 })));
  }
  const key = h("p", { class: "chart-key" }, h("span", { class: "key-right" }, t("solid line and dots: percent right")),
    timed.length ? h("span", { class: "key-time" }, t("dashed line and squares: median seconds")) : null);
  return h("figure", { class: "chart" }, svg, key);
}
