// Check a finished hand's deal in the browser, as client_cli/verify.py does (docs/fairness.md, WebCrypto):
// 1. SHA-256(server_seed) is the commitment published before the bets (and the one this page saw);
// 2. this page's seed is among the player seeds at its seat;
// 3. deck_seed = HMAC-SHA256(server_seed, "hcf-table/deck/v1" || len(seed) 4 bytes BE || seed ...);
// 4. the deck is a Fisher-Yates shuffle driven by HMAC-SHA256(deck_seed, "hcf-table/stream/v1" || counter 8 BE),
//    4 bytes per draw with rejection sampling; dealt one card at a time in deal_order (7 rounds in
//    High Card Flush, 5 in the house games) and compared with every hand this page saw.
// An arranged deck is never "verified".

import { t } from "./i18n.js";
import { placeName } from "./words.js";

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const HAND_SIZE = { hcf: 7, caribbean: 5, sixcard: 5 };
const PLACES = { hcf: "seat", caribbean: "spot", sixcard: "box" };
const text = new TextEncoder();

export const cardText = (card) => RANKS[card >> 2] + SUITS[card & 3];

function hex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(value) {
  if (!/^([0-9a-fA-F]{2})*$/.test(value)) throw new Error("not hex");
  return new Uint8Array(value.match(/../g)?.map((h) => parseInt(h, 16)) || []);
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

async function hmac(key, message) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, message));
}

export async function sha256Hex(bytes) {
  return hex(await crypto.subtle.digest("SHA-256", bytes));
}

export async function deriveDeckSeed(serverSeed, playerSeeds) {
  const parts = [text.encode("hcf-table/deck/v1")];
  for (const seed of playerSeeds) {
    const bytes = text.encode(seed);
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, bytes.length);
    parts.push(length, bytes);
  }
  return hmac(serverSeed, concat(...parts));
}

export async function shuffledDeck(deckSeed) {
  const deck = [...Array(52).keys()];
  let buffer = new Uint8Array(0);
  let position = 0;
  let counter = 0n;
  const next4 = async () => {
    if (position + 4 > buffer.length) {
      const block = new Uint8Array(8);
      new DataView(block.buffer).setBigUint64(0, counter);
      counter += 1n;
      const more = await hmac(deckSeed, concat(text.encode("hcf-table/stream/v1"), block));
      buffer = concat(buffer.slice(position), more);
      position = 0;
    }
    const x = new DataView(buffer.buffer, buffer.byteOffset + position, 4).getUint32(0);
    position += 4;
    return x;
  };
  for (let i = 51; i > 0; i -= 1) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let x = await next4();
    while (x >= limit) x = await next4();
    const j = x % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck.map(cardText);
}

export function deal(deck, order, game = "hcf") {
  const hands = new Map(order.map((place) => [place, []]));
  let position = 0;
  for (let round = 0; round < (HAND_SIZE[game] || 7); round += 1) {
    for (const place of order) {
      if (position < deck.length) hands.get(place).push(deck[position++]);
    }
  }
  return hands;
}

/** The cards anyone saw: the DP's or dealer's and those shown (a 6 Card Poker box that drew is left out). */
export function seenFromReveal(reveal) {
  const cards = new Map();
  if (reveal.dealer_cards?.length) cards.set(Number.isInteger(reveal.dealer) ? reveal.dealer : 0, [...reveal.dealer_cards]);
  const drew = new Set((reveal.draws || []).filter((d) => d && "box" in d).map((d) => Number(d.box)));
  for (const [seat, shown] of Object.entries(reveal.shown || {})) {
    if (!drew.has(Number(seat))) cards.set(Number(seat), [...shown]);
  }
  return cards;
}

/** {ok: true|false|null, headline, problems}: seen = {commitment, mySeat, mySeed, cards: Map place -> cards}. */
export async function verifyReveal(reveal, seen) {
  const number = Number.isInteger(reveal.number) ? reveal.number : "?"; // the table's own count, never the server's id
  const hand = t("hand #{number}", { number });
  const order = (reveal.deal_order || []).map(Number);
  if (reveal.arranged) return { ok: null, headline: t("{hand}: arranged deck: not a random deal", { hand }), problems: [], arranged: true };
  if (!order.length) return { ok: null, headline: t("{hand}: no cards were dealt, nothing to verify", { hand }), problems: [] };
  const problems = [];
  let serverSeed;
  try { serverSeed = fromHex(String(reveal.server_seed || "")); } catch (_) { problems.push(t("the revealed server seed is not hex")); }
  if (serverSeed && !serverSeed.length) problems.push(t("the server did not reveal its seed"));
  if (!problems.length) {
    const published = String(reveal.commitment || "").toLowerCase();
    if ((await sha256Hex(serverSeed)) !== published) problems.push(t("the revealed server seed does not match the commitment"));
    if (seen.commitment && seen.commitment.toLowerCase() !== published) {
      problems.push(t("the commitment changed: {before}… was published before the bets, {after}… with the reveal", { before: seen.commitment.slice(0, 12), after: published.slice(0, 12) }));
    }
    if (seen.mySeed != null && seen.mySeat != null) {
      const mine = (reveal.player_seeds || []).filter(([seat]) => Number(seat) === seen.mySeat).map(([, s]) => s);
      if (mine.length !== 1 || mine[0] !== seen.mySeed) problems.push(t("your seed is missing from the player seeds the server used"));
    }
  }
  if (problems.length) return warn(hand, problems);
  const deckSeed = await deriveDeckSeed(serverSeed, (reveal.player_seeds || []).map(([, s]) => String(s)));
  if (reveal.deck_seed && hex(deckSeed) !== String(reveal.deck_seed).toLowerCase()) {
    return warn(hand, [t("the deck seed the server revealed is not the one its seeds give")]);
  }
  const game = reveal.game || "hcf";
  const dealt = deal(await shuffledDeck(deckSeed), order, game);
  let checked = 0;
  for (const [place, cards] of [...seen.cards.entries()].sort((a, b) => a[0] - b[0])) {
    const who = place === 0 ? t("the house") : placeName(PLACES[game] || "seat", place);
    if (!dealt.has(place)) { problems.push(t("{who} had cards but was not in the deal order", { who })); continue; }
    const want = [...dealt.get(place)].sort().join(" ");
    if ([...cards].sort().join(" ") !== want) {
      problems.push(t("{who} was shown {shown} but the seed deals {dealt}", { who, shown: cards.join(" "), dealt: dealt.get(place).join(" ") }));
    } else {
      checked += 1;
    }
  }
  if (problems.length) return warn(hand, problems);
  if (!checked) return { ok: true, headline: t("{hand}: seed matches the commitment (no cards seen to check)", { hand }), problems: [] };
  return { ok: true, headline: checked === 1 ? t("{hand}: deal verified (1 hand checked against the revealed seed)", { hand })
    : t("{hand}: deal verified ({count} hands checked against the revealed seed)", { hand, count: checked }), problems: [] };
}

function warn(hand, problems) {
  return { ok: false, headline: t("WARNING {hand}: DEAL NOT VERIFIED", { hand }), problems };
}
