// The betting circles of a house game's seat while bets are open (docs/web.md): each spot's or box's bets,
// and whether Deal confirmed them, so that a player always sees what Deal will confirm.

import { h } from "./ui.js";

/** One bet row's words: `spot 1: Ante 15, jackpot 1`. */
export function betWords(b) {
  const place = "spot" in b ? `spot ${b.spot}` : `box ${b.box}`;
  const parts = [`Ante ${b.ante}`];
  if (b.jackpot) parts.push(`jackpot ${b.jackpot === true ? "wager" : b.jackpot}`);
  if (b.bonus) parts.push(`bonus ${b.bonus}`);
  return `${place}: ${parts.join(", ")}`;
}

/** The circles of one seat's bets (mine: the not-yet-confirmed ones say so). */
export function betCircles(bets, mine) {
  if (!bets.length) return "";
  return h("div", { class: "circles", "aria-label": "bets on the felt" }, bets.map((b) =>
    h("span", { class: `circle ${b.confirmed ? "confirmed" : "unconfirmed"}`, "data-place": b.spot ?? b.box },
      betWords(b), b.confirmed ? "" : h("span", { class: "pending" }, mine ? " (not confirmed: press Deal)" : " (not confirmed)"))));
}

/** The line above the controls that says what the player's bets are and what Deal does with them. */
export function myBetsLine(bets) {
  if (!bets.length) return "";
  const words = bets.map(betWords).join("; ");
  const confirmed = bets.every((b) => b.confirmed);
  return h("p", { class: `my-bets ${confirmed ? "" : "warn"}`, role: "status" },
    confirmed ? `Your bets ${words} are confirmed: waiting for the others (Clear takes them back).`
      : `Your bets ${words} are not confirmed yet: Deal confirms them, Clear takes them back.`);
}
