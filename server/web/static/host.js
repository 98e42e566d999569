// The host console (docs/web.md): each table's state (settings, who sits, paused or not), floor commands,
// new tables, chips for an account, and invites (make, list, copy, revoke). POST /api/host and /api/invites
// with the host token as the bearer; the token stays in localStorage. A floor link's token runs its own table
// only: the console shows it that table and what it may do there, nothing else.

import { api, stored, store } from "./api.js";
import { h } from "./ui.js";
import { ownLimits } from "./limits.js";
import { refusal } from "./words.js";
import { t } from "./i18n.js";
import { invitesPanel } from "./host_invites.js";
import { tablePanel, done } from "./host_tables.js";
import { settlePanel } from "./host_settle.js";

function field(id, label, attrs = {}) {
  const input = h(attrs.tag || "input", { id, ...attrs, tag: null });
  if (attrs.type === "number") ownLimits(input);
  return [h("label", { for: id }, label), input];
}

let last = ["", false, ""]; // the last answer, kept when the console is drawn again (after a new table)
let answers = 0; // how many answers were said (data-n: a new answer is told from the last even after a redraw)
let floorChoice = null; // the table the floor panel was last set to

function tokenForm(root) {
  const [lbl, input] = field("host-token", `${t("Host token")} `, { type: "password", required: true });
  root.replaceChildren(h("h1", {}, t("Host console")), h("form", { onsubmit: (ev) => {
    ev.preventDefault();
    store({ host_token: input.value.trim(), host_table: null }); // the host token runs every table
    hostConsole(root);
  } }, lbl, input, h("button", { type: "submit" }, t("Use"))), h("p", {}, t("Open a floor invite link, or paste the host token hcf-server printed.")));
}

export async function hostConsole(root) {
  const out = h("p", { class: "status", role: "status", "aria-live": "polite" });
  const say = (text, bad = false, action = "", count = true) => {
    last = [text, bad, action];
    if (count) answers += 1;
    out.textContent = text;
    out.classList.toggle("bad", bad);
    out.dataset.action = action;
    out.dataset.ok = bad ? "no" : "yes";
    out.dataset.n = String(answers);
  };
  say(...last, false);
  const token = stored().host_token;
  if (!token) { tokenForm(root); return; }
  const own = stored().host_table || null; // a floor link's table; null: the host token, every table
  const send = async (body) => {
    try {
      const r = await api("POST", "/api/host", body, token);
      say(done(body, r), false, body.action);
      return r;
    } catch (err) { say(refusal(err), true, body.action); return null; }
  };
  let tables = [];
  try { tables = (await api("GET", "/api/tables")).tables; } catch (_) { say(t("The tables could not be loaded: reload the page."), true); }
  if (own) tables = tables.filter((t) => t.name.toLowerCase() === own.toLowerCase());
  const redraw = () => hostConsole(root);
  const panels = [];
  for (const t of tables) panels.push(await tablePanel(t, send, redraw, token));
  if (!own) panels.push(createPanel(send, redraw), grantPanel(send));
  panels.push(floorPanel(tables, send, redraw), settlePanel(tables, token), invitesPanel(tables, token, say));
  const forget = h("button", { type: "button", onclick: () => { store({ host_token: null, host_table: null }); hostConsole(root); } }, t("Forget the host token"));
  const who = own ? t("A floor link for table {table}: you run this table only.", { table: own }) : t("The host token: you run every table.");
  root.replaceChildren(h("header", { class: "bar" }, h("h1", {}, t("Host console")), h("nav", {}, h("a", { href: "/" }, t("Lobby")))),
    h("p", { class: "scope" }, who), out, h("div", { class: "panels" }, ...panels), forget);
}

function createPanel(send, redraw) {
  const [nl, name] = field("new-name", `${t("Name")} `, { required: true, maxlength: 32, pattern: "[A-Za-z0-9_.\\-]+" });
  const game = h("select", { id: "new-game" }, [["hcf", "High Card Flush"], ["caribbean", "Caribbean Stud"], ["sixcard", "6 Card Poker"]].map(([v, name]) => h("option", { value: v }, name)));
  const [sl, extra] = field("new-settings", `${t("Other settings (as in docs/configuration.md, e.g. {example})", { example: '{"min_ante": 10}' })} `, { tag: "textarea", rows: 2 });
  return h("form", { class: "panel", "aria-label": t("create a table"), onsubmit: async (ev) => {
    ev.preventDefault();
    let settings = {};
    try { settings = extra.value.trim() ? JSON.parse(extra.value) : {}; } catch (_) { bad(extra); return; }
    if (await send({ action: "create_table", table: name.value, settings: { game: game.value, ...settings } })) redraw();
  } }, h("h2", {}, t("Create a table")), nl, name, h("label", { for: "new-game" }, `${t("Game")} `), game, sl, extra, h("button", { type: "submit" }, t("Create")));
}

function bad(box) {
  box.setCustomValidity(t("These settings are not written as {example}: check the braces and quotes.", { example: '{"name": value, ...}' }));
  box.reportValidity();
  box.addEventListener("input", () => box.setCustomValidity(""), { once: true });
}

function grantPanel(send) {
  const [al, account] = field("grant-account", `${t("Account name")} `, { required: true, maxlength: 24 });
  const [ml, amount] = field("grant-amount", `${t("Chips")} `, { type: "number", min: 1, step: 1, value: 1000, required: true });
  return h("form", { class: "panel", "aria-label": t("grant chips"), onsubmit: async (ev) => {
    ev.preventDefault();
    await send({ action: "grant_chips", account: account.value.trim(), amount: Number(amount.value) });
  } }, h("h2", {}, t("Give chips")), al, account, ml, amount, h("button", { type: "submit" }, t("Give")));
}

function floorPanel(tables, send, redraw) {
  const floorTable = h("select", { id: "floor-table" }, tables.map((t) => h("option", { value: t.name }, t.name)));
  if (tables.some((t) => t.name === floorChoice)) floorTable.value = floorChoice;
  floorTable.addEventListener("change", () => { floorChoice = floorTable.value; });
  const [dl, seat] = field("floor-seat", `${t("Seat")} `, { type: "number", min: 1, max: 9, value: 1 });
  const [al, deck] = field("floor-deck", `${t("Deck (cards, or {example})", { example: '{"place": "cards", ...}' })} `, { tag: "textarea", rows: 2 });
  const button = (action, label, extra = () => ({})) => h("button", { type: "button", "data-action": action,
    onclick: async () => {
      const more = extra();
      floorChoice = floorTable.value;
      if (more && await send({ action, table: floorTable.value, ...more })) redraw(); // the tables' state changed
    } }, label);
  const injectKind = h("select", { id: "inject-kind" }, [["miscount", t("a miscount")], ["shuffler_fault", t("a shuffler fault")], ["none", t("nothing")]].map(([v, words]) => h("option", { value: v }, words)));
  const watch = h("a", { href: `/watch/${floorTable.value || "main"}`, id: "watch-link" }, t("Watch the table"));
  floorTable.addEventListener("change", () => { watch.href = `/watch/${floorTable.value}`; });
  return h("section", { class: "panel", "aria-label": t("floor commands") }, h("h2", {}, t("Floor")),
    h("label", { for: "floor-table" }, `${t("Table")} `), floorTable, dl, seat,
    h("div", { class: "row" },
      button("declare_dead", t("Declare seat dead"), () => ({ seat: Number(seat.value) })),
      button("misdeal", t("Misdeal")), button("shuffler_fault", t("Shuffler fault")),
      button("pause", t("Pause")), button("resume", t("Resume")),
      button("remove_player", t("Remove seat's player"), () => ({ seat: Number(seat.value) })),
      button("close_table", t("Close table"))),
    h("h3", {}, t("Drill")), h("label", { for: "inject-kind" }, `${t("Irregularity")} `), injectKind,
    h("div", { class: "row" },
      button("inject", t("Inject (seat above)"), () => ({ kind: injectKind.value, ...(injectKind.value === "miscount" ? { seat: Number(seat.value) } : {}) })),
      button("drill_report", t("Drill report")), button("drill_end", t("End the drill"))),
    al, deck, button("arrange_deck", t("Arrange next deck"), () => {
      const text = deck.value.trim();
      if (!text.startsWith("{")) return { cards: text };
      try { return { hands: JSON.parse(text) }; } catch (_) { bad(deck); return null; }
    }),
    h("p", {}, watch));
}
