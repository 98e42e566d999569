// The server's `choices` as controls (docs/choices.md): one form per item, its arguments as inputs
// within the limits given, each with a keyboard shortcut shown on its button.

import { h, cards } from "./ui.js";
import { ownLimits } from "./limits.js";
import { t, said } from "./i18n.js";
import { placeName } from "./words.js";

const KEYS = {
  "bank:true": "y", "bank:false": "n", bet: "b", pass: "p", fold: "f", raise: "r", play: "l", deal: "d",
  rebet: "e", clear: "c", buy: "u", exchange: "x", request_exchange: "q", cancel_exchange: "z",
  continue: "o", sit: "s", stand: "t", leave: "t", stay: "a", top_up: "g", sit_out: "i", willing_to_bank: "w",
  away: "m",
};

const LABELS = {
  "bank:true": t("Take the bank"), "bank:false": t("Decline the bank"), bet: t("Bet"), pass: t("Pass"), fold: t("Fold"),
  raise: t("Raise"), play: t("Play"), deal: t("Deal"), rebet: t("Rebet"), clear: t("Clear bets"), buy: t("Buy a 6th card"),
  exchange: t("Exchange"), request_exchange: t("Ask the dealer's exchange"), cancel_exchange: t("Cancel the exchange request"),
  continue: t("Continue"), sit: t("Sit"), stand: t("Stand up"), leave: t("Leave after this hand"), stay: t("Stay"),
  top_up: t("Top up"), sit_out: t("Sit out"), willing_to_bank: t("Willing to bank"), away: t("Away"),
};

// A button that gives something up: it never takes the place of a button just pressed (a double tap on
// Deal must not leave the table), so for a moment after a press it is shown but disabled.
const DESTRUCTIVE = new Set(["leave", "stand", "fold", "clear", "pass", "bank:false", "sit_out"]);
// What the seat does (not the hand): drawn in a row of its own, after the hand's choices.
const SEAT_ACTIONS = new Set(["sit", "stand", "leave", "stay", "top_up", "sit_out", "willing_to_bank", "away"]);
export const SETTLE_MS = 1200;

const ARG_LABELS = {
  ante: t("Ante"), straight_flush_bonus: t("Straight flush bonus"), flush_bonus: t("Flush bonus"), amount: t("Chips"),
  buy_in: t("Buy-in"), bonus: t("Bonus"), jackpot: t("Jackpot"),
};

export function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// A bet form's places, in the page's words: the server's form names the key ("spot", "box").
const BETS_BY = { spot: t("Bets by spot"), box: t("Bets by box"), seat: t("Bets by seat") };

const isRange = (v) => v && typeof v === "object" && !Array.isArray(v) && "min" in v && "max" in v;

function rangeOf(form) {
  if (isRange(form)) return form;
  if (Array.isArray(form)) {
    const nums = form.filter((v) => typeof v === "number");
    const ranges = form.filter(isRange);
    const lo = Math.min(...nums, ...ranges.map((r) => r.min));
    const hi = Math.max(...nums, ...ranges.map((r) => r.max));
    return { min: lo, max: hi, start: ranges.length ? ranges[0].min : lo };
  }
  return null;
}

const isFlagList = (form) => Array.isArray(form) && form.length && form.every((v) => typeof v === "boolean");

/** An input for one argument form; returns {el, read()}. */
function argInput(name, form, id, preset) {
  if (isFlagList(form)) {
    if (form.length === 1) return { el: null, read: () => form[0] };
    const box = h("input", { type: "checkbox", id, name });
    if (preset === true) box.checked = true;
    return { el: h("label", { class: "arg" }, box, ` ${ARG_LABELS[name] || name}`), read: () => box.checked };
  }
  const range = rangeOf(form);
  if (range) {
    const start = preset ?? range.start ?? range.min;
    const input = h("input", { type: "number", id, name, min: range.min, max: range.max, step: 1, value: start,
      "aria-label": t("{what}, {low} to {high}", { what: ARG_LABELS[name] || name, low: range.min, high: range.max }) });
    const label = h("label", { class: "arg", for: id }, `${ARG_LABELS[name] || name} `,
      h("span", { class: "limits" }, `(${range.min}\u2013${range.max})`));
    ownLimits(input);
    const wrap = h("span", { class: "arg-wrap" }, label, input);
    if (name === "amount" || name === "ante") {
      wrap.append(h("button", { type: "button", class: "small", "aria-label": t("{what}: the most, {high}", { what: ARG_LABELS[name] || name, high: range.max }),
        onclick: () => { input.value = range.max; input.dispatchEvent(new Event("input")); } }, t("Max")));
    }
    return { el: wrap, read: () => Number(input.value) };
  }
  if (form && typeof form === "object" && "max_length" in form) return { el: null, read: () => undefined };
  return { el: null, read: () => form }; // a fixed value (a spot, a box)
}

function betsInput(form, id, place) {
  const key = typeof form.distinct === "string" ? form.distinct : "spot";
  const list = h("fieldset", { class: "bets" }, h("legend", {}, BETS_BY[key] || t("Bets")));
  const rows = [];
  const values = form.each[key] || [];
  values.forEach((value, index) => {
    const where = placeName(key, value);
    const use = h("input", { type: "checkbox", id: `${id}-${value}`, "aria-label": t("bet on {place}", { place: where }) });
    if (index === 0 && (form.count.min ?? 1) > 0) use.checked = true;
    const inputs = [];
    const row = h("div", { class: "bet-row" }, h("label", { for: `${id}-${value}` }, use, ` ${where}`));
    for (const [name, sub] of Object.entries(form.each)) {
      if (name === key) continue;
      const made = argInput(name, sub, `${id}-${value}-${name}`);
      if (made.el) row.append(made.el);
      inputs.push([name, made]);
    }
    rows.push({ use, value, inputs });
    list.append(row);
  });
  return {
    el: list,
    read: () => rows.filter((r) => r.use.checked).map((r) => {
      const bet = { [key]: r.value };
      for (const [name, made] of r.inputs) bet[name] = made.read();
      return bet;
    }),
  };
  void place;
}

function discardInput(form, id, boxCards) {
  const counts = (form.count || []).join(", ");
  const set = h("fieldset", { class: "discard" }, h("legend", {}, counts ? t("Cards to exchange ({counts})", { counts }) : t("Cards to exchange")));
  const boxes = [];
  const hi = form.each?.max ?? 5;
  for (let pos = form.each?.min ?? 1; pos <= hi; pos += 1) {
    const c = boxCards?.[pos - 1];
    const box = h("input", { type: "checkbox", id: `${id}-${pos}`, value: pos });
    set.append(h("label", { for: `${id}-${pos}` }, box, " ", c ? cards([c]) : t("card {n}", { n: pos })));
    boxes.push(box);
  }
  return { el: set, read: () => boxes.filter((b) => b.checked).map((b) => Number(b.value)) };
}

/** The request a choice sends: its table, its action (a hand's move) and its arguments, as docs/protocol.md has it. */
export function choiceRequest(table, item, args) {
  const payload = { table, ...args };
  if (item.request === "move") payload.action = item.action;
  return payload;
}

/** Send a choice's request through the page's socket itself (one raise's path, docs/server.md): the page notes
 * it first (`sending`: the seed, when it was pressed) and gives what shows the answer, which the socket's answer
 * goes to straight (no step of this module's in between), or `notSent`. */
function sendChoice(page, item, args) {
  const payload = choiceRequest(page.table, item, args);
  const answered = page.sending(item.request, payload.seed);
  page.socket.request(item.request, payload).then(answered, () => page.notSent());
}

/**
 * Controls for a choices object. page is the table page the forms send through: its `table`, its `socket`, and
 * its `sending` and `notSent` steps (table.js). context gives {boxCards(box) -> cards} for the
 * exchange. Returns {el, keys: Map key -> button}.
 */
export function renderChoices(choices, page, context = {}) {
  const el = h("div", { class: "choices", role: "group", "aria-label": t("your choices") });
  const handRow = h("div", { class: "choices-hand" });
  const seatRow = h("div", { class: "choices-seat", "aria-label": t("your seat") });
  const wait = Math.max(0, (context.pressed || 0) + SETTLE_MS - Date.now());
  const keys = new Map();
  let n = 0;
  const shortcut = (base, button) => {
    let key = base;
    if (keys.has(key)) key = base.toUpperCase();
    if (!key || keys.has(key)) return "";
    keys.set(key, button);
    return key;
  };
  for (const item of choices?.moves || []) {
    const action = item.action || item.request;
    const variants = action === "bank" ? item.accept.map((a) => ["bank:" + a, { accept: a }]) : [[action, {}]];
    for (const [tag, fixed] of variants) {
      n += 1;
      const id = `c${n}`;
      const inputs = [];
      const form = h("form", { class: `choice choice-${action}`, "data-action": tag });
      for (const [name, value] of Object.entries(item)) {
        if (["request", "action", "limits", "accept"].includes(name)) continue;
        let made;
        if (name === "bets") made = betsInput(value, id);
        else if (name === "discard") made = discardInput(value, id, context.boxCards?.(item.box));
        else if (name === "seed") made = { el: null, read: () => randomSeed() };
        else if (name === "seats") {
          const select = h("select", { id: `${id}-seat`, "aria-label": t("seat") }, value.map((s) => h("option", { value: s }, t("seat {seat}", { seat: s }))));
          made = { el: h("label", { class: "arg" }, t("Seat") + " ", select), read: () => Number(select.value) };
          name === "seats" && inputs.push(["seat", made]);
          form.append(made.el);
          continue;
        } else if (name === "sitting_out" || name === "willing" || name === "on") made = { el: null, read: () => value };
        else made = argInput(name, value, `${id}-${name}`, context.preset?.[action]?.[name]);
        if (made.el) form.append(made.el);
        inputs.push([name, made]);
      }
      let label = LABELS[tag] || action;
      if (action === "sit_out") label = item.sitting_out ? t("Sit out") : t("Come back");
      if (action === "willing_to_bank") label = item.willing ? t("Offer me the bank") : t("Never offer me the bank");
      if (action === "away") label = item.on ? t("Away (the table plays for me)") : t("I'm back");
      if ("spot" in item && typeof item.spot === "number") label += ` ${t("spot {spot}", { spot: item.spot })}`;
      if ("box" in item && typeof item.box === "number") label += ` ${t("box {box}", { box: item.box })}`;
      const button = h("button", { type: "submit", class: `act act-${action}` });
      const key = shortcut(KEYS[tag] || "", button);
      button.append(label, key ? h("kbd", { "aria-hidden": "true" }, key === key.toUpperCase() && key !== key.toLowerCase() ? `Shift+${key}` : key) : "");
      button.setAttribute("aria-label", key ? t("{label} (shortcut {key})", { label, key }) : label);
      if (key) button.dataset.key = key;
      form.prepend(button);
      if (wait > 0 && DESTRUCTIVE.has(tag)) {
        button.disabled = true;
        button.classList.add("settling");
        setTimeout(() => { button.classList.remove("settling"); button.disabled = context.canSend ? !context.canSend() : false; }, wait);
      }
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const args = { ...fixed };
        for (const [name, made] of inputs) {
          const v = made.read();
          if (v !== undefined) args[name] = v;
        }
        sendChoice(page, item, args);
      });
      (SEAT_ACTIONS.has(action) ? seatRow : handRow).append(form);
    }
  }
  // Sat down (or came back) mid-hand: the reason there is no hand move (docs/choices.md).
  if (choices?.next_hand) el.append(h("p", { class: "next-hand", role: "status" }, said(choices, "next_hand")));
  if (handRow.children.length) el.append(handRow);
  if (seatRow.children.length) el.append(seatRow);
  return { el, keys };
}

/** The server's choices with the away switch added for a seated player (the `away` request, docs/protocol.md):
 * "Away" while they play, "I'm back" while the table passes, folds and declines the bank for them. */
export function withAway(choices, model) {
  const mine = (model?.seats || []).find((s) => s.seat === model?.you?.seat);
  if (!choices || !mine) return choices;
  return { ...choices, moves: [...(choices.moves || []), { request: "away", on: !mine.away }] };
}
