// Results seat by seat (a dead seat says why) and one line per table event, for every game.

const REASONS = {
  floor: () => "declared dead by the floor",
  card_count: () => "dealt the wrong number of cards",
  void: () => "the dealer's hand was the wrong size: nothing settled",
};

export function deadReason(row) {
  if (row.dead_reason === "funds") {
    return `dead: the DP's ${row.bank} chips could not cover the ${row.owed} owed; bets and fee returned`;
  }
  const why = REASONS[row.dead_reason];
  return why ? `dead (${why()}): bets and fee returned` : "dead: bets and fee returned";
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

/** [text, class] lines for a finished hand's summary (the hand_revealed payload). */
export function resultLines(reveal, game, mySeat) {
  const names = reveal.names || {};
  const settlement = reveal.settlement;
  if (!settlement) return [[reveal.status === "void" ? `void: every bet and fee went back (${reveal.reason})` : `not dealt (${reveal.reason || "no bets"})`]];
  const lines = [];
  const rows = settlement.seats || settlement.spots || settlement.boxes || [];
  const key = settlement.spots ? "spot" : settlement.boxes ? "box" : "seat";
  for (const row of rows) {
    const seat = row.seat ?? row[key];
    const who = `${key} ${row[key]}${names[String(seat)] ? ` ${names[String(seat)]}` : ""}`;
    const mine = seat === mySeat ? " mine" : "";
    if (row.dead) { lines.push([`${who}: ${deadReason(row)}`, `dead${mine}`]); continue; }
    const parts = [];
    for (const bet of ["ante", "raise", "bet", "straight_flush_bonus", "flush_bonus", "bonus", "jackpot", "draw_fee", "fee"]) {
      if (typeof row[bet] === "number" && row[bet] !== 0) parts.push(`${bet.replaceAll("_", " ")} ${signed(row[bet])}`);
    }
    const what = row.folded ? "folded" : row.class || "";
    lines.push([`${who}: net ${signed(row.net ?? 0)}${what ? ` (${what})` : ""}${parts.length ? ` \u2014 ${parts.join(", ")}` : ""}`, mine.trim()]);
  }
  const dealer = settlement.dealer;
  if (dealer) {
    const dp = game === "hcf" && reveal.dealer != null ? `DP seat ${reveal.dealer}${names[String(reveal.dealer)] ? ` ${names[String(reveal.dealer)]}` : ""}` : "dealer";
    const q = dealer.qualifies === false ? "does not qualify" : "qualifies";
    lines.push([`${dp}: ${q}${typeof dealer.net === "number" ? `, net ${signed(dealer.net)}` : ""}`, "dealer"]);
  }
  if (typeof settlement.house === "number") lines.push([`house kept ${settlement.house}`, "house"]);
  return lines;
}

const seatOf = (model, seat) => (model.seats || []).find((s) => s.seat === seat)?.name || `seat ${seat}`;

/** One line for a table event, or null for the quiet ones. */
export function describe(event, model) {
  const who = (seat) => seatOf(model, seat);
  switch (event.type) {
    case "player_sat": return `${event.name} sat at seat ${event.seat} with ${event.stack}`;
    case "player_stood": return `seat ${event.seat} stood up`;
    case "hand_started": return `hand #${event.number ?? "?"} starts${event.arranged ? " (arranged deck)" : ""}`;
    case "bank_offered": return `the bank is offered to ${who(event.seat)}`;
    case "bank_declined": return `${who(event.seat)} declines the bank`;
    case "bank_accepted": return `${who(event.seat)} takes the bank`;
    case "betting_opened": return `betting is open (commitment ${String(event.commitment).slice(0, 12)}…)`;
    case "bets_placed": return `${who(event.seat)} bets${event.ante ? ` ${event.ante}` : ""}`;
    case "bets_passed": return `${who(event.seat)} passes`;
    case "cards_dealt": return "the cards are dealt";
    case "player_folded": return `${who(event.seat)} folds${event.spot ? ` spot ${event.spot}` : ""}${event.box ? ` box ${event.box}` : ""}`;
    case "player_raised": return `${who(event.seat)} raises${event.amount ? ` ${event.amount}` : ""}`;
    case "seat_dead": return `${who(event.seat)}'s hand is dead (${event.reason || event.dead_reason || "floor"})`;
    case "dealer_revealed": return `the dealer shows ${(event.cards || []).join(" ")}${event.qualifies === false ? ": does not qualify" : ""}`;
    case "hand_settled": return "the hand is settled";
    case "hand_voided": return `the hand is void (${event.reason})`;
    case "hand_not_dealt": return `the hand is not dealt (${event.reason})`;
    case "settings_changed": return `the settings changed: ${Object.keys(event.changed || {}).join(", ")}`;
    case "deck_arranged": return event.message || "the host arranged the next deck";
    case "table_paused": return "the table is paused";
    case "table_resumed": return "the table resumes";
    case "presence": return `${who(event.seat)} is ${event.present ? "back" : "away"}`;
    default: return null;
  }
}
