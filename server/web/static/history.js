// A table's finished hands, and a step-through replay of one (GET /api/tables/{name}/hands, /api/hands/{id}).
// Each hand's deal is checked again here with the revealed seeds (verify.js).

import { api } from "./api.js";
import { h, cards } from "./ui.js";
import { resultLines, handTitle } from "./results.js";
import { betWords } from "./circles.js";
import { plain, voidReason } from "./words.js";
import { verifyReveal, seenFromReveal } from "./verify.js";

function steps(hand, game) {
  const names = hand.names || {};
  const who = (seat) => `seat ${seat}${names[String(seat)] ? ` ${names[String(seat)]}` : ""}`;
  const out = [];
  const dp = game === "hcf" && hand.dealer != null ? `, ${who(hand.dealer)} banks` : "";
  out.push([`Hand #${hand.number ?? "?"} starts${dp}${hand.arranged ? " (arranged deck)" : ""}`, []]);
  if (Array.isArray(hand.bets)) {
    for (const b of hand.bets) out.push([`${who(b.seat)} bets ${betWords(b)}`, []]);
  } else {
    for (const [seat, bet] of Object.entries(hand.bets || {})) {
      const parts = Object.entries(bet).filter(([, v]) => typeof v === "number" && v).map(([k, v]) => `${plain(k)} ${v}`);
      out.push([`${who(seat)} bets ${parts.join(", ") || "nothing"}`, []]);
    }
  }
  if (hand.deal_order?.length) out.push(["the cards are dealt", []]);
  const place = game === "hcf" ? who : (p) => `${game === "caribbean" ? "spot" : "box"} ${p}`; // house games show by place
  for (const [key, shown] of Object.entries(hand.shown || {})) out.push([`${place(key)} shows`, shown]);
  if (hand.dealer_cards) out.push([`the ${game === "hcf" ? "DP" : "dealer"} shows${hand.dealer_qualifies === false ? " (does not qualify)" : ""}`, hand.dealer_cards]);
  for (const [text] of resultLines(hand, game, null)) out.push([text, []]);
  return out;
}

export async function historyPage(root, table) {
  const list = h("ul", { class: "hands" });
  const view = h("section", { class: "replay", "aria-label": "replay", "aria-live": "polite" });
  root.replaceChildren(h("header", { class: "bar" }, h("h1", {}, `History of ${table}`),
    h("nav", {}, h("a", { href: "/" }, "Lobby"), " ", h("a", { href: `/table/${table}` }, "Table"))), list, view);
  let game = "hcf";
  try { game = ((await api("GET", "/api/tables")).tables.find((t) => t.name === table) || {}).game || "hcf"; } catch (_) { /* hcf */ }
  let hands = [];
  try { hands = (await api("GET", `/api/tables/${encodeURIComponent(table)}/hands?limit=50`)).hands; }
  catch (err) { list.append(h("li", { class: "bad" }, `${err.code}: ${err.message}`)); return; }
  if (!hands.length) list.append(h("li", {}, "no finished hand yet"));
  for (const hand of hands) {
    list.append(h("li", {}, h("button", { type: "button", class: "hand-link", "data-hand": hand.hand_id,
      onclick: () => replay(view, hand.hand_id, game) }, `${handTitle(hand)}${hand.status === "void" ? `: ${voidReason(hand.reason)}` : ""}`)));
  }
}

async function replay(view, handId, game) {
  const hand = await api("GET", `/api/hands/${handId}`);
  const all = steps(hand, hand.game || game);
  let at = 0;
  const verdict = h("p", { class: "verdict", role: "status" }, "checking the deal…");
  const shown = h("ol", { class: "steps" });
  const show = () => {
    shown.replaceChildren(...all.slice(0, at + 1).map(([text, list], i) => h("li", { class: i === at ? "now" : "" }, text, " ", list.length ? cards(list) : "")));
    counter.textContent = `step ${at + 1} of ${all.length}`;
  };
  const counter = h("span", { class: "counter" });
  const prev = h("button", { type: "button", "aria-label": "previous step (shortcut left arrow)", onclick: () => { at = Math.max(0, at - 1); show(); } }, "\u2190 Back");
  const next = h("button", { type: "button", "aria-label": "next step (shortcut right arrow)", onclick: () => { at = Math.min(all.length - 1, at + 1); show(); } }, "Next \u2192");
  const end = h("button", { type: "button", "aria-label": "last step (shortcut End)", onclick: () => { at = all.length - 1; show(); } }, "End");
  document.onkeydown = (ev) => {
    if (ev.key === "ArrowRight") next.click();
    else if (ev.key === "ArrowLeft") prev.click();
    else if (ev.key === "End") end.click();
  };
  view.replaceChildren(h("h2", {}, `Hand #${hand.number ?? "?"}`), h("div", { class: "row" }, prev, next, end, counter), shown, verdict);
  show();
  const result = await verifyReveal({ game, ...hand }, { cards: seenFromReveal(hand) });
  verdict.textContent = result.headline;
  verdict.classList.add(result.ok === true ? "good" : result.ok === false ? "bad" : "plain");
}
