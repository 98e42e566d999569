// The lobby, the invite's join page and the account box (docs/web.md).

import { api, stored, store } from "./api.js";
import { h } from "./ui.js";
import { refusal, statusWords, phaseWords } from "./words.js";
import { t, said, language, languageSwitch } from "./i18n.js";

const GAME_NAMES = { hcf: "High Card Flush", caribbean: "Caribbean Stud", sixcard: "6 Card Poker" };

function message(el, text, bad = false) {
  el.textContent = text;
  el.classList.toggle("bad", bad);
}

export async function lobby(root) {
  const list = h("tbody");
  const note = h("p", { role: "status", "aria-live": "polite" });
  root.replaceChildren(h("header", { class: "bar" }, h("h1", {}, "hcf-table"), h("nav", {}, h("a", { href: "/host" }, t("Host console"))), languageSwitch()),
    accountBox(),
    h("h2", {}, t("Tables")), note,
    h("table", { class: "lobby" }, h("thead", {}, h("tr", {}, [t("Table"), t("Game"), t("Stakes"), t("Seats"), t("Phase"), ""].map((head) => h("th", { scope: "col" }, head)))), list));
  try {
    const { tables } = await api("GET", "/api/tables");
    for (const tb of tables) {
      const s = tb.settings || {};
      list.append(h("tr", { "data-table": tb.name },
        h("td", {}, tb.name), h("td", {}, GAME_NAMES[tb.game] || tb.game), h("td", {}, stakes(s)),
        h("td", {}, seated(tb)), h("td", {}, phaseWords(tb.phase) === tb.phase ? statusWords(tb.phase) : phaseWords(tb.phase)),
        h("td", {}, h("a", { href: `/table/${tb.name}` }, t("Play")), " ", h("a", { href: `/watch/${tb.name}` }, t("Watch")), " ",
          h("a", { href: `/history/${tb.name}` }, t("History")))));
      // The table's posted house rules for the bank, their status and its fees, under its row.
      if (tb.notes?.length) list.append(h("tr", { class: "house-notes-row", "data-notes": tb.name }, h("td", { colspan: "6" }, houseNotes(tb.notes))));
    }
    if (!tables.length) message(note, t("no table is open"));
  } catch (err) {
    message(note, t("the lobby could not be loaded: {reason}", { reason: err.message }), true);
  }
}

/** A table's notes (its house rules for the bank, the rotation's status, the posted fees): each a title and its
 * sentences, shown as the server says them (docs/protocol.md, the snapshot's `notes`). */
export function houseNotes(notes) {
  return h("div", { class: "house-notes", "aria-label": "house rules" }, notes.map((note) =>
    h("div", { class: "house-note" }, h("strong", {}, `${said(note, "title")}: `), (said(note, "lines") || []).join("; "))));
}

/** `Ante 5 to 500`, or `Ante 5 or more` when the table sets no maximum. */
export function stakes(settings) {
  const lo = settings.min_ante ?? 1;
  return settings.max_ante == null ? t("Ante {low} or more", { low: lo }) : t("Ante {low} to {high}", { low: lo, high: settings.max_ante });
}

/** `2 of 7 seats`, or at a house game `2 seated, 7 spots` (a player may hold several spots or boxes). */
export function seated(table) {
  const s = table.settings || {};
  const n = (table.seats || []).length;
  if (s.spots) return t("{n} seated, {spots} spots", { n, spots: s.spots });
  if (s.boxes) return t("{n} seated, {boxes} boxes", { n, boxes: s.boxes });
  return s.seats ? t("{n} of {seats} seats", { n, seats: s.seats }) : t("{n} seated", { n });
}

function accountBox() {
  const saved = stored();
  const out = h("p", { role: "status", "aria-live": "polite" });
  if (saved.token) {
    const pass = h("input", { type: "password", id: "newpass", autocomplete: "new-password", minlength: 8 });
    return h("section", { class: "account", "aria-label": t("your account") },
      h("p", {}, t("Playing as {name}.", { name: saved.name || t("you") })),
      h("form", { class: "inline", onsubmit: async (ev) => {
        ev.preventDefault();
        try { await api("POST", "/api/password", { new: pass.value }, saved.token); message(out, t("password saved: log in with it from another device")); }
        catch (err) { message(out, refusal(err), true); }
      } }, h("label", { for: "newpass" }, t("Add a password") + " "), pass, h("button", { type: "submit" }, t("Save"))),
      h("button", { type: "button", onclick: () => { store({ token: null, name: null }); location.reload(); } }, t("Log out on this device")), out);
  }
  const name = h("input", { id: "login-name", autocomplete: "username", required: true });
  const pass = h("input", { id: "login-pass", type: "password", autocomplete: "current-password", required: true });
  const go = (path) => async (ev) => {
    ev.preventDefault();
    try {
      const r = await api("POST", path, { name: name.value, password: pass.value });
      store({ token: r.token, name: r.name });
      location.reload();
    } catch (err) { message(out, refusal(err), true); }
  };
  return h("section", { class: "account", "aria-label": t("log in") },
    h("form", { class: "inline", onsubmit: go("/api/login") },
      h("label", { for: "login-name" }, t("Name") + " "), name, h("label", { for: "login-pass" }, " " + t("Password") + " "), pass,
      h("button", { type: "submit" }, t("Log in")), h("button", { type: "button", onclick: go("/api/register") }, t("Register"))), out);
}

const ROUTES = { player: (t) => `/table/${t}`, spectator: (t) => `/watch/${t}`, floor: () => "/host" };

/** The invite link: read the token from the fragment, drop it from the URL at once, say what the link invites
 * to (describing uses nothing up), then ask for a name (a player or floor link) or only to go in (a spectator's). */
export function join(root, navigate, token = location.hash.slice(1)) {
  history.replaceState(null, "", "/join"); // no token stays in the URL (or in the history)
  if (!token) {
    root.replaceChildren(h("h1", {}, t("This invite link does not work")), h("p", { class: "bad" }, t("This link has no invite in it: ask the host for a new one.")));
    return;
  }
  root.replaceChildren(h("h1", {}, t("You are invited")), h("p", { role: "status" }, t("Opening the invite…")));
  api("POST", "/api/invites/describe", { token }).then((invite) => invited(root, navigate, token, invite), (err) => {
    root.replaceChildren(h("h1", {}, t("This invite link does not work")), h("p", { class: "bad", role: "alert" }, asSentence(refusal(err))));
  });
}

const asSentence = (text) => (text ? `${text[0].toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}` : text);

/** `The link works until Friday, December 4 at 4:04 PM (11 hours and 59 minutes from now). It can still be used 3 times.` */
export function inviteTerms(invite) {
  const until = new Date(invite.expires_at).toLocaleString(language(), { weekday: "long", month: "long", day: "numeric", hour: "numeric", minute: "2-digit" });
  const left = invite.uses_left;
  const uses = left == null ? "" : left === 1 ? ` ${t("It can still be used once.")}` : ` ${t("It can still be used {count} times.", { count: left })}`;
  return t("The link works until {until} ({left} from now).", { until, left: invite.expires_in }) + uses;
}

function invited(root, navigate, token, invite) {
  const out = h("p", { role: "status", "aria-live": "polite" });
  const enter = (r) => {
    const keep = {};
    if (r.name) keep.name = r.name;
    if (r.token) keep.token = r.token;
    if (r.host_token) Object.assign(keep, { host_token: r.host_token, host_table: r.role === "floor" ? r.table : null });
    store(keep);
    history.replaceState(null, "", (ROUTES[r.role] || ROUTES.player)(r.table));
    navigate();
  };
  const watching = invite.role === "spectator";
  // No maxlength: a pasted name would be cut without a word; the server refuses an over-long one with a sentence.
  const name = h("input", { id: "join-name", autocomplete: "nickname", required: true });
  const form = h("form", { class: "join", onsubmit: async (ev) => {
    ev.preventDefault();
    try { enter(await api("POST", "/api/invites/redeem", { token, name: watching ? null : name.value.trim() })); }
    catch (err) { message(out, refusal(err), true); }
  } }, watching ? [] : [h("label", { for: "join-name" }, t("Your name at the table") + " "), name],
  h("button", { type: "submit" }, watching ? t("Watch the table") : t("Join")));
  root.replaceChildren(h("h1", { class: "invitation" }, invite.invitation),
    h("p", { class: "terms" }, inviteTerms(invite)),
    watching ? h("p", {}, t("Watching needs no name: you see the table as everyone does."))
      : h("p", {}, t("Choose the name the others will see at the table (up to 24 letters or digits).")),
    form, out);
  if (watching) form.requestSubmit(); // a spectator link goes straight to the table: nothing to ask
  else name.focus();
}
