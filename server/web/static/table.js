// The table page (player and spectator): seats around the felt, cards, stacks, bets, the button and the DP,
// the clock, the server's choices as buttons, the results seat by seat, and the check of every deal.

import { Socket } from "./sio.js";
import { t, language, languageSwitch } from "./i18n.js";
import { TableFeed } from "./feed.js";
import { h, cards, signed, beep } from "./ui.js";
import { houseNotes } from "./pages.js";
import { renderChoices, withAway, choiceRequest } from "./choices.js";
import { verifyReveal, seenFromReveal } from "./verify.js";
import { stored, store } from "./api.js";
import { resultLines, describe, handTitle, seatNets, handName, lastHandLine } from "./results.js";
import { refusal, phaseWords, tableStatus, deadReason, bySuit } from "./words.js";
import { betCircles, myBetsLine } from "./circles.js";
import { ChatBox } from "./chat.js";
import { seatPlace, phoneCell, denominations, chipStack, betChip, seatHands } from "./felt.js";
import { KNOWN_GAMES, dealerRow, genericNets, genericResults, genericTitle, seatParts, unknownGameLine } from "./generic.js";

const GAME_NAMES = { hcf: "High Card Flush", caribbean: "Caribbean Stud", sixcard: "6 Card Poker" };
/** The game's name for people: the server's own (game_name), else this page's, else its key. */
const gameName = (model) => model.game_name || GAME_NAMES[model.game] || model.game;

/** A 6 Card Poker box's five dealt cards, undoing its draw (client_cli/games/sixcard/view.py original_cards). */
function originalCards(entry) {
  const list = [...(entry.cards || [])];
  if (!list.length) return null;
  const draw = entry.draw;
  if (!draw) return list;
  if (draw.kind === "buy") return list.slice(0, 5);
  if (!draw.new) return null;
  const back = new Map(draw.new.map((c, i) => [c, draw.discarded?.[i]]));
  return list.map((c) => back.get(c) || c);
}

export class TablePage {
  constructor(root, table, { spectator = false } = {}) {
    this.root = root;
    this.table = table;
    this.spectator = spectator;
    this.memory = new Map(); // hand_id -> {commitment, mySeat, mySeed, cards: Map, verdict}
    this.log = [];
    this.offset = 0;
    this.wasMyTurn = false;
    this.clockFolds = new Map(); // hand_id -> places whose fold the clock forced
    this.pressed = 0; // when a choice was last pressed (a destructive button waits after it)
    this.status = t("connecting…");
    this.verdict = null;
    const saved = stored();
    this.token = spectator ? null : saved.token;
    this.hostToken = spectator ? null : saved.host_token;
    this.feed = new TableFeed(table, () => this.request("snapshot", { table }).then((r) => r.snapshot),
      (model, update) => this.changed(model, update));
    this.socket = new Socket(location.origin, () => {
      const auth = {};
      if (this.token) auth.token = this.token;
      if (this.hostToken) auth.host_token = this.hostToken;
      auth.lang = language(); // the server's refusals come back in the page's language (docs/i18n.md)
      return auth;
    });
    this.socket.on("connect", () => { this.online(true); this.joined(); });
    this.socket.on("disconnect", () => this.online(false));
    this.socket.on("retrying", () => this.online(false));
    this.socket.on("table_update", this.feed.listener); // the feed takes its table's updates itself
    this.socket.on("chat", (line) => this.chat.add(line));
    this.socket.on("refused", (err) => this.say(t("The server refused the connection: {reason}. Log in again.", { reason: refusal(err) }), true));
    this.socket.on("session_replaced", (d) => { this.socket.close(); this.say(d.message + " " + t("(this page stopped)"), true); });
    this.socket.on("session_revoked", (d) => { this.socket.close(); this.say(d.message, true); });
    this.keys = new Map();
    document.addEventListener("keydown", (ev) => this.key(ev));
    this.timer = setInterval(() => this.tick(), 250);
    this.build();
    this.socket.open();
  }

  build() {
    this.statusEl = h("p", { class: "status", role: "status", "aria-live": "polite" }, this.status);
    this.offlineEl = h("p", { class: "offline", role: "alert", hidden: true }, this.spectator // a spectator has no clock
      ? t("You are offline: this page reconnects by itself and shows the table again.")
      : t("You are offline: the table cannot hear you. Your clock keeps running; this page reconnects by itself."));
    this.felt = h("section", { class: "felt", "aria-label": t("the table") });
    this.choicesEl = h("section", { class: "controls", "aria-label": t("your actions") });
    this.resultsEl = h("section", { class: "results", "aria-label": t("results"), "aria-live": "polite" });
    this.verdictEl = h("p", { class: "verdict", role: "status", "aria-live": "polite" });
    // Newest first, numbered down (reversed): the first line that happened is 1, as a log reads.
    this.logEl = h("ol", { class: "log", reversed: true, "aria-label": t("what happened") });
    const sound = h("input", { type: "checkbox", id: "sound" });
    sound.checked = Boolean(stored().sound);
    sound.addEventListener("change", () => store({ sound: sound.checked }));
    this.titleEl = h("h1", {}, this.table);
    this.chat = new ChatBox(this.table, (name, payload) => this.socket.call(name, payload), { canSpeak: Boolean(this.token), host: Boolean(this.hostToken) });
    this.root.replaceChildren(
      h("header", { class: "bar" }, this.titleEl,
        h("nav", {}, h("a", { href: "/" }, t("Lobby")), " ", h("a", { href: `/history/${this.table}` }, t("History"))),
        h("label", { class: "sound", for: "sound" }, sound, " " + t("Sound on my turn")), languageSwitch()),
      this.statusEl, this.offlineEl, this.felt, this.choicesEl, this.verdictEl, this.resultsEl, this.chat.el,
      h("details", { class: "logbox", open: true }, h("summary", {}, t("Table log")), this.logEl));
  }

  say(text, bad = false) {
    this.status = text;
    this.statusEl.textContent = text;
    this.statusEl.classList.toggle("bad", bad);
  }

  /** Online or not: offline, say it across the table and disable every control (nothing can be sent). */
  online(yes) {
    this.connected = yes;
    this.offlineEl.hidden = yes;
    this.root.classList.toggle("is-offline", !yes);
    for (const el of this.choicesEl.querySelectorAll("button, input, select")) el.disabled = !yes;
    if (!yes) this.say(t("Connection lost: reconnecting…"), true);
  }

  async request(name, payload) {
    return this.socket.request(name, payload);
  }

  async joined() {
    this.say(t("connected"));
    const reply = await this.request("join", { table: this.table });
    if (!reply.ok) { this.say(refusal(reply.error), true); return; }
    this.feed.takeSnapshot(reply.snapshot);
    this.chat.joined(reply.chat);
    const last = reply.snapshot.last_hand;
    if (last && this.memory.has(last.hand_id) && !this.memory.get(last.hand_id).verdict) this.revealed(last);
  }

  hand(handId) {
    if (!this.memory.has(handId)) {
      const seeds = stored().seeds || {};
      this.memory.set(handId, { commitment: null, mySeat: null, mySeed: seeds[`${this.table}/${handId}`] ?? null, cards: new Map(), verdict: null });
    }
    return this.memory.get(handId);
  }

  changed(model, update) {
    this.model = model;
    this.offset = (model.server_time || Date.now() / 1000) - Date.now() / 1000;
    this.remember(model);
    for (const item of update?.events || []) {
      const event = item.event;
      this.noteClockFold(event, model);
      if (event.type === "hand_revealed") this.revealed(event);
      else this.rememberEvent(event);
      const line = describe(event, model);
      if (line) { this.note(line); this.chat.announce(line); }
    }
    this.render();
  }

  noteClockFold(event, model) {
    if (!/folded$/.test(event.type || "") || event.reason !== "clock") return;
    const id = event.hand_id ?? model.hand?.hand_id;
    if (!this.clockFolds.has(id)) this.clockFolds.set(id, new Set());
    this.clockFolds.get(id).add(event.spot ?? event.box ?? event.seat);
  }

  remember(model) {
    const hand = model.hand;
    if (!hand || !Number.isInteger(hand.hand_id)) return;
    const memory = this.hand(hand.hand_id);
    memory.mySeat = model.you?.seat ?? memory.mySeat;
    if (hand.commitment && !memory.commitment) memory.commitment = hand.commitment;
    if (hand.your_cards?.cards && memory.mySeat != null) memory.cards.set(memory.mySeat, [...hand.your_cards.cards]);
    for (const row of hand.spots || []) if (row.cards && row.seat === memory.mySeat && !memory.cards.has(row.spot)) memory.cards.set(row.spot, [...row.cards]);
    for (const row of hand.boxes || []) {
      const dealt = row.seat === memory.mySeat ? originalCards(row) : null;
      if (dealt && !memory.cards.has(row.box)) memory.cards.set(row.box, dealt);
    }
  }

  rememberEvent(event) {
    if (!Number.isInteger(event.hand_id)) return;
    const memory = this.hand(event.hand_id);
    if (event.type === "betting_opened" && !memory.commitment) memory.commitment = event.commitment;
    if (event.type === "dealer_revealed" && event.cards) {
      memory.cards.set(this.model?.game === "hcf" ? Number(event.seat) : 0, [...event.cards]);
    }
  }

  async revealed(reveal) {
    const memory = this.hand(reveal.hand_id);
    if (memory.verdict) return;
    for (const [place, list] of seenFromReveal(reveal)) if (!memory.cards.has(place)) memory.cards.set(place, list);
    memory.verdict = "checking";
    const verdict = await verifyReveal({ game: this.model?.game, ...reveal }, memory);
    memory.verdict = verdict;
    if (reveal.deal_order?.length || reveal.arranged) {
      this.verdict = verdict;
      this.note(verdict.headline);
      for (const p of verdict.problems) this.note(`  - ${p}`);
    }
    this.render();
  }

  note(line) {
    this.log.push(line);
    if (this.log.length > 60) this.log.shift();
    this.logEl.prepend(h("li", {}, line));
    while (this.logEl.children.length > 60) this.logEl.lastChild.remove();
  }

  /** Send a choice's request (`item`, with the arguments `args`) and show the answer. A choice's form sends its
   * own through the socket itself, with the same steps (choices.js, `sendChoice`): this is for any other caller. */
  async act(item, args) {
    const payload = choiceRequest(this.table, item, args);
    const answered = this.sending(item.request, payload.seed);
    try {
      answered(await this.socket.request(item.request, payload));
    } catch (err) {
      this.notSent();
    }
  }

  /** A choice's request is about to leave: keep the player's seed for the deal check, note when it was pressed.
   * Gives what shows the server's answer to it. */
  sending(request, seed) {
    if (seed && this.model?.hand?.hand_id != null) {
      const memory = this.hand(this.model.hand.hand_id);
      memory.mySeed = seed;
      memory.mySeat = this.model.you?.seat;
      const seeds = stored().seeds || {};
      seeds[`${this.table}/${this.model.hand.hand_id}`] = seed;
      const keep = Object.fromEntries(Object.entries(seeds).slice(-20));
      store({ seeds: keep });
    }
    if (request === "sit" && !this.model?.seats?.length) this.say("sitting…");
    this.pressed = Date.now();
    return (reply) => this.answered(request, reply);
  }

  /** The server's answer to a choice's request: its update drawn, its refusal or message said. */
  answered(request, reply) {
    if (reply.update) this.feed.offer(reply.update);
    if (!reply.ok) this.say(refusal(reply.error), true);
    else this.say(reply.message || "");  // done: the table shows what changed (a sit in mid-hand says so)
    // Seated: show the felt from its top (on a phone the Sit button lies below the whole felt).
    if (reply.ok && request === "sit") this.statusEl.scrollIntoView({ block: "start" });
  }

  /** A choice's request found the connection down. */
  notSent() {
    this.say(t("Not sent: the connection is down. Try again when the page says it is connected."), true);
  }

  key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = ev.target?.tagName;
    if ((tag === "INPUT" && ev.target.type !== "checkbox") || tag === "SELECT" || tag === "TEXTAREA") return;
    const button = this.keys.get(ev.key);
    if (button) { ev.preventDefault(); button.click(); }
  }

  tick() {
    const deadline = this.model?.hand?.clock?.deadline ?? this.model?.choices?.deadline;
    if (!this.clockEl) return;
    if (!deadline || this.model?.drill?.waiting) {
      for (const el of [this.clockEl, this.turnClockEl].filter(Boolean)) { el.textContent = ""; el.classList.remove("urgent"); }
      return;
    }
    const left = Math.max(0, deadline - (Date.now() / 1000 + this.offset));
    for (const el of [this.clockEl, this.turnClockEl].filter(Boolean)) {
      el.textContent = `${left.toFixed(0)} s`;
      el.classList.toggle("urgent", left < 3);
    }
  }

  render() {
    const model = this.model;
    if (!model) return;
    this.titleEl.textContent = `${this.table} \u00b7 ${gameName(model)}${this.spectator ? ` \u00b7 ${t("watching")}` : ""}`;
    this.known = KNOWN_GAMES.has(model.game);
    // The last hand's nets stay on the seats until the next hand's cards are dealt.
    const between = !model.hand || ["settled", "void", "not_dealt", "offer", "betting"].includes(model.hand.phase);
    this.nets = between ? (this.known ? seatNets : genericNets)(model.last_hand) : new Map();
    this.lastNames = between ? model.last_hand?.names || null : null; // who sat where in the finished hand
    this.hands = between && this.known ? seatHands(model.last_hand, model.game) : new Map();
    this.denoms = denominations(model.settings);
    this.felt.replaceChildren(this.centre(model), h("div", { class: "ring" }, this.dealerPlace(model), ...this.seatViews(model)));
    this.felt.className = `felt seats-${model.settings?.seats || 7}`;
    const preset = { sit: { buy_in: model.settings?.default_buy_in } };
    const context = { boxCards: (box) => (model.hand?.boxes || []).find((b) => b.box === box)?.cards, preset };
    const handMoves = (model.choices?.moves || []).filter((m) => m.request === "move");
    // Controls are rebuilt only when the choices change: what the player is typing survives other updates.
    const away = (model.seats || []).find((s) => s.seat === model.you?.seat)?.away;
    const choicesKey = JSON.stringify([model.choices?.moves, model.choices?.next_hand, away, model.hand?.boxes?.map((b) => b.cards), model.hand?.phase === "betting" && model.hand?.bets]);
    if (choicesKey !== this.choicesKey) {
      this.choicesKey = choicesKey;
      const { el, keys } = renderChoices(this.spectator ? { moves: [] } : withAway(this.choicesFor(model), model), this,
        { ...context, pressed: this.pressed, canSend: () => this.connected !== false });
      this.keys = keys;
      const heading = this.spectator ? [] : [h("h2", {}, handMoves.length ? t("Your turn") : t("Actions"))];  // a spectator has none
      this.choicesEl.replaceChildren(...heading, this.myBets(model), el);
      if (this.connected === false) this.online(false);
    }
    if (handMoves.length && !this.wasMyTurn && stored().sound) beep();
    this.wasMyTurn = handMoves.length > 0;
    this.verdictEl.textContent = this.verdict ? this.verdict.headline : "";
    this.verdictEl.className = `verdict ${this.verdict?.ok === true ? "good" : this.verdict?.ok === false ? "bad" : ""}`;
    this.resultsEl.replaceChildren(...this.results(model));
    this.tick();
  }

  /** The choices this page offers (a page for a special role may leave some out). */
  choicesFor(model) {
    return model.choices;
  }

  /** Cards a seat holds beyond what the hand says (a drill's miscount); none at an ordinary table. */
  extraCards(_seat) {
    return 0;
  }

  myBets(model) {
    const hand = model.hand;
    const seat = model.you?.seat;
    if (seat == null || hand?.phase !== "betting" || !Array.isArray(hand.bets)) return "";
    return myBetsLine(hand.bets.filter((b) => b.seat === seat));
  }

  centre(model) {
    const hand = model.hand;
    this.clockEl = h("span", { class: "clock", "aria-label": t("time left") });
    const info = [h("p", { class: "phase" }, hand ? `${t("Hand #{number}", { number: hand.number ?? "?" })} \u00b7 ${phaseWords(hand.phase)}`
      : t("The table is {status}", { status: tableStatus(model.status, model.waiting_reason) }), " ", this.clockEl)];
    // A live drill holds the hand while the dealer (the trainee) answers: the clocks are stopped meanwhile.
    if (model.drill?.waiting) info.push(h("p", { class: "warn drill-wait" }, t("The table is waiting for the dealer: the clock is stopped.")));
    if (hand?.arranged) info.push(h("p", { class: "warn" }, t("this hand's deck is arranged: not a random deal")));
    if (model.arranged_next) info.push(h("p", { class: "warn" }, t("the host arranged the next deck")));
    if (!this.known) info.push(h("p", { class: "note unknown-game" }, unknownGameLine(gameName(model))), dealerRow(hand));
    if (this.known && model.game !== "hcf" && hand?.dealer) {
      const d = hand.dealer;
      const shown = d.after || d.cards || (d.up ? [d.up] : []);
      // While bets are open the dealer has no card yet: the dealer's place at the top says "Dealer" already.
      if (shown.length || hand.phase !== "betting") info.push(h("div", { class: "dealer", "aria-label": t("the dealer's hand") }, h("span", { class: "who" }, t("Dealer")),
        cards(shown, Math.max(0, 5 - shown.length) * (hand.phase === "betting" ? 0 : 1)),
        d.class ? h("span", { class: "class" }, handName(model.game, { class: d.class_after || d.class }, shown)) : "",
        d.qualifies === false ? h("span", {}, " " + t("does not qualify")) : ""));
    }
    if (this.nets?.size && model.last_hand && this.known) {
      info.push(h("p", { class: "last-hand" }, lastHandLine(model.last_hand, model.game)));
    }
    if (model.game === "caribbean" && model.jackpot_chips != null) info.push(h("p", {}, t("Jackpot {chips}", { chips: model.jackpot_chips })));
    if (model.notes?.length) info.push(houseNotes(model.notes));
    return h("div", { class: "centre" }, info);
  }

  /** The dealer's place at the top of the felt (at High Card Flush the house deals; the DP banks from a seat). */
  dealerPlace(model) {
    return h("div", { class: "dealer-place", "aria-label": t("the dealer's place") }, t("Dealer"));
  }

  seatViews(model) {
    const hand = model.hand || {};
    const mine = model.you?.seat;
    const count = Math.max(model.settings?.seats || model.settings?.boxes || 7, ...(model.seats || []).map((s) => s.seat));
    this.turnClockEl = null;
    return (model.seats || []).map((seat) => {
      const s = seat.seat;
      // Someone new in a chair between hands: the finished hand's bets, cards and net were another player's.
      const other = Boolean(this.lastNames && this.lastNames[String(s)] != null && this.lastNames[String(s)] !== seat.name);
      const inHand = this.known && !other && hand.seats && !Array.isArray(hand.seats) ? hand.seats[String(s)] : null;
      const turn = hand.turn === s || hand.turn?.seat === s || hand.offered === s;
      const oval = seatPlace(s, count);
      const classes = ["seat", `pos-${s}`, `faces-${oval.faces}`, turn ? "turn" : "", s === mine ? "mine" : "", seat.present ? "" : "away"];
      const tags = [];
      if (model.game === "hcf" && hand.dealer === s) tags.push(h("span", { class: "tag dp", "aria-label": t("designated player") }, "DP"));
      if (seat.button) tags.push(h("span", { class: "tag button", "aria-label": t("the button") }, "D"));
      if (seat.sitting_out) tags.push(h("span", { class: "tag" }, t("sitting out")));
      if (seat.leaving) tags.push(h("span", { class: "tag" }, t("leaving soon")));
      if (seat.away) tags.push(h("span", { class: "tag away-switch", title: t("the table passes, folds and declines the bank for this player") }, t("away")));
      else if (!seat.present) tags.push(h("span", { class: "tag" }, t("away")));
      if (hand.offered === s) tags.push(h("span", { class: "tag" }, t("bank offered")));
      const net = other ? undefined : this.nets?.get(s);
      const long = [...String(seat.name)].length > 12 ? " long" : ""; // a long name in a smaller font
      const body = [h("div", { class: `name${long}` }, h("span", { class: "who" }, `${s}. ${seat.name}`), ...tags),
        h("div", { class: "stack" }, chipStack(seat.stack, this.denoms), t("{chips} chips", { chips: seat.stack }))];
      if (turn) body.push(this.turnLine(s === mine));
      const result = other ? null : this.seatResult(net, this.hands?.get(s));
      if (result) body.push(result);
      const front = []; // what lies on the felt in front of the seat: its bets, its spots or boxes
      if (inHand) { const [bets, rest] = this.hcfSeat(model, s, inHand); front.push(bets); body.push(...rest); }
      if (!this.known && !other) body.push(...seatParts(hand, s));
      for (const row of [...(hand.spots || []), ...(hand.boxes || [])].filter((r) => r.seat === s && !other)) front.push(this.houseRow(row));
      if (hand.phase === "betting" && Array.isArray(hand.bets)) front.push(betCircles(hand.bets.filter((b) => b.seat === s), s === mine));
      const el = h("div", { class: classes.filter(Boolean).join(" "), "data-seat": s, "aria-label": `seat ${s}, ${seat.name}` },
        h("div", { class: "plate" }, body), front.some(Boolean) ? h("div", { class: "front" }, front) : "");
      for (const [k, v] of Object.entries({ x: oval.x, y: oval.y, tx: oval.tx, ty: oval.ty })) {
        el.style.setProperty(`--${k}`, `${v}%`);  // CSSOM, not a style attribute: the CSP allows it
      }
      const cell = phoneCell(s, count); // a phone lays the seats in a grid (felt.js)
      el.style.setProperty("--row", String(cell.row));
      el.style.setProperty("--column", cell.column);
      if (cell.bottom) el.classList.add("bottom");
      return el;
    });
  }

  /** Whose turn: said on the seat itself, with the clock. */
  turnLine(mine) {
    this.turnClockEl = h("span", { class: "turn-clock", "aria-label": "time left" });
    return h("div", { class: "to-act" }, (mine ? t("Your turn") : t("To act")) + " ", this.turnClockEl);
  }

  /** The finished hand's result on the seat (its hand by name, its net), kept until the next deal. */
  seatResult(net, hand) {
    if (typeof net !== "number" && !hand) return null;
    return h("div", { class: "seat-result" }, hand ? h("span", { class: "hand-name" }, hand) : "",
      typeof net === "number" ? h("span", { class: `net ${net > 0 ? "good" : net < 0 ? "bad" : ""}` }, ` ${t("net")} ${net > 0 ? "+" : ""}${net}`) : "");
  }

  hcfSeat(model, s, info) {
    const hand = model.hand;
    const out = [];
    const bets = [];
    if (info.ante) bets.push(betChip(t("Ante {chips}", { chips: info.ante }), info.ante, this.denoms));
    if (info.straight_flush_bonus) bets.push(betChip(t("SF bonus {chips}", { chips: info.straight_flush_bonus }), info.straight_flush_bonus, this.denoms));
    if (info.flush_bonus) bets.push(betChip(t("Flush bonus {chips}", { chips: info.flush_bonus }), info.flush_bonus, this.denoms));
    if (info.raise) bets.push(betChip(t("Raise {chips}", { chips: info.raise }), info.raise, this.denoms));
    if (info.fee) bets.push(h("span", { class: "bet-chip fee" }, t("fee {chips}", { chips: info.fee }))); // paid to the house, not a bet: no chips
    if (info.passed) bets.push(h("span", { class: "bet-words" }, "passed"));
    const circle = bets.length ? h("div", { class: "bets-line", "aria-label": t("bets on the felt") }, bets) : "";
    let shown = null;
    if (model.you?.seat === s && hand.your_cards?.cards) shown = hand.your_cards.cards;
    if (!shown && hand.dealer === s && hand.dealer_cards) shown = hand.dealer_cards;
    if (!shown && hand.shown) shown = Array.isArray(hand.shown) ? (hand.shown.find(([seat]) => seat === s) || [])[1] : hand.shown[String(s)];
    const backs = (shown ? 0 : info.card_count || 0) + this.extraCards(s);
    if (shown || backs) out.push(cards(shown ? bySuit(shown) : shown, info.decision === "fold" ? 0 : backs));
    // the settled hand's name is said once, in the seat's result (seatResult)
    if (model.you?.seat === s && hand.your_cards?.flush?.length && hand.phase !== "settled") {
      out.push(h("div", { class: "hint" }, t("flush of {cards}, raise up to {times}\u00d7 the Ante", { cards: hand.your_cards.flush.length, times: hand.your_cards.raise_limit })));
    }
    if (info.decision && !this.hands?.has(s)) out.push(h("div", { class: "decision" }, info.decision === "fold" ? t("folded") : info.decision));
    if (info.dead) out.push(h("div", { class: "dead" }, `${t("dead")}${info.dead_reason ? ` (${deadReason(info.dead_reason)})` : ""}`));
    return [circle, out];
  }

  houseRow(row) {
    const key = "spot" in row ? "spot" : "box";
    // A casino layout: the spot (or box) with its number, its betting circles (Ante, Bet, Bonus, jackpot) and its cards.
    const circles = [[t("Ante"), row.ante], [t("Bet"), row.bet], ...(this.model?.game === "sixcard" || row.bonus ? [[t("Bonus"), row.bonus]] : [])];
    const spots = circles.map(([name, amount]) =>
      h("span", { class: `spot-circle${amount ? " placed" : ""}` }, amount ? chipStack(amount, this.denoms) : "", `${name}${amount ? ` ${amount}` : ""}`));
    if (row.jackpot) spots.push(h("span", { class: "spot-circle placed jackpot" }, t("Jackpot")));
    const notes = [];
    if (row.draw) notes.push(row.draw.kind === "buy" ? t("bought a card") : t("exchanged (fee {chips})", { chips: row.draw.fee }));
    if (row.exchange_request) notes.push(t("asks the dealer's exchange"));
    if (row.folded) notes.push(t("folded"));
    if (row.dead) notes.push(t("dead"));
    const count = row.cards ? 0 : (this.model?.hand?.phase === "betting" || row.folded ? 0 : 5);
    return h("div", { class: `box layout-${key}`, "data-place": row[key] },
      h("div", { class: "box-head" }, key === "spot" ? t("spot {spot}", { spot: row[key] }) : t("box {box}", { box: row[key] }), notes.length ? ` \u00b7 ${notes.join(" \u00b7 ")}` : ""),
      h("div", { class: "spot-circles" }, spots), cards(row.cards, count),
      row.class && this.model?.hand?.phase !== "settled" ? h("span", { class: "class" }, handName(this.model?.game, row, row.cards)) : "");
  }

  results(model) {
    const last = model.last_hand;
    if (!last) return [];
    const lines = this.known ? resultLines(last, model.game, model.you?.seat, this.clockFolds.get(last.hand_id)) : genericResults(last);
    return [h("h2", {}, this.known ? handTitle(last) : genericTitle(last)),
      h("ul", { class: "result-list" }, lines.map(([text, cls]) => h("li", { class: cls || "" }, text)))];
  }
}

export { signed };
