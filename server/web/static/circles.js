// The betting circles of a house game's seat while bets are open (docs/web.md): each spot's or box's bets,
// and whether Deal confirmed them, so that a player always sees what Deal will confirm.

import { h } from "./ui.js";
import { t } from "./i18n.js";

/** One bet row's words: `spot 1: Ante 15, jackpot 1`. */
export function betWords(b) {
  const place = "spot" in b ? t("spot {spot}", { spot: b.spot }) : t("box {box}", { box: b.box });
  const parts = [t("Ante {chips}", { chips: b.ante })];
  if (b.jackpot) parts.push(b.jackpot === true ? t("jackpot wager") : t("jackpot {chips}", { chips: b.jackpot }));
  if (b.bonus) parts.push(t("bonus {chips}", { chips: b.bonus }));
  return `${place}: ${parts.join(", ")}`;
}

/** The circles of one seat's bets (mine: the not-yet-confirmed ones say so). */
export function betCircles(bets, mine) {
  if (!bets.length) return "";
  return h("div", { class: "circles", "aria-label": t("bets on the felt") }, bets.map((b) =>
    h("span", { class: `circle ${b.confirmed ? "confirmed" : "unconfirmed"}`, "data-place": b.spot ?? b.box },
      betWords(b), b.confirmed ? "" : h("span", { class: "pending" }, mine ? ` (${t("not confirmed: press Deal")})` : ` (${t("not confirmed")})`))));
}

/** The line above the controls that says what the player's bets are and what Deal does with them. */
export function myBetsLine(bets) {
  if (!bets.length) return "";
  const words = bets.map(betWords).join("; ");
  const confirmed = bets.every((b) => b.confirmed);
  return h("p", { class: `my-bets ${confirmed ? "" : "warn"}`, role: "status" },
    confirmed ? t("Your bets {bets} are confirmed: waiting for the others (Clear takes them back).", { bets: words })
      : t("Your bets {bets} are not confirmed yet: Deal confirms them, Clear takes them back.", { bets: words }));
}
