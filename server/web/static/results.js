// Results seat by seat, each hand named and each bet's result explained (a dead seat says why), the net
// of each seat for its place on the felt, and one line for each table event, for every game.

import { betWords } from "./circles.js";
import { KNOWN_GAMES, genericEvent } from "./generic.js";
import { t, said } from "./i18n.js";
import { cardsText } from "./ui.js";
import { sentence, voidReason, deadReason, notDealtReason, actedReason, hcfHandName, pokerHandName, settingName } from "./words.js";

export function deadText(row) {
  if (row.dead_reason === "funds") {
    return t("dead: the DP's {bank} chips could not cover the {owed} owed; bets and fee returned", { bank: row.bank, owed: row.owed });
  }
  return row.dead_reason ? t("dead ({reason}): bets and fee returned", { reason: deadReason(row.dead_reason) }) : t("dead: bets and fee returned");
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const verb = (n) => (n > 0 ? t("wins {chips}", { chips: n }) : n < 0 ? t("loses {chips}", { chips: -n }) : t("pushes"));

/** The title of a finished hand: the table's own number, never the server's id. */
export function handTitle(reveal) {
  if (reveal.status === "void") return t("Hand #{number}: void", { number: reveal.number ?? "?" });
  if (!reveal.settlement) return t("No hand was dealt");
  return t("Hand #{number}: settled", { number: reveal.number ?? "?" });
}

/** The place (spot, box, seat) -> seat of a finished hand, from its bets. */
function owners(reveal) {
  const out = new Map();
  for (const b of Array.isArray(reveal.bets) ? reveal.bets : []) out.set(b.spot ?? b.box, b.seat);
  return out;
}

const shownOf = (reveal, place) => {
  const shown = reveal.shown || {};
  return Array.isArray(shown) ? (shown.find(([p]) => p === place) || [])[1] : shown[String(place)];
};

/** The name of a settled hand: HCF from its cards, the house games from the class the server sent. */
export function handName(game, row, cardsShown) {
  if (game === "hcf") return cardsShown?.length ? hcfHandName(cardsShown) : "";
  if (!row.class) return "";
  return pokerHandName(row.class, row.best || cardsShown || []);
}

function hcfWhy(row, reveal, dpName) {
  const q = reveal.dealer_qualifies ?? reveal.settlement?.dealer?.qualifies;
  const out = [];
  if (!q) {
    out.push(t("Ante {result} (the DP does not qualify)", { result: verb(row.ante) }));
    // The raise is returned then (a push): named, so that a player who raised sees where those chips went.
    const raised = reveal.bets?.[String(row.seat)]?.raise || 0;
    if (row.raise) out.push(t("raise {result}", { result: verb(row.raise) }));
    else if (raised > 0) out.push(t("raise of {chips} returned", { chips: raised }));
  }
  else if (row.ante > 0) out.push(t("Ante and raise win {chips} (beats the DP's {hand})", { chips: row.ante + row.raise, hand: dpName }));
  else if (row.ante < 0) out.push(t("Ante and raise lose {chips} (the DP's {hand} is better)", { chips: -(row.ante + row.raise), hand: dpName }));
  else out.push(t("Ante and raise push (ties the DP's {hand})", { hand: dpName }));
  if (row.straight_flush_bonus) out.push(t("straight flush bonus {result}", { result: verb(row.straight_flush_bonus) }));
  if (row.flush_bonus) out.push(t("flush bonus {result}", { result: verb(row.flush_bonus) }));
  if (row.fee) out.push(t("fee {chips}", { chips: signed(row.fee) }));
  return out;
}

function houseWhy(row, dealer, game) {
  const out = [];
  if (dealer.qualifies === false && !row.folded) out.push(t("Ante {result} (the dealer does not qualify)", { result: verb(row.ante) }), t("bet {result}", { result: verb(row.bet) }));
  else if (!row.folded) {
    const how = row.ante > 0 ? t("beats the dealer") : row.ante < 0 ? t("the dealer's hand is better") : t("ties the dealer");
    out.push(t("Ante {ante} and bet {bet} ({how})", { ante: verb(row.ante), bet: verb(row.bet), how }));
  } else out.push(t("Ante {result} (folded)", { result: verb(row.ante) }));
  if (row.jackpot) out.push(t("jackpot wager {result}", { result: verb(row.jackpot) }));  // already the player's net: the award less the wager
  if (game === "sixcard" && row.bonus) out.push(t("bonus {result}", { result: verb(row.bonus) }));
  if (row.draw_fee) out.push(t("draw fee {chips}", { chips: signed(row.draw_fee) }));
  return out;
}

/**
 * [text, class] lines for a finished hand's summary (the hand_revealed payload); `clockFolds` holds the
 * places whose fold the clock forced.
 */
export function resultLines(reveal, game, mySeat, clockFolds = new Set()) {
  const names = reveal.names || {};
  const settlement = reveal.settlement;
  if (!settlement) {
    return [[reveal.status === "void" ? t("every bet and fee went back: {reason}", { reason: voidReason(reveal.reason) }) : notDealtReason(reveal.reason)]];
  }
  const lines = [];
  const rows = settlement.seats || settlement.spots || settlement.boxes || [];
  const key = settlement.spots ? "spot" : settlement.boxes ? "box" : "seat";
  const seatOf = owners(reveal);
  const dealer = settlement.dealer || {};
  const dpCards = reveal.dealer_cards || dealer.cards;
  const dpName = game === "hcf" ? hcfHandName(dpCards || []) || t("hand") : "";
  for (const row of rows) {
    const place = row[key];
    const seat = row.seat ?? seatOf.get(place) ?? (key === "seat" ? place : null);
    const name = names[String(seat)] || (seat != null ? t("seat {seat}", { seat }) : "");
    const where = key === "seat" ? t("seat {seat}", { seat: place }) : key === "spot" ? t("spot {spot}", { spot: place }) : t("box {box}", { box: place });
    const who = key === "seat" ? `${where} ${names[String(seat)] || ""}`.trim() : `${where}${name ? ` (${name})` : ""}`;
    const mine = seat === mySeat ? "mine" : "";
    if (row.dead) { lines.push([`${who}: ${deadText(row)}`, `dead ${mine}`.trim()]); continue; }
    const named = row.folded ? "" : handName(game, row, shownOf(reveal, place));
    const folded = row.folded ? `${t("folded")}${clockFolds.has(place) ? ` (${t("the clock ran out")})` : ""}` : "";
    const why = game === "hcf" ? (row.folded ? [t("Ante {result} (folded)", { result: verb(row.ante) }), ...(row.fee ? [t("fee {chips}", { chips: signed(row.fee) })] : [])] : hcfWhy(row, reveal, dpName))
      : houseWhy(row, dealer, game);
    lines.push([`${who}: ${named || folded}${named && folded ? `, ${folded}` : ""}, ${t("net")} ${signed(row.net ?? 0)}: ${why.join("; ")}`, mine]);
  }
  const dpSeat = game === "hcf" ? reveal.dealer : null;
  const dp = dpSeat != null ? t("DP {name}", { name: names[String(dpSeat)] || t("seat {seat}", { seat: dpSeat }) }) : t("The dealer");
  const shows = game === "hcf" ? dpName : pokerHandName(dealer.class || "", dpCards || []);
  const q = dealer.qualifies === false || reveal.dealer_qualifies === false ? t("does not qualify") : t("qualifies");
  lines.unshift([`${shows ? t("{who} shows {hand}", { who: dp, hand: shows }) : dp}: ${q}${typeof dealer.net === "number" ? `, ${t("net")} ${signed(dealer.net)}` : ""}`,
    `dealer ${dpSeat != null && dpSeat === mySeat ? "mine" : ""}`.trim()]);
  if (typeof settlement.house === "number" && game !== "sixcard") lines.push([t("the house kept {chips}", { chips: settlement.house }), "house"]);
  return lines;
}

/** The felt's short line for a finished hand: `Hand #3: the DP shows flush of 4, queen high and qualifies`. */
export function lastHandLine(reveal, game) {
  const settlement = reveal?.settlement;
  if (!settlement) return reveal ? `${handTitle(reveal)}: ${resultLines(reveal, game, null)[0][0]}` : "";
  const dealer = settlement.dealer || {};
  const cards = reveal.dealer_cards || dealer.cards || [];
  const shows = game === "hcf" ? hcfHandName(cards) : pokerHandName(dealer.class || "", cards);
  const q = dealer.qualifies === false || reveal.dealer_qualifies === false ? t("does not qualify") : t("qualifies");
  const who = game === "hcf" ? t("the DP") : t("the dealer");
  return `${t("Hand #{number}", { number: reveal.number ?? "?" })}: ${shows ? t("{who} shows {hand} and {qualifies}", { who, hand: shows, qualifies: q }) : `${who} ${q}`}`;
}

/** Each seat's net of a finished hand (its spots or boxes added up, the DP's own), seat -> chips. */
export function seatNets(reveal) {
  const settlement = reveal?.settlement;
  const out = new Map();
  if (!settlement) return out;
  const seatOf = owners(reveal);
  for (const row of settlement.seats || settlement.spots || settlement.boxes || []) {
    const seat = row.seat ?? seatOf.get(row.spot ?? row.box);
    if (seat != null) out.set(seat, (out.get(seat) || 0) + (row.net ?? 0));
  }
  if (reveal.dealer != null && typeof settlement.dealer?.net === "number") out.set(reveal.dealer, settlement.dealer.net);
  return out;
}

/** A house game's bets placed (not yet confirmed: Deal confirms them), or taken back. */
function placed(e, who) {
  const bets = Array.isArray(e.bets) ? e.bets.filter((b) => b && typeof b === "object" && !Array.isArray(b)) : [];
  if (Array.isArray(e.bets) && !e.bets.length) return t("{name} takes their bets back", { name: who(e.seat) });
  return bets.length ? t("{name} places bets {bets} (not confirmed yet)", { name: who(e.seat), bets: bets.map(betWords).join("; ") })
    : t("{name} places bets (not confirmed yet)", { name: who(e.seat) });
}

const seatOf = (model, seat) => (model.seats || []).find((s) => s.seat === seat)?.name || t("seat {seat}", { seat });
const place = (event) => `${event.spot ? ` ${t("spot {spot}", { spot: event.spot })}` : ""}${event.box ? ` ${t("box {box}", { box: event.box })}` : ""}`;

/** One line for a table event, or null for the quiet ones. */
export function describe(event, model) {
  const who = (seat) => seatOf(model, seat);
  const said = SAID[event.type];
  const line = said ? said(event, who) : KNOWN_GAMES.has(model?.game) ? null : genericEvent(event, who);
  return line ? sentence(line) : null; // a message the server wrote may name a step or a field: in words
}

const SAID = {
  player_sat: (e) => t("{name} sits at seat {seat} with {stack}", { name: e.name, seat: e.seat, stack: e.stack }),
  player_stood: (e, who) => t("{name} stands up", { name: e.name || who(e.seat) }) + ({ removed: ` (${t("the host removed them")})`, sat_out_too_long: ` (${t("sat out for 10 minutes")})`, closed: ` (${t("the table closed")})` }[e.reason] || ""),
  player_sat_out: (e, who) => t("{name} sits out", { name: e.name || who(e.seat) }) + (e.reason === "clock" ? ` (${t("the clock ran out two hands in a row")})` : ""),
  player_back: (e, who) => t("{name} is back in the game", { name: e.name || who(e.seat) }),
  player_staying: (e, who) => t("{name} stays at the table", { name: who(e.seat) }),
  player_leaving: (e, who) => t("{name} will leave after this hand", { name: who(e.seat) }),
  leave_withdrawn: (e, who) => t("{name} takes the leave back and plays this hand", { name: who(e.seat) }),
  stack_changed: (e, who) => t("{name} now has {stack}", { name: e.name || who(e.seat), stack: e.stack }),
  player_away: (e, who) => (e.away ? t("{name} is away: the table acts for them at once", { name: e.name || who(e.seat) }) : t("{name} is back", { name: e.name || who(e.seat) })),
  time_bank_drawn: (e, who) => t("{name} is using the time bank: {seconds} s left", { name: e.name || who(e.seat), seconds: Math.floor(e.left) }),
  time_bank_used: (e, who) => t("{name} has {seconds} s left in the time bank", { name: e.name || who(e.seat), seconds: Math.floor(e.left) }),
  willing_changed: (e, who) => (e.willing_to_bank ? t("{name} will take the bank", { name: who(e.seat) }) : t("{name} will not take the bank", { name: who(e.seat) })),
  hand_started: (e) => t("hand #{number} starts", { number: e.number ?? "?" }) + (e.arranged ? ` (${t("the host arranged the deck")})` : ""),
  bank_offered: (e, who) => t("the bank is offered to {name}", { name: who(e.seat) }),
  bank_declined: (e, who) => t("{name} declines the bank", { name: who(e.seat) }) + actedReason(e.reason, "declined"),
  bank_accepted: (e, who) => t("{name} takes the bank", { name: who(e.seat) }),
  betting_opened: (e) => t("bets are open (the server's commitment begins {start})", { start: String(e.commitment || "").slice(0, 12) }),
  bets_placed: (e, who) => `${t("{name} bets", { name: who(e.seat) })}${e.ante ? ` ${t("Ante {chips}", { chips: e.ante })}` : ""}${e.straight_flush_bonus ? `, ${t("straight flush bonus {chips}", { chips: e.straight_flush_bonus })}` : ""}${e.flush_bonus ? `, ${t("flush bonus {chips}", { chips: e.flush_bonus })}` : ""}`,
  spot_bets_placed: (e, who) => placed(e, who),
  box_bets_placed: (e, who) => placed(e, who),
  bets_passed: (e, who) => t("{name} passes", { name: who(e.seat) }) + actedReason(e.reason, "passed"),
  bets_closed: () => t("bets are closed"),
  bets_confirmed: (e, who) => t("{name} presses Deal: their bets are confirmed", { name: who(e.seat) }),
  bets_cleared: (e, who) => t("{name}'s bets go back", { name: who(e.seat) }) + actedReason(e.reason, "clear"),
  blind_bets_placed: () => t("the blind boxes are bet"),
  blind_boxes_shown: (e, who) => t("{name} sees their blind boxes", { name: who(e.seat) }),
  box_raised: (e, who) => t("{name} bets {chips} on box {box}", { name: who(e.seat), chips: e.amount, box: e.box }),
  cards_drawn: (e, who) => (e.kind === "buy" ? t("{name} buys a 6th card on box {box}", { name: who(e.seat), box: e.box }) : t("{name} exchanges cards on box {box}", { name: who(e.seat), box: e.box })),
  exchange_opened: () => t("the boxes may ask for the dealer's exchange"),
  exchange_requested: (e, who) => t("{name} asks the dealer's exchange for box {box}", { name: who(e.seat), box: e.box }),
  exchange_cancelled: (e, who) => t("{name} cancels the exchange request of box {box}", { name: who(e.seat), box: e.box }),
  exchange_continued: (e, who) => t("{name} presses Continue", { name: who(e.seat) }),
  exchange_closed: (e) => t("the exchange choice is over") + (e.reason === "clock" ? ` (${t("the clock ran out")})` : ""),
  dealer_exchanged: (e) => (e.qualifies ? t("the dealer exchanges a card and qualifies") : t("the dealer exchanges a card and does not qualify")),
  deck_prepared: () => null,
  fees_collected: () => t("the fees are collected"),
  cards_dealt: () => t("the cards are dealt"),
  turn_started: () => null,
  player_folded: (e, who) => t("{name} folds", { name: who(e.seat) }) + place(e) + actedReason(e.reason, "fold"),
  spot_folded: (e, who) => t("{name} folds", { name: who(e.seat) }) + place(e) + actedReason(e.reason, "fold"),
  box_folded: (e, who) => t("{name} folds", { name: who(e.seat) }) + place(e) + actedReason(e.reason, "fold"),
  player_raised: (e, who) => t("{name} raises", { name: who(e.seat) }) + (e.amount ? ` ${e.amount}` : "") + place(e),
  spot_played: (e, who) => t("{name} plays", { name: who(e.seat) }) + place(e),
  seat_dead: (e, who) => t("{name}'s hand is dead: {reason}; its bets and fee go back", { name: who(e.seat), reason: deadReason(e.reason || e.dead_reason) }),
  spot_dead: (e, who) => t("spot {spot} ({name}) is dead: {reason}; its bets go back", { spot: e.spot, name: who(e.seat), reason: deadReason(e.reason) }),
  dealer_revealed: (e) => (e.seat ? t("the DP shows {cards}", { cards: cardsText(e.cards) }) : t("the dealer shows {cards}", { cards: cardsText(e.cards) }))
    + (e.qualifies === false ? ` ${t("and does not qualify")}` : ""),
  hand_settled: () => t("the hand is settled"),
  hand_voided: (e) => t("the hand is void: {reason}; every bet and fee goes back", { reason: voidReason(e.reason) }),
  hand_not_dealt: (e) => t("no hand: {reason}", { reason: notDealtReason(e.reason) }),
  settings_changed: (e) => t("the host changed the {settings}", { settings: Object.keys(e.changed || {}).map(settingName).join(", ") || t("settings") }),
  deck_arranged: (e) => said(e, "message") || t("the host arranged the next deck"),
  table_paused: () => t("the host paused the table"),
  table_resumed: () => t("the host resumed the table"),
  table_closing: () => t("the host is closing the table after this hand"),
  table_closed: () => t("the host closed the table"),
  table_waiting: (e) => said(e, "message") || t("the table waits for players"),
  table_notice: (e) => said(e, "message") || t("the table warns every seat"),
  presence: (e, who) => (e.present ? t("{name} is back", { name: who(e.seat) }) : t("{name} dropped (the clock keeps running)", { name: who(e.seat) })),
  drill_irregularity: (e) => said(e, "message") || t("the host injected an irregularity"),
  drill_ended: (e) => said(e, "message") || t("the drill is over"),
  drill_step: () => null,
  drill_answered: (e) => said(e, "message") || t("the dealer answered drill step {n}", { n: e.n }) + (typeof e.right === "boolean" ? `: ${e.right ? t("right") : t("wrong")}` : ""),
};
