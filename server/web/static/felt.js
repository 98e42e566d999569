// The felt's geometry and its chips (docs/web.md, "The felt"): where each seat sits around the oval, the chips
// a stack or a bet is drawn with, and what each seat's result of the finished hand says. Pure functions and
// small DOM pieces; table.js composes them.

import { h } from "./ui.js";
import { handName } from "./results.js";
import { t } from "./i18n.js";

/** Denominations when the table sets no `chips`: the usual home-game set. */
export const DEFAULT_CHIPS = [1, 5, 25, 100, 500, 1000];
const COLOURS = ["white", "red", "green", "black", "purple", "yellow", "blue", "pink", "grey", "orange"];
const MOST_DISCS = 6; // a tall stack is drawn as its six largest chips: the amount is always said in words too

/**
 * The angle of a seat around the felt, in degrees, clockwise on the screen from the right (y grows down).
 * The dealer's place is at the top (-90); the seats go round from the dealer's left (the screen's upper
 * right) clockwise, leaving a gap of one place each side of the dealer, as at a real table. The places are
 * drawn toward the top and the bottom of the oval (by up to 15 degrees): a seat at the side grows toward the
 * middle, so its neighbours above and below it need the room (issue 28: spot 1 lay over spot 2).
 */
export function seatAngle(seat, count) {
  const places = Math.max(1, count) + 1; // the seats and the dealer's place
  const even = -90 + (360 * seat) / places;
  return even + 15 * Math.sin((2 * even * Math.PI) / 180);
}

/**
 * A seat's place on the felt: its point on the rim (x, y in % of the felt) and how far it is shifted from
 * that point (tx, ty in % of its own size), so that its outer edge touches the rim and it grows toward
 * the middle: it never leaves the felt, however tall its cards make it.
 */
export function seatPlace(seat, count) {
  const a = (seatAngle(seat, count) * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const round = (v) => Math.round(v * 100) / 100;
  return { x: round(50 + 49 * cos), y: round(50 + 49 * sin), tx: round(-50 - 50 * cos), ty: round(-50 - 50 * sin), faces: facing(cos, sin) };
}

/**
 * A seat's cell on a phone's felt, a grid of two columns (docs/web.md, "The felt"): the first half of the seats
 * down the right-hand column in seat order, the last half up the left-hand one, and the middle seat of an odd
 * count across the bottom row: still clockwise round the felt, and no seat's cards can lie over another's.
 */
export function phoneCell(seat, count) {
  const n = Math.max(1, count);
  const side = Math.floor(n / 2);
  if (seat <= side) return { row: seat, column: "2", bottom: false };
  if (n % 2 === 1 && seat === side + 1) return { row: side + 1, column: "1 / span 2", bottom: true };
  return { row: n - seat + 1, column: "1", bottom: false };
}

/** Which way the middle of the felt lies from a seat: its bets lie on that side of it. */
function facing(cos, sin) {
  if (sin < -0.5) return "down";
  if (sin > 0.5) return "up";
  return cos > 0 ? "left" : "right";
}

/** The table's denominations, smallest first (its `chips` setting when set, else the default set). */
export function denominations(settings) {
  const set = Array.isArray(settings?.chips) && settings.chips.length ? settings.chips : DEFAULT_CHIPS;
  return [...new Set(set.filter((c) => Number.isInteger(c) && c > 0))].sort((a, b) => a - b);
}

/** The fewest chips that make an amount (largest first), as [denomination, count] pairs; what no chip makes is left. */
export function chipsFor(amount, denoms) {
  let left = Math.max(0, Math.trunc(amount || 0));
  const out = [];
  for (const d of [...denoms].sort((a, b) => b - a)) {
    const n = Math.floor(left / d);
    if (n) { out.push([d, n]); left -= n * d; }
  }
  return { stacks: out, left };
}

/** An amount drawn as chips (decorative: the amount is said beside it in words). */
export function chipStack(amount, denoms) {
  const { stacks } = chipsFor(amount, denoms);
  const discs = [];
  for (const [d, n] of stacks) for (let i = 0; i < n && discs.length < MOST_DISCS; i += 1) discs.push(d);
  const rank = (d) => COLOURS[denoms.indexOf(d) % COLOURS.length];
  return h("span", { class: "chips", "aria-hidden": "true" },
    discs.map((d) => h("span", { class: `chip chip-${rank(d)}`, title: t("a chip of {value}", { value: d }) })));
}

/** One bet in its circle: the chips and the words (`Ante 15`). */
export function betChip(words, amount, denoms, extra = "") {
  return h("span", { class: `bet-chip ${extra}`.trim() }, chipStack(amount, denoms), h("span", { class: "bet-words" }, words));
}

const shownOf = (reveal, place) => {
  const shown = reveal.shown || {};
  return Array.isArray(shown) ? (shown.find(([p]) => p === place) || [])[1] : shown[String(place)];
};

/** Each seat's hand by name in a finished hand (seat -> words), for the seats: the DP's too, a fold says so. */
export function seatHands(reveal, game) {
  const out = new Map();
  const settlement = reveal?.settlement;
  if (!settlement) return out;
  const add = (seat, words) => { if (seat != null && words) out.set(seat, out.has(seat) ? `${out.get(seat)}; ${words}` : words); };
  if (game === "hcf") {
    for (const row of settlement.seats || []) {
      const shown = shownOf(reveal, row.seat);
      add(row.seat, row.folded ? t("folded") : row.dead ? t("dead") : shown ? handName("hcf", {}, shown) : "");
    }
    if (reveal.dealer != null && reveal.dealer_cards?.length) add(reveal.dealer, handName("hcf", {}, reveal.dealer_cards));
    return out;
  }
  const seatOf = new Map((Array.isArray(reveal.bets) ? reveal.bets : []).map((b) => [b.spot ?? b.box, b.seat]));
  for (const row of settlement.spots || settlement.boxes || []) {
    const place = row.spot ?? row.box;
    const name = row.folded ? t("folded") : row.dead ? t("dead") : handName(game, row, shownOf(reveal, place));
    add(seatOf.get(place), name);
  }
  return out;
}
