// A game this page does not know, shown plainly from the server's generic facts: the game's name for people
// (the snapshot's game_name), the cards the hand view and the finished hand's record hold (card text, or
// seat -> card text), each seat's figures and marks, and the nets. No rule of any game is read here.

import { h, cards } from "./ui.js";
import { t } from "./i18n.js";

/** The games this page has its own views for; any other is shown by this module. */
export const KNOWN_GAMES = new Set(["hcf", "caribbean", "sixcard"]);

const CARD = /^[2-9TJQKA][cdhs]$/;
const QUIET = new Set(["game", "commitment", "clock", "deadline", "hand_id", "number", "phase", "reason", "server_seed",
  "player_seeds", "names", "status", "type", "table", "seq", "arranged", "carry", "deal_order", "deck_seed"]);

/** The cards a value holds: "Ah", "Ah Kd" or ["Ah", "Kd"]; null when it is not cards. */
export function cardsOf(value) {
  const list = typeof value === "string" ? value.split(" ") : value;
  return Array.isArray(list) && list.length && list.every((c) => typeof c === "string" && CARD.test(c)) ? list : null;
}

const words = (key) => String(key).replace(/_/g, " ");
const isSeatMap = (value) => value && typeof value === "object" && !Array.isArray(value)
  && Object.keys(value).length > 0 && Object.keys(value).every((k) => /^\d+$/.test(k));

/** The dealer's cards the hand or record shows: every field named dealer_... that holds cards, in order. */
export function dealerCards(record) {
  return Object.entries(record || {}).filter(([k]) => k.startsWith("dealer")).flatMap(([, v]) => cardsOf(v) || []);
}

/** The centre's dealer row, when the hand shows the dealer any card. */
export function dealerRow(hand) {
  const shown = dealerCards(hand);
  return shown.length ? h("div", { class: "dealer", "aria-label": t("the dealer's hand") }, h("span", { class: "who" }, t("Dealer")), cards(shown)) : "";
}

/** What one seat shows of the hand: its cards, its figures (a stake) and its marks (answered, surrendered). */
export function seatParts(hand, seat) {
  const out = [];
  const figures = [];
  const marks = [];
  for (const [key, value] of Object.entries(hand || {})) {
    if (QUIET.has(key)) continue;
    if (isSeatMap(value) && value[String(seat)] != null) {
      const mine = value[String(seat)];
      const shown = cardsOf(mine);
      if (shown) out.push(cards(shown));
      else if (typeof mine === "number" || typeof mine === "string") figures.push(`${words(key)} ${mine}`);
    } else if (Array.isArray(value) && value.includes(seat) && !cardsOf(value)) marks.push(words(key));
  }
  if (figures.length || marks.length) out.unshift(h("div", { class: "bets-line" }, [...figures, ...marks].join(" \u00b7 ")));
  return out;
}

/** Each seat's net of a finished hand, when its record gives them (``nets``: seat -> chips). */
export function genericNets(reveal) {
  const out = new Map();
  for (const [seat, net] of Object.entries(isSeatMap(reveal?.nets) ? reveal.nets : {})) {
    if (typeof net === "number") out.set(Number(seat), net);
  }
  return out;
}

/** A finished hand's title from its status alone. */
export function genericTitle(reveal) {
  const number = reveal.number ?? "?";
  return { settled: t("Hand #{number}: settled", { number }), void: t("Hand #{number}: void", { number }) }[reveal.status]
    || t("No hand was dealt");
}

/** [text, class] lines for a finished hand: the dealer's cards, each seat's shown cards and marks, each net. */
export function genericResults(reveal) {
  const names = reveal.names || {};
  const who = (seat) => names[String(seat)] || `seat ${seat}`;
  const lines = [];
  const dealer = dealerCards(reveal);
  if (dealer.length) lines.push([t("the dealer shows {cards}", { cards: dealer.join(" ") })]);
  for (const [key, value] of Object.entries(reveal)) {
    if (QUIET.has(key) || key === "nets" || key.startsWith("dealer")) continue;
    if (isSeatMap(value)) {
      for (const [seat, v] of Object.entries(value)) {
        const shown = cardsOf(v);
        lines.push([shown ? `${who(seat)} shows ${shown.join(" ")}` : `${who(seat)}: ${words(key)} ${v}`]);
      }
    } else if (Array.isArray(value) && value.length && value.every((v) => typeof v === "number")) {
      lines.push([`${words(key)}: ${value.map(who).join(", ")}`]);
    }
  }
  for (const [seat, net] of genericNets(reveal)) {
    const said = net > 0 ? t("{who} wins {chips}", { who: who(seat), chips: net }) : net < 0
      ? t("{who} loses {chips}", { who: who(seat), chips: -net }) : t("{who} pushes", { who: who(seat) });
    lines.push([said, net > 0 ? "good" : net < 0 ? "bad" : ""]);
  }
  return lines.length ? lines : [[reveal.status === "void" ? t("every bet went back") : t("no cards were dealt")]];
}

/** The line that says this page does not know the table's game. */
export function unknownGameLine(name) {
  return t("This page does not know {name}: its moves are the server's, and its cards and results are shown plainly.", { name });
}

const UNSAID = new Set(["type", "seat", "seed", "deadline", "commitment", "order", "server_seed"]);

/** One log line for an event this page has no words of its own for: whose seat, what, and its plain figures. */
export function genericEvent(event, who) {
  if (event.type === "hand_revealed") return null; // the results say how the hand ended
  const figures = Object.entries(event).filter(([k, v]) => !UNSAID.has(k) && (typeof v === "number" || cardsOf(v)))
    .map(([k, v]) => `${words(k)} ${cardsOf(v) ? cardsOf(v).join(" ") : v}`);
  const head = `${event.seat != null ? `${who(event.seat)} ` : ""}${words(event.type || "something happened")}`;
  return figures.length ? `${head}: ${figures.join(", ")}` : head;
}
