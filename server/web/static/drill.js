// The drill trainee's view (docs/drills.md, a live drill): the table as on any page, and the step the table
// asks now with the dealer's view, answered with a form per step kind; the server judges. In training the
// reply says right or wrong with the right answer and its rule; in an exam nothing until the report.

import { stored } from "./api.js";
import { TablePage } from "./table.js";
import { h, cards } from "./ui.js";
import { ownLimits } from "./limits.js";
import { plain, refusal, sentence } from "./words.js";
import { t, said, sayAgain } from "./i18n.js";

/** The right answer in words: `qualifies: no`, `seat: 3`, `fees: seat 1 pays 1, seat 2 pays 1`. */
export function answerWords(answer) {
  if (answer === null || answer === undefined) return t("nobody");
  if (typeof answer === "boolean") return answer ? t("yes") : t("no");
  if (Array.isArray(answer)) return answer.map(answerWords).join(" ");
  if (typeof answer !== "object") return plain(answer);
  const parts = Object.entries(answer).map(([key, value]) => {
    if (key === "fees" && value && typeof value === "object") {
      const each = Object.entries(value).map(([seat, chips]) => t("seat {seat} pays {chips}", { seat, chips }));
      return t("fees: {fees}", { fees: each.join(", ") || t("nobody pays") });
    }
    if (key === "chips" && value && typeof value === "object" && !Array.isArray(value)) {
      const each = Object.entries(value).sort(([a], [b]) => Number(b) - Number(a)).map(([chip, n]) => t("{count} of {chip}", { count: n, chip }));
      return t("in chips: {chips}", { chips: each.join(", ") || t("none") });
    }
    return `${plain(key)}: ${answerWords(value)}`;
  });
  return parts.join(", ");
}

const PLACE_WORDS = { seat: t("seat"), spot: t("spot"), box: t("box") };
const BET_WORDS = { ante: t("the Ante"), raise: t("the Raise"), straight_flush_bonus: t("the Straight Flush bonus"), flush_bonus: t("the Flush bonus"),
  bet: t("the Bet"), jackpot: t("the jackpot wager"), bonus: t("the bonus") };
const STEP_WORDS = {
  offer_bank: t("the bank offer"), fees: t("the fees"), first_card: t("the first card"), irregularity: t("the irregularity"),
  walk_away: t("the walk-away"), qualify: t("the qualifier"), settle_seat: t("a seat's settlement"), bank_after: t("the DP's stack after"),
  settle_spot: t("a spot's settlement"), settle_box: t("a box's settlement"), dealer_exchange: t("the dealer exchange"),
  qualify_after: t("the qualifier after the exchange"), payout: t("a payout"),
};
const MISTAKE_WORDS = { order: t("the wrong place"), amount: t("a wrong amount"), chips: t("not the fewest chips in play"), "no answer": t("no answer"), wrong: t("wrong") };

const SETTLE = {
  settle_seat: ["seat", ["ante", "raise", "straight_flush_bonus", "flush_bonus"]],
  settle_spot: ["spot", ["ante", "bet", "jackpot"]],
  settle_box: ["box", ["ante", "bet", "bonus"]],
};

function number(id, label, attrs = {}) {
  const input = ownLimits(h("input", { type: "number", id, step: 1, value: 0, ...attrs }));
  return [h("label", { for: id }, label, " "), input];
}

function seatSelect(id, seats, none = false) {
  return h("select", { id, "aria-label": t("seat") },
    none ? h("option", { value: "" }, t("nobody")) : null,
    seats.map((s) => h("option", { value: s.seat }, t("seat {seat} {name}", { seat: s.seat, name: s.name }))));
}

const PAID_AT = { hcf: "settle_seat", caribbean: "settle_spot", sixcard: "settle_box" };

/** A payout's inputs: the place and bet paid, the amount, and how many of each chip in play (``chips``). */
function payoutForm(game, chips) {
  const [place, bets] = SETTLE[PAID_AT[game] || "settle_seat"];
  const [pl, which] = number("drill-place", PLACE_WORDS[place], { min: 1, value: 1 });
  const bet = h("select", { id: "drill-bet" }, bets.map((b) => h("option", { value: b }, BET_WORDS[b])));
  const [al, amount] = number("drill-amount", t("amount"), { min: 0 });
  const counts = chips.map((chip) => [chip, ...number(`drill-chip-${chip}`, t("chips of {chip}", { chip }), { min: 0 })]);
  const els = [pl, which, h("label", { for: "drill-bet" }, ` ${t("bet")} `), bet, h("span", { class: "arg-wrap" }, al, amount),
    ...counts.map(([, l, i]) => h("span", { class: "arg-wrap" }, l, i))];
  return [els, () => {
    const answer = { [place]: Number(which.value), bet: bet.value, amount: Number(amount.value) };
    if (counts.length) answer.chips = Object.fromEntries(counts.filter(([, , i]) => Number(i.value) > 0).map(([c, , i]) => [String(c), Number(i.value)]));
    return answer;
  }];
}

/** The inputs for one step kind: [elements, read() -> the answer object]. */
function answerForm(step, view, game = "hcf", chips = []) {
  const seats = view.seats || [];
  if (step === "payout") return payoutForm(game, chips);
  if (step === "offer_bank" || step === "first_card") {
    const select = seatSelect("drill-seat", seats, step === "offer_bank");
    return [[h("label", { for: "drill-seat" }, `${t("Seat")} `), select], () => ({ seat: select.value ? Number(select.value) : null })];
  }
  if (step === "fees") {
    const inputs = seats.map((s) => [s.seat, ...number(`drill-fee-${s.seat}`, t("seat {seat} {name} pays", { seat: s.seat, name: s.name }), { min: 0 })]);
    return [inputs.map(([, label, input]) => h("span", { class: "arg-wrap" }, label, input)), () => {
      const fees = {};
      for (const [seat, , input] of inputs) if (Number(input.value) > 0) fees[String(seat)] = Number(input.value);
      return { fees };
    }];
  }
  if (step === "irregularity") {
    const ruling = h("select", { id: "drill-ruling" }, [["play_on", t("play on")], ["dead_seat", t("that seat's hand is dead")], ["dead_hand", t("the whole hand is dead")]].map(([v, words]) => h("option", { value: v }, words)));
    const seat = seatSelect("drill-seat", seats);
    return [[h("label", { for: "drill-ruling" }, `${t("Ruling")} `), ruling, h("label", { for: "drill-seat" }, ` ${t("seat")} `), seat],
      () => (ruling.value === "dead_seat" ? { ruling: "dead_seat", seat: Number(seat.value) } : { ruling: ruling.value })];
  }
  if (step === "walk_away") {
    const ruling = h("select", { id: "drill-ruling" }, [["fold", t("fold")], ["wait", t("wait")]].map(([v, words]) => h("option", { value: v }, words)));
    return [[h("label", { for: "drill-ruling" }, `${t("Ruling")} `), ruling], () => ({ ruling: ruling.value })];
  }
  if (step === "qualify" || step === "qualify_after") {
    const yes = h("select", { id: "drill-qualifies" }, h("option", { value: "y" }, t("qualifies")), h("option", { value: "n" }, t("does not qualify")));
    return [[h("label", { for: "drill-qualifies" }, `${t("The dealer's hand")} `), yes], () => ({ qualifies: yes.value === "y" })];
  }
  if (step === "bank_after") {
    const [label, input] = number("drill-stack", t("The DP's stack"), { min: 0 });
    return [[label, input], () => ({ stack: Number(input.value) })];
  }
  if (step === "dealer_exchange") {
    const card = h("select", { id: "drill-card" }, (view.dealer_cards || []).map((c) => h("option", { value: c }, c)));
    return [[h("label", { for: "drill-card" }, `${t("Card replaced")} `), card], () => ({ card: card.value })];
  }
  const [place, bets] = SETTLE[step] || ["seat", []];
  const [pl, which] = number("drill-place", PLACE_WORDS[place], { min: 1, value: 1 });
  const inputs = bets.map((bet) => [bet, ...number(`drill-${bet}`, BET_WORDS[bet])]);
  const dead = h("input", { type: "checkbox", id: "drill-dead" });
  const els = [pl, which, ...inputs.map(([, l, i]) => h("span", { class: "arg-wrap" }, l, i))];
  if (step === "settle_seat") els.push(h("label", { for: "drill-dead" }, dead, ` ${t("dead: the DP cannot cover it")}`));
  return [els, () => (dead.checked ? { [place]: Number(which.value), dead: true }
    : { [place]: Number(which.value), ...Object.fromEntries(inputs.map(([bet, , i]) => [bet, Number(i.value)])) })];
}

/** The dealer's view of a step: its sentences (the table, the dealer, each seat's bets and state) in the page's
 * language from their specs (``say``), as the server shares them. */
function viewLines(view) {
  const dealer = said(view, "dealer");
  const lines = [h("p", {}, `${said(view, "table")}${dealer ? ` \u00b7 ${sentence(dealer)}` : ""}${view.button ? ` \u00b7 ${t("button seat {seat}", { seat: view.button })}` : ""}`)];
  lines.push(h("ul", { class: "drill-seats" }, (view.seats || []).map((s) =>
    h("li", {}, `${t("seat {seat} {name}: {stack} chips", { seat: s.seat, name: s.name, stack: s.stack })}${s.bets ? ` \u00b7 ${said(s, "bets")}` : ""}${s.status ? ` \u00b7 ${said(s, "status")}` : ""}`))));
  if (view.dealer_cards?.length) lines.push(h("p", {}, `${t("Dealer's cards")} `, cards(view.dealer_cards)));
  const places = view.say?.shown || [];
  (view.shown || []).forEach(([place, shown], i) => lines.push(h("p", {}, `${t("{place} shows", { place: places[i] ? sayAgain(places[i]) : place })} `, cards(shown))));
  if (view.note) lines.push(h("p", { class: "warn" }, sentence(said(view, "note"))));
  return lines;
}

export class DrillPage extends TablePage {
  build() {
    super.build();
    this.asked = null;
    this.answered = new Set();
    this.drillEl = h("section", { class: "drill panel", "aria-label": t("drill step"), "aria-live": "polite" }, h("p", {}, t("Waiting for the table's first step…")));
    this.feedbackEl = h("ol", { class: "drill-feedback", "aria-label": t("your answers") });
    this.miscount = null; // {seat}: the seat the trainer dealt an extra card to, this hand
    this.turnEl = h("p", { class: "drill-turn", "aria-live": "polite" }); // several trainees: whose turn it is
    this.statusEl.after(this.turnEl, this.drillEl, h("details", { open: true, class: "logbox" }, h("summary", {}, t("Your answers")), this.feedbackEl));
  }

  changed(model, update) {
    super.changed(model, update);
    if (!model.drill && !update) { this.drillEl.replaceChildren(h("p", {}, t("Table {table} runs no drill.", { table: this.table }))); return; }
    if (!update && model.drill.waiting && !this.fetching) this.fetch();
    this.turnEl.textContent = turnSentence(model.drill);
    const miscount = this.miscount;
    for (const { event } of update?.events || []) {
      if (event.type === "drill_step") this.fetch();
      else if (event.type === "drill_answered" && !this.answered.has(event.n)) {
        this.answered.add(event.n);
        const open = this.asked?.n === event.n ? this.asked : null;
        if (open) this.idle();
        this.feedback(t("Step {n}: no answer: {why}", { n: event.n, why: this.timedOut(open, model) ? t("the time ran out") : t("the step closed before you answered (the drill ended)") }), "bad");
      } else if (event.type === "drill_irregularity") {
        if (event.kind === "miscount") this.miscount = { seat: event.seat };
        this.feedback(sentence(said(event, "message")), "warn");
      } else if (event.type === "drill_ended") this.report(event);
      else if (["hand_started", "hand_settled", "hand_voided"].includes(event.type)) this.miscount = null;
    }
    if (this.miscount !== miscount) this.render(); // the felt shows (or stops showing) the extra card
  }

  /** Whether the open step's time had run out (else the drill ended while it was asked). */
  timedOut(step, model) {
    const seconds = model.drill?.step_seconds;
    if (!step || !step.askedAt || !seconds) return true;
    return Date.now() - step.askedAt >= (seconds - 1) * 1000;
  }

  /** The trainee deals from the dealer's chair: no seat is offered (the server refuses one anyway). */
  choicesFor(model) {
    const moves = (model.choices?.moves || []).filter((m) => m.request !== "sit");
    return { ...model.choices, moves };
  }

  /** A miscounted seat shows the extra card it was dealt, until the hand is over. */
  extraCards(seat) {
    // (until the hand is over: the held hand may not be on the felt yet when the trainer injects)
    return this.miscount?.seat === seat && this.model?.hand?.phase !== "settled" ? 1 : 0;
  }

  idle() {
    this.asked = null;
    this.drillEl.replaceChildren(h("p", {}, t("Waiting for the table's next step…")));
  }

  feedback(text, cls = "", why = "") {
    this.feedbackEl.append(h("li", { class: cls }, h("span", { class: "verdict" }, text), why ? h("p", { class: "why" }, why) : null));
  }

  async fetch() {
    this.fetching = true;
    try {
      const reply = await this.request("drill", { table: this.table, action: "question" });
      const step = reply.step;
      if (!reply.ok || !step || this.asked?.n === step.n || this.answered.has(step.n)) return;
      const me = stored().name;
      if (step.trainee && me && step.trainee.toLowerCase() !== me.toLowerCase()) { // several trainees: not my hand
        this.answered.add(step.n); // (its answer is never said here as a time-out)
        this.drillEl.replaceChildren(h("p", { class: "drill-turn" }, t("Hand {hand} is {trainee}'s to deal: step {n} is theirs to answer. You watch until your turn.", { hand: step.hand, trainee: step.trainee, n: step.n })));
        return;
      }
      this.asked = { ...step, askedAt: Date.now() };
      const [inputs, read] = answerForm(step.step, step.view || {}, this.model?.game, step.chips || []);
      const form = h("form", { class: "drill-answer", "data-step": step.step, onsubmit: (ev) => { ev.preventDefault(); this.answer(step, read()); } },
        ...inputs, h("button", { type: "submit", "aria-label": t("answer (shortcut Enter)") }, t("Answer")));
      this.drillEl.replaceChildren(h("h2", {}, t("Step {n}: {question}", { n: step.n, question: t(step.question) })), ...viewLines(step.view || {}), form);
      form.querySelector("select, input")?.focus();
    } finally {
      this.fetching = false;
    }
  }

  async answer(step, given) {
    const reply = await this.request("drill", { table: this.table, action: "answer", answer: given });
    this.answered.add(step.n);
    this.idle();
    if (reply.update) this.feed.offer(reply.update); // the next step may be asked in it
    if (!reply.ok) { this.feedback(reply.error.code === "drill/no_step" ? t("Too late: that step's time ran out.") : refusal(reply.error), "bad"); return; }
    if (reply.recorded) { this.feedback(t("Step {n}: your answer is recorded.", { n: step.n })); return; }
    const right = reply.right ? t("right") : t("wrong: the answer is {answer}", { answer: answerWords(reply.answer) });
    // the server's feedback says what was wrong and why, in this page's language (its say spec)
    const why = !reply.right && reply.feedback ? said(reply, "feedback") : "";
    this.feedback(t("Step {n}: {verdict} ({rule}). {question}", { n: step.n, verdict: right, rule: reply.rule, question: t(step.question) }), reply.right ? "good" : "bad", why);
  }

  async report(ended) {
    this.idle();
    const title = h("h2", {}, t("The drill is over: {right} of {total} right", { right: ended.right, total: ended.total }));
    this.drillEl.replaceChildren(title);
    let reply = null;
    try { reply = await this.request("drill", { table: this.table, action: "report" }); } catch (_) { /* the score stays */ }
    const steps = reply?.ok ? reply.report?.steps || [] : [];
    if (steps.length) {
      this.drillEl.append(h("ul", {}, steps.map((s, i) => h("li", { class: s.right ? "good" : "bad" }, t("Step {n}, {step}: {verdict}", { n: i + 1, step: STEP_WORDS[s.step] || plain(s.step), verdict: s.right ? t("right") : MISTAKE_WORDS[s.mistake] || sentence(s.mistake) || t("wrong") })))));
    }
  }
}

/** With several trainees, who deal in turn and whose turn it is now, in a sentence ("" with one). */
export function turnSentence(drill) {
  const names = drill?.trainees || [];
  if (names.length < 2) return "";
  const each = drill.trainee_turn === 1 ? t("1 hand") : t("{count} hands", { count: drill.trainee_turn });
  return t("Trainees {names} and {last} deal in turn, {each} each: {trainee} deals now.", { names: names.slice(0, -1).join(", "), last: names.at(-1), each, trainee: drill.trainee });
}

export function drillPage(root, name) {
  return new DrillPage(root, name);
}
