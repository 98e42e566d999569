// The table's chat (docs/web.md, "Chat"): the seated's chat and the spectators', a few quick reactions, the
// host's mute and spectator switch, and the dealer's announcements (the table's own events) in the same scroll,
// styled apart. Text only: every line goes in as a text node (ui.js h), never as HTML, so markup shows as typed.

import { h } from "./ui.js";
import { refusal } from "./words.js";
import { t } from "./i18n.js";

const MAX_CHARS = 200; // server/chat.py MAX_CHARS: the server refuses longer lines with a sentence
const MOST_LINES = 100;
const REACTIONS = [["good_luck", t("Good luck!")], ["nice_hand", t("Nice hand!")], ["well_played", t("Well played.")],
  ["thanks", t("Thanks!")], ["wow", t("Wow!")], ["ouch", t("Ouch.")]];

export class ChatBox {
  /** `send(name, payload)` answers a request; `canSpeak`: logged in; `host`: the page holds a host token. */
  constructor(table, send, { canSpeak = true, host = false } = {}) {
    this.table = table;
    this.send = send;
    this.host = host;
    this.seen = new Set(); // line ids already shown (a join brings the recent ones again)
    this.log = h("ol", { class: "chat-log", role: "log", "aria-live": "polite", "aria-label": t("chat and dealer") });
    // The scroll follows the newest line, unless the reader scrolled back (also when the page reflows: a phone turned).
    this.follow = true;
    this.log.addEventListener("scroll", () => { this.follow = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 30; });
    window.addEventListener("resize", () => this.keepUp());
    this.statusEl = h("p", { class: "chat-status", role: "status" });
    this.input = h("input", { type: "text", id: "chat-text", maxlength: MAX_CHARS, autocomplete: "off",
      placeholder: t("Say something to the table") });
    const form = h("form", { class: "chat-form", onsubmit: (ev) => { ev.preventDefault(); this.say(); } },
      h("label", { for: "chat-text", class: "chat-label" }, t("Say")), this.input,
      h("button", { type: "submit" }, t("Send")));
    const reactions = h("div", { class: "reactions", role: "group", "aria-label": t("quick reactions") },
      REACTIONS.map(([key, text]) => h("button", { type: "button", onclick: () => this.post({ reaction: key }) }, text)));
    const parts = canSpeak ? [form, reactions] : [h("p", { class: "hint" }, t("Log in to chat; you can read the table's chat."))];
    if (host) {
      this.shown = h("input", { type: "checkbox", id: "chat-shown", checked: true,
        onchange: () => this.hostSays({ action: "spectator_chat", shown: this.shown.checked }) });
      parts.push(h("label", { for: "chat-shown", class: "hint" }, this.shown, " " + t("Players read the spectators' chat (host)")));
    }
    this.el = h("section", { class: "chat", "aria-label": t("chat") }, h("h2", {}, t("Chat")), this.log, ...parts, this.statusEl);
  }

  /** What a join answered: the recent lines this viewer may read, and the host's setting. */
  joined(chat) {
    for (const line of chat?.lines || []) this.add(line);
    if (this.shown && chat) this.shown.checked = chat.spectators_shown !== false;
  }

  /** A line as the server sent it (a `chat` push, a reply, or a join's history). */
  add(line) {
    if (!line || line.table !== this.table || this.seen.has(line.id)) return;
    this.seen.add(line.id);
    const spoken = line.kind === "line" || line.kind === "reaction";
    const item = spoken
      ? h("li", { class: `chat-line room-${line.room === "spectators" ? "spectators" : "table"}` },
        h("span", { class: "who" }, line.name), line.room === "spectators" ? h("span", { class: "where" }, ` (${t("watching")})`) : "",
        ": ", h("span", { class: "text" }, line.text), this.muteButton(line))
      : h("li", { class: "chat-host" }, h("span", { class: "text" }, line.text), this.unmuteButton(line));
    if (!spoken && this.shown && line.kind.startsWith("spectators_")) this.shown.checked = line.kind === "spectators_shown";
    this.append(item);
  }

  /** One of the table's own events, in words: the dealer's announcement, styled apart. */
  announce(text) {
    this.append(h("li", { class: "chat-dealer" }, h("span", { class: "who" }, t("Dealer")), ": ", h("span", { class: "text" }, text)));
  }

  append(item) {
    this.log.append(item);
    while (this.log.children.length > MOST_LINES) this.log.firstChild.remove();
    this.keepUp();
  }

  keepUp() {
    if (this.follow) this.log.scrollTop = this.log.scrollHeight;
  }

  muteButton(line) {
    if (!this.host) return "";
    return h("button", { type: "button", class: "mute", "aria-label": t("mute {name}", { name: line.name }),
      onclick: () => this.hostSays({ action: "mute", account: line.name }) }, t("Mute"));
  }

  unmuteButton(line) {
    if (!this.host || line.kind !== "mute") return "";
    return h("button", { type: "button", class: "mute", "aria-label": t("unmute {name}", { name: line.name }),
      onclick: () => this.hostSays({ action: "unmute", account: line.name }) }, t("Unmute"));
  }

  async say() {
    const text = this.input.value;
    if (!text.trim()) return;
    if (await this.post({ text }) && this.input.value === text) this.input.value = ""; // not what was typed since
  }

  async post(args) {
    const reply = await this.send("chat", { table: this.table, ...args });
    return this.answered(reply, reply?.line);
  }

  async hostSays(args) {
    const reply = await this.send("host", { table: this.table, ...args });
    return this.answered(reply, reply?.chat);
  }

  answered(reply, line) {
    if (!reply?.ok) {
      this.statusEl.textContent = t("Not sent: {reason}.", { reason: refusal(reply?.error) });
      this.statusEl.classList.add("bad");
      return false;
    }
    this.statusEl.textContent = "";
    this.statusEl.classList.remove("bad");
    this.add(line);
    return true;
  }
}
