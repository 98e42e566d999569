// What a person reads instead of the protocol's codes (docs/web.md): reasons, refusals, hand names.
// The words follow client_cli/reasons.py, so the browser and the terminal say the same thing. A code this
// page does not know yet is still said in words made of it, never shown as a code.

const VOID = {
  misdeal: "the host declared a misdeal",
  shuffler_fault: "the host reported a fault of the shuffler",
  dealer_dead: "the host declared the designated player's hand dead",
  card_count: "the deck could not give every hand its cards",
  shutdown: "the server was stopped during the hand",
  interrupted: "the server stopped unexpectedly during the hand",
};

const DEAD = { floor: "the host declared it dead", card_count: "it was dealt the wrong number of cards", void: "the whole hand is void" };

const NOT_DEALT = {
  no_bank: "nobody took the bank",
  no_ante: "nobody placed an Ante",
  no_bets: "nobody placed a bet",
  no_players: "nobody was there to play",
};

const ACTED = { clock: "the clock ran out", away: "away", left: "leaving", floor: "the host" };

const PHASES = {
  offer: "the bank is offered", betting: "bets are open", decisions: "players decide", draw: "players draw",
  exchange: "the dealer's exchange", settled: "settled", void: "void", not_dealt: "not dealt", dealing: "dealing",
  dealt: "dealt", showdown: "showdown",
};

const STATUS = { game_ended: "the game ended, until the host reopens the table", waiting: "waiting for players", paused: "paused by the host", running: "playing", closed: "closed", closing: "closing" };

const CLASSES = {
  high_card: "high card", pair: "a pair", two_pair: "two pair", trips: "three of a kind", straight: "a straight",
  flush: "a flush", full_house: "a full house", quads: "four of a kind", straight_flush: "a straight flush",
  royal: "a royal flush",
};

/** Any code as words: `shuffler_fault` -> `shuffler fault`, `bet/above_max` -> `bet above max`. */
export function plain(code) {
  return String(code ?? "").replace(/[_/]+/g, " ").trim();
}

const said = (table, code, ordinary = "") => (code ? table[String(code)] || plain(code) : ordinary);

export const voidReason = (code) => said(VOID, code, "the hand could not go on");
export const deadReason = (code) => said(DEAD, code, "the hand is dead");
export const notDealtReason = (code) => said(NOT_DEALT, code, "nobody placed a bet");
export const phaseWords = (code) => said(PHASES, code);
export const statusWords = (code) => said(STATUS, code);

/** The table's status with what it waits for, said once: `waiting for players`, `waiting: nobody took the bank`. */
export function tableStatus(status, reason) {
  // The game ended under the house rules for the bank: the table stays paused until the host reopens it.
  if (reason === "game_ended" && status !== "closed") return "closed for now: the game ended, until the host reopens it";
  if (status !== "waiting" || !reason || reason === "players") return statusWords(status);
  return `waiting: ${NOT_DEALT[reason] || phaseWords(reason)}`;
}
export const className = (code) => said(CLASSES, code);

/** `` (the clock ran out)`` when something was done for a player; nothing for their own choice. */
export function actedReason(code, ordinary) {
  if (code == null || code === ordinary) return "";
  return ` (${said(ACTED, code)})`;
}

/** A server's sentence as a person reads it: a field or code named in it is said in words, braces dropped. */
export function sentence(text) {
  return String(text ?? "").trim().replace(/[{}[\]"]/g, "").replace(/\b[a-z]+(?:[_/][a-z]+)+\b/g, (m) => plain(m));
}

/** The sentence for a refusal {code, message}: the server's sentence, never its code. */
export function refusal(error) {
  return sentence(error?.message) || "the server refused that";
}

const RANKS = "23456789TJQKA";
const RANK_WORDS = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
const RANK_PLURAL = { T: "10s", J: "jacks", Q: "queens", K: "kings", A: "aces", 6: "sixes" };
const rankWord = (r) => RANK_WORDS[r] || r;
const rankPlural = (r) => RANK_PLURAL[r] || `${r}s`;

/** A High Card Flush hand's name: `flush of 5, king high`, `straight flush of 3, 9 high`, `no flush`. */
export function hcfHandName(list) {
  const suits = new Map();
  for (const c of list || []) {
    if (!suits.has(c[1])) suits.set(c[1], []);
    suits.get(c[1]).push(RANKS.indexOf(c[0]));
  }
  let best = [];
  let run = [0, 0]; // [length, top]
  for (const ranks of suits.values()) {
    ranks.sort((a, b) => b - a);
    if (flushOrder(ranks, best) > 0) best = ranks;
    run = longer(run, longestRun(ranks));
  }
  if (!best.length) return "";
  let name = best.length === 1 ? `no flush, ${rankWord(RANKS[best[0]])} high` : `flush of ${best.length}, ${rankWord(RANKS[best[0]])} high`;
  if (run[0] >= 3) name += `; straight flush of ${run[0]}, ${rankWord(RANKS[run[1]])} high`;
  return name;
}

/** More cards first, then the ranks from the top down (docs/rules/hcf.md section 1). */
function flushOrder(a, b) {
  if (a.length !== b.length) return a.length - b.length;
  const i = a.findIndex((r, k) => r !== b[k]);
  return i < 0 ? 0 : a[i] - b[i];
}

function longestRun(ranks) {
  const has = new Set(ranks);
  let best = [0, 0];
  for (let top = 12; top >= -1; top -= 1) {
    let n = 0;
    while (has.has((top - n + 13) % 13) && top - n >= -1 && n < 13) n += 1; // the ace plays low as -1
    if (n > best[0]) best = [n, top < 0 ? 12 : top];
  }
  return best;
}

const longer = (a, b) => (b[0] > a[0] || (b[0] === a[0] && b[1] > a[1]) ? b : a);

/** A poker hand's name from its class and cards: `pair of jacks`, `flush, ace high`, `three 7s`. */
export function pokerHandName(cls, list) {
  const counts = new Map();
  for (const c of list || []) counts.set(c[0], (counts.get(c[0]) || 0) + 1);
  const byCount = [...counts.entries()].sort((a, b) => b[1] - a[1] || RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]));
  const top = byCount[0]?.[0];
  const high = [...counts.keys()].sort((a, b) => RANKS.indexOf(b) - RANKS.indexOf(a))[0];
  switch (cls) {
    case "pair": return top ? `pair of ${rankPlural(top)}` : "a pair";
    case "two_pair": return byCount.length > 1 ? `two pair, ${rankPlural(byCount[0][0])} and ${rankPlural(byCount[1][0])}` : "two pair";
    case "trips": return top ? `three ${rankPlural(top)}` : "three of a kind";
    case "quads": return top ? `four ${rankPlural(top)}` : "four of a kind";
    case "full_house": return byCount.length > 1 ? `full house, ${rankPlural(byCount[0][0])} over ${rankPlural(byCount[1][0])}` : "a full house";
    case "high_card": return high ? `${rankWord(high)} high` : "high card";
    case "straight": case "flush": case "straight_flush": return high ? `${className(cls).replace(/^a /, "")}, ${rankWord(high)} high` : className(cls);
    default: return className(cls);
  }
}

/** Cards grouped by suit, highest first within a suit, as the terminal shows them. */
export function bySuit(list) {
  const order = "shdc";
  return [...(list || [])].sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]) || RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]));
}

/** A setting's name in words (`min_ante` -> `minimum Ante`). */
export function settingName(key) {
  const known = { min_ante: "minimum Ante", max_ante: "maximum Ante", fee_mode: "fee mode", min_bank: "minimum bank",
    default_buy_in: "default buy-in", bet_seconds: "betting time", action_seconds: "decision time",
    offer_seconds: "bank offer time", pause_seconds: "pause between hands", time_bank_seconds: "time bank" };
  return known[key] || plain(key);
}
