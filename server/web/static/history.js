// A table's finished hands, and a step-through replay of one (docs/web.md, "History and replays by link").
// Every hand has a link to an exact step, /history/TABLE/N#step=K: N is the table's own hand number, K counts
// from 1. The page shows the public record only (GET /api/tables/{name}/hands/{N}: what a spectator saw live,
// never a folded hand), keeps the URL's step in step with the page (arrows, Home, End), and checks the deal
// again here with the revealed seeds (verify.js). The host may keep a table's replays to its players or to
// the host (its `replays` setting): the page sends the token it holds, and a refusal is said as a sentence.

import { api, stored } from "./api.js";
import { h, cards } from "./ui.js";
import { resultLines, handTitle } from "./results.js";
import { betWords } from "./circles.js";
import { plain, voidReason, refusal } from "./words.js";
import { verifyReveal, seenFromReveal } from "./verify.js";
import { t } from "./i18n.js";

// The bets of a High Card Flush hand's record, by key, as the seeds name them (docs/i18n.md's glossary).
const BET_NAMES = { ante: (chips) => t("Ante {chips}", { chips }), raise: (chips) => t("Raise {chips}", { chips }),
  flush_bonus: (chips) => t("Flush bonus {chips}", { chips }), straight_flush_bonus: (chips) => t("Straight Flush bonus {chips}", { chips }) };

/** A replay's steps in the order they happened, each [words, cards]: the bets, the deal, each seat's decision
 * (a raise or a fold comes after the deal, never with the bets), what was shown, the results. */
export function steps(hand, game) {
  const names = hand.names || {};
  const who = (seat) => (names[String(seat)] ? t("seat {seat} {name}", { seat, name: names[String(seat)] }) : t("seat {seat}", { seat }));
  const out = [];
  const starts = game === "hcf" && hand.dealer != null
    ? t("Hand #{number} starts, {who} banks", { number: hand.number ?? "?", who: who(hand.dealer) })
    : t("Hand #{number} starts", { number: hand.number ?? "?" });
  out.push([starts + (hand.arranged ? ` (${t("arranged deck")})` : ""), []]);
  if (Array.isArray(hand.bets)) {
    for (const b of hand.bets) out.push([t("{who} bets {bets}", { who: who(b.seat), bets: betWords(b) }), []]);
  } else {
    for (const [seat, bet] of Object.entries(hand.bets || {})) {
      const parts = Object.entries(bet).filter(([k, v]) => k !== "raise" && typeof v === "number" && v).map(([k, v]) => (BET_NAMES[k] ? BET_NAMES[k](v) : `${plain(k)} ${v}`));
      out.push([t("{who} bets {bets}", { who: who(seat), bets: parts.join(", ") || t("nothing") }), []]);
    }
  }
  if (hand.deal_order?.length) out.push([t("the cards are dealt"), []], ...decisions(hand, who, game));
  const place = game === "hcf" ? who : (p) => (game === "caribbean" ? t("spot {spot}", { spot: p }) : t("box {box}", { box: p })); // house games show by place
  for (const [key, shown] of Object.entries(hand.shown || {})) out.push([t("{who} shows", { who: place(key) }), shown]);
  if (hand.dealer_cards) {
    const shows = game === "hcf" ? t("the DP shows") : t("the dealer shows");
    out.push([shows + (hand.dealer_qualifies === false ? ` (${t("does not qualify")})` : ""), hand.dealer_cards]);
  }
  for (const [text] of resultLines(hand, game, null)) out.push([text, []]);
  return out;
}

/** Each seat's decision after the deal: a raise (High Card Flush's bets keep it), a Back Bet or Bet (the house
 * games' places keep it), or a fold. */
function decisions(hand, who, game) {
  if (Array.isArray(hand.bets)) {
    return hand.bets.flatMap((b) => {
      const at = "spot" in b ? t("spot {spot}", { spot: b.spot }) : t("box {box}", { box: b.box });
      if (b.folded) return [[`${t("{name} folds", { name: who(b.seat) })} ${at}`, []]];
      if (!b.bet) return [];
      const bet = game === "caribbean" ? t("Back Bet {chips}", { chips: b.bet }) : t("Bet {chips}", { chips: b.bet });
      const does = game === "caribbean" ? t("{name} plays", { name: who(b.seat) }) : t("{name} raises", { name: who(b.seat) });
      return [[`${does} ${at}: ${bet}`, []]];
    });
  }
  const folded = new Set((hand.settlement?.seats || []).filter((row) => row.folded).map((row) => String(row.seat)));
  return Object.entries(hand.bets || {}).flatMap(([seat, bet]) =>
    (bet.raise ? [[`${t("{name} raises", { name: who(seat) })} ${bet.raise}`, []]]
      : folded.has(seat) ? [[t("{name} folds", { name: who(seat) }), []]] : []));
}

/** The step a URL's fragment names (#step=K, from 1), as an index into the steps; the first if none. */
export function stepOf(hash, count) {
  const found = /(?:^#|&)step=(\d{1,6})(?:&|$)/.exec(hash || "");
  const k = found ? Number(found[1]) : 1;
  return Math.min(Math.max(k, 1), Math.max(count, 1)) - 1;
}

export const handPath = (table, number) => `/history/${encodeURIComponent(table)}/${number}`;

/** The token this browser holds (the host's, else a player's): a table's replays may be the players' only. */
const reader = () => stored().host_token || stored().token || undefined;
/** A refusal of who may read (not of a hand): said once, in the replay's place when a hand is asked for. */
const notAllowed = (err) => err?.code === "auth/required" || err?.code === "hand/not_allowed";
/** A refusal as a sentence of its own: a capital first, a full stop last. */
function said(err) {
  const text = refusal(err);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;
}

export async function historyPage(root, table, number = null) {
  const list = h("ul", { class: "hands", "aria-label": t("finished hands") });
  const view = h("section", { class: "replay", "aria-label": t("replay"), "aria-live": "polite" });
  root.replaceChildren(h("header", { class: "bar" }, h("h1", {}, t("History of {table}", { table })),
    h("nav", {}, h("a", { href: "/" }, t("Lobby")), " ", h("a", { href: `/table/${encodeURIComponent(table)}` }, t("Table")))), view, list);
  let game = "hcf";
  try { game = ((await api("GET", "/api/tables")).tables.find((t) => t.name === table) || {}).game || "hcf"; } catch (_) { /* hcf */ }
  const open = (n) => replay(view, table, n, game);
  window.onpopstate = () => {
    const n = Number(location.pathname.split("/")[3]);
    if (Number.isInteger(n) && n > 0) open(n); else view.replaceChildren();
  };
  if (number != null) open(number);
  let hands = [];
  try { hands = (await api("GET", `/api/tables/${encodeURIComponent(table)}/hands?limit=50`, undefined, reader())).hands; }
  catch (err) {
    if (!(number != null && notAllowed(err))) list.append(h("li", { class: "bad", role: "alert" }, said(err)));
    return;
  }
  if (!hands.length) list.append(h("li", {}, t("No hand is finished at this table yet.")));
  for (const hand of hands) {
    const href = `${handPath(table, hand.number)}#step=1`;
    list.append(h("li", {}, h("a", { class: "hand-link", href, "data-hand": hand.number, onclick: (ev) => {
      ev.preventDefault();
      history.pushState(null, "", href);
      open(hand.number);
    } }, `${handTitle(hand)}${hand.status === "void" ? `: ${voidReason(hand.reason)}` : ""}`)));
  }
}

async function replay(view, table, number, game) {
  let hand;
  try { hand = await api("GET", `/api/tables/${encodeURIComponent(table)}/hands/${number}`, undefined, reader()); }
  catch (err) { view.replaceChildren(h("p", { class: "bad", role: "alert" }, said(err))); return; }
  const all = steps(hand, hand.game || game);
  let at = stepOf(location.hash, all.length);
  const verdict = h("p", { class: "verdict", role: "status" }, t("checking the deal…"));
  const shown = h("ol", { class: "steps" });
  const counter = h("span", { class: "counter" });
  const link = h("a", { class: "step-link" }, t("Link to this step"));
  const show = () => {
    shown.replaceChildren(...all.slice(0, at + 1).map(([text, list], i) => h("li", { class: i === at ? "now" : "", "aria-current": i === at ? "step" : null }, text, " ", list.length ? cards(list) : "")));
    counter.textContent = t("step {n} of {count}", { n: at + 1, count: all.length });
    const fragment = `#step=${at + 1}`;
    link.href = `${handPath(table, number)}${fragment}`;
    if (location.pathname === handPath(table, number) && location.hash !== fragment) history.replaceState(null, "", fragment);
  };
  const go = (k) => { at = Math.min(Math.max(k, 0), all.length - 1); show(); };
  const button = (label, key, to) => h("button", { type: "button", "aria-label": t("{label} (shortcut {key})", { label, key }), onclick: () => go(to()) }, label);
  const first = button(t("First"), t("Home"), () => 0);
  const prev = button(`\u2190 ${t("Back")}`, t("left arrow"), () => at - 1);
  const next = button(`${t("Next")} \u2192`, t("right arrow"), () => at + 1);
  const end = button(t("End"), t("End"), () => all.length - 1);
  document.onkeydown = (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.target?.closest?.("input, textarea, select")) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: all.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    go(to);
  };
  window.onhashchange = () => go(stepOf(location.hash, all.length));
  view.replaceChildren(h("h2", {}, t("Hand #{number}", { number: hand.number ?? number })), h("div", { class: "row" }, first, prev, next, end, counter), shown,
    h("p", {}, link), verdict);
  show();
  const result = await verifyReveal({ game, ...hand }, { cards: seenFromReveal(hand) });
  verdict.textContent = result.headline;
  verdict.classList.add(result.ok === true ? "good" : result.ok === false ? "bad" : "plain");
}
