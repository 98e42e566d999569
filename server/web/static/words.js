// What a person reads instead of the protocol's codes (docs/web.md): reasons, refusals, hand names.
// The words follow client_cli/reasons.py, so the browser and the terminal say the same thing. A code this
// page does not know yet is still said in words made of it, never shown as a code. Each in the page's language.

import { t } from "./i18n.js";

const VOID = {
  misdeal: t("the host declared a misdeal"),
  shuffler_fault: t("the host reported a fault of the shuffler"),
  dealer_dead: t("the host declared the designated player's hand dead"),
  card_count: t("the deck could not give every hand its cards"),
  shutdown: t("the server was stopped during the hand"),
  interrupted: t("the server stopped unexpectedly during the hand"),
};

const DEAD = { floor: t("the host declared it dead"), card_count: t("it was dealt the wrong number of cards"), void: t("the whole hand is void") };

const NOT_DEALT = {
  no_bank: t("nobody took the bank"),
  no_ante: t("nobody placed an Ante"),
  no_bets: t("nobody placed a bet"),
  no_players: t("nobody was there to play"),
};

const ACTED = { clock: t("the clock ran out"), away: t("away"), left: t("leaving"), floor: t("the host") };

const PHASES = {
  offer: t("the bank is offered"), betting: t("bets are open"), decisions: t("players decide"), draw: t("players draw"),
  exchange: t("the dealer's exchange"), settled: t("settled"), void: t("void"), not_dealt: t("not dealt"), dealing: t("dealing"),
  dealt: t("dealt"), showdown: t("showdown"),
};

const STATUS = { game_ended: t("the game ended, until the host reopens the table"), waiting: t("waiting for players"), paused: t("paused by the host"), running: t("playing"), closed: t("closed"), closing: t("closing") };

const CLASSES = {
  high_card: t("high card"), pair: t("a pair"), two_pair: t("two pair"), trips: t("three of a kind"), straight: t("a straight"),
  flush: t("a flush"), full_house: t("a full house"), quads: t("four of a kind"), straight_flush: t("a straight flush"),
  royal: t("a royal flush"),
};

/** Any code as words: `shuffler_fault` -> `shuffler fault`, `bet/above_max` -> `bet above max`. */
export function plain(code) {
  return String(code ?? "").replace(/[_/]+/g, " ").trim();
}

const said = (table, code, ordinary = "") => (code ? table[String(code)] || plain(code) : ordinary);

export const voidReason = (code) => said(VOID, code, t("the hand could not go on"));
export const deadReason = (code) => said(DEAD, code, t("the hand is dead"));
export const notDealtReason = (code) => said(NOT_DEALT, code, t("nobody placed a bet"));
export const phaseWords = (code) => said(PHASES, code);
export const statusWords = (code) => said(STATUS, code);

/** The table's status with what it waits for, said once: `waiting for players`, `waiting: nobody took the bank`. */
export function tableStatus(status, reason) {
  // The game ended under the house rules for the bank: the table stays paused until the host reopens it.
  if (reason === "game_ended" && status !== "closed") return t("closed for now: the game ended, until the host reopens it");
  if (status !== "waiting" || !reason || reason === "players") return statusWords(status);
  return t("waiting: {reason}", { reason: NOT_DEALT[reason] || phaseWords(reason) });
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
  return sentence(error?.message) || t("the server refused that");
}

const RANKS = "23456789TJQKA";
const RANK_WORDS = { T: t("10"), J: t("jack"), Q: t("queen"), K: t("king"), A: t("ace") };
const RANK_PLURAL = { T: t("10s"), J: t("jacks"), Q: t("queens"), K: t("kings"), A: t("aces"), 6: t("sixes") };
const rankWord = (r) => RANK_WORDS[r] || r;
const rankPlural = (r) => RANK_PLURAL[r] || t("{rank}s", { rank: r });

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
  let name = best.length === 1 ? t("no flush, {rank} high", { rank: rankWord(RANKS[best[0]]) })
    : t("flush of {n}, {rank} high", { n: best.length, rank: rankWord(RANKS[best[0]]) });
  if (run[0] >= 3) name += `; ${t("straight flush of {n}, {rank} high", { n: run[0], rank: rankWord(RANKS[run[1]]) })}`;
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

const HAND_BARE = { straight: t("straight"), flush: t("flush"), straight_flush: t("straight flush") };

/** A poker hand's name from its class and cards: `pair of jacks`, `flush, ace high`, `three 7s`. */
export function pokerHandName(cls, list) {
  const counts = new Map();
  for (const c of list || []) counts.set(c[0], (counts.get(c[0]) || 0) + 1);
  const byCount = [...counts.entries()].sort((a, b) => b[1] - a[1] || RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]));
  const top = byCount[0]?.[0];
  const high = [...counts.keys()].sort((a, b) => RANKS.indexOf(b) - RANKS.indexOf(a))[0];
  switch (cls) {
    case "pair": return top ? t("pair of {ranks}", { ranks: rankPlural(top) }) : className(cls);
    case "two_pair": return byCount.length > 1 ? t("two pair, {high} and {low}", { high: rankPlural(byCount[0][0]), low: rankPlural(byCount[1][0]) }) : className(cls);
    case "trips": return top ? t("three {ranks}", { ranks: rankPlural(top) }) : className(cls);
    case "quads": return top ? t("four {ranks}", { ranks: rankPlural(top) }) : className(cls);
    case "full_house": return byCount.length > 1 ? t("full house, {high} over {low}", { high: rankPlural(byCount[0][0]), low: rankPlural(byCount[1][0]) }) : className(cls);
    case "high_card": return high ? t("{rank} high", { rank: rankWord(high) }) : className(cls);
    case "straight": case "flush": case "straight_flush": return high ? t("{hand}, {rank} high", { hand: HAND_BARE[cls], rank: rankWord(high) }) : className(cls);
    default: return className(cls);
  }
}

/** Cards grouped by suit, highest first within a suit, as the terminal shows them. */
export function bySuit(list) {
  const order = "shdc";
  return [...(list || [])].sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]) || RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]));
}

/** A place at the table in words: `placeName("box", 2)` -> "box 2" (a kind the page does not know: as it comes). */
export function placeName(kind, n) {
  if (kind === "spot") return t("spot {spot}", { spot: n });
  if (kind === "box") return t("box {box}", { box: n });
  if (kind === "seat") return t("seat {seat}", { seat: n });
  return `${kind} ${n}`;
}

/** A setting's name in words (`min_ante` -> `minimum Ante`). */
export function settingName(key) {
  const known = { min_ante: t("minimum Ante"), max_ante: t("maximum Ante"), fee_mode: t("fee mode"), min_bank: t("minimum bank"),
    default_buy_in: t("default buy-in"), bet_seconds: t("betting time"), action_seconds: t("decision time"),
    offer_seconds: t("bank offer time"), pause_seconds: t("pause between hands"), time_bank_seconds: t("time bank") };
  return known[key] || plain(key);
}
