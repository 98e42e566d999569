// The host console: create a table, change its settings, floor commands and invites (POST /api/host,
// POST /api/invites with the host token as the bearer; the token stays in localStorage).

import { api, stored, store } from "./api.js";
import { h } from "./ui.js";

function field(id, label, attrs = {}) {
  const input = h(attrs.tag || "input", { id, ...attrs, tag: null });
  return [h("label", { for: id }, label), input];
}

let last = ["", false]; // the last answer, kept when the console is drawn again (after a new table)

export async function hostConsole(root) {
  const out = h("p", { class: "status", role: "status", "aria-live": "polite" });
  const say = (text, bad = false) => { last = [text, bad]; out.textContent = text; out.classList.toggle("bad", bad); };
  say(...last);
  let token = stored().host_token;
  const send = async (body) => {
    try {
      const r = await api("POST", "/api/host", body, token);
      say(`${body.action}: ok ${JSON.stringify(r).slice(0, 200)}`);
      return r;
    } catch (err) { say(`${body.action}: ${err.code}: ${err.message}`, true); return null; }
  };
  if (!token) {
    const [lbl, input] = field("host-token", "Host token ", { type: "password", required: true });
    root.replaceChildren(h("h1", {}, "Host console"), h("form", { onsubmit: (ev) => { ev.preventDefault(); store({ host_token: input.value.trim() }); hostConsole(root); } },
      lbl, input, h("button", { type: "submit" }, "Use")), h("p", {}, "Open a floor invite link, or paste the host token hcf-server printed."));
    return;
  }
  let tables = [];
  try { tables = (await api("GET", "/api/tables")).tables; } catch (_) { /* shown empty */ }
  const tableSelect = (id) => h("select", { id }, tables.map((t) => h("option", { value: t.name }, `${t.name} (${t.game})`)));

  const [nl, name] = field("new-name", "Name ", { required: true, maxlength: 32, pattern: "[A-Za-z0-9_.\\-]+" });
  const game = h("select", { id: "new-game" }, [["hcf", "High Card Flush"], ["caribbean", "Caribbean Stud"], ["sixcard", "6 Card Poker"]].map(([v, t]) => h("option", { value: v }, t)));
  const [sl, extra] = field("new-settings", "Other settings (JSON) ", { tag: "textarea", rows: 2 });
  const create = h("form", { class: "panel", "aria-label": "create a table", onsubmit: async (ev) => {
    ev.preventDefault();
    let settings = {};
    try { settings = extra.value.trim() ? JSON.parse(extra.value) : {}; } catch (_) { say("the settings are not JSON", true); return; }
    if (await send({ action: "create_table", table: name.value, settings: { game: game.value, ...settings } })) hostConsole(root);
  } }, h("h2", {}, "Create a table"), nl, name, h("label", { for: "new-game" }, "Game "), game, sl, extra, h("button", { type: "submit" }, "Create"));

  const setTable = tableSelect("set-table");
  const feeMode = h("select", { id: "fee-mode" }, ["", "all", "players", "designated", "none"].map((v) => h("option", { value: v }, v || "(unchanged)")));
  const [kl, more] = field("set-json", "Other changes (JSON) ", { tag: "textarea", rows: 2 });
  const change = h("form", { class: "panel", "aria-label": "change settings", onsubmit: async (ev) => {
    ev.preventDefault();
    let settings = {};
    try { settings = more.value.trim() ? JSON.parse(more.value) : {}; } catch (_) { say("the settings are not JSON", true); return; }
    if (feeMode.value) settings.fee_mode = feeMode.value;
    await send({ action: "change_settings", table: setTable.value, settings });
  } }, h("h2", {}, "Change settings"), h("label", { for: "set-table" }, "Table "), setTable,
    h("label", { for: "fee-mode" }, "Fee mode "), feeMode, kl, more, h("button", { type: "submit" }, "Change"));

  const floorTable = tableSelect("floor-table");
  const [dl, seat] = field("floor-seat", "Seat ", { type: "number", min: 1, max: 9, value: 1 });
  const [al, deck] = field("floor-deck", "Deck (cards, or JSON of place to cards) ", { tag: "textarea", rows: 2 });
  const floorButton = (action, label, extra = () => ({})) => h("button", { type: "button", "data-action": action,
    onclick: () => send({ action, table: floorTable.value, ...extra() }) }, label);
  const injectKind = h("select", { id: "inject-kind" }, ["miscount", "shuffler_fault", "none"].map((v) => h("option", { value: v }, v.replace("_", " "))));
  const floor = h("section", { class: "panel", "aria-label": "floor commands" }, h("h2", {}, "Floor"),
    h("label", { for: "floor-table" }, "Table "), floorTable, dl, seat,
    h("div", { class: "row" },
      floorButton("declare_dead", "Declare seat dead", () => ({ seat: Number(seat.value) })),
      floorButton("misdeal", "Misdeal"), floorButton("shuffler_fault", "Shuffler fault"),
      floorButton("pause", "Pause"), floorButton("resume", "Resume"),
      floorButton("remove_player", "Remove seat's player", () => ({ seat: Number(seat.value) })),
      floorButton("close_table", "Close table")),
    h("h3", {}, "Drill"), h("label", { for: "inject-kind" }, "Irregularity "), injectKind,
    h("div", { class: "row" },
      floorButton("inject", "Inject (seat above)", () => ({ kind: injectKind.value, ...(injectKind.value === "miscount" ? { seat: Number(seat.value) } : {}) })),
      floorButton("drill_report", "Drill report"), floorButton("drill_end", "End the drill")),
    al, deck, floorButton("arrange_deck", "Arrange next deck", () => {
      const text = deck.value.trim();
      return text.startsWith("{") ? { hands: JSON.parse(text) } : { cards: text };
    }),
    h("p", {}, h("a", { href: `/watch/${tables[0]?.name || "main"}`, id: "watch-link" }, "Watch the table")));
  floorTable.addEventListener("change", () => { floor.querySelector("#watch-link").href = `/watch/${floorTable.value}`; });

  const inviteTable = tableSelect("invite-table");
  const role = h("select", { id: "invite-role" }, ["player", "spectator", "floor"].map((v) => h("option", { value: v }, v)));
  const [el, expires] = field("invite-expires", "Expires (hours) ", { type: "number", min: 1, value: 12 });
  const [ul, uses] = field("invite-uses", "Uses ", { type: "number", min: 1, value: 10 });
  const link = h("output", { id: "invite-url", class: "invite-url" });
  const invites = h("form", { class: "panel", "aria-label": "invites", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      const r = await api("POST", "/api/invites", { table: inviteTable.value, role: role.value,
        expires_seconds: Number(expires.value) * 3600, uses: Number(uses.value) }, token);
      link.textContent = r.url;
      say("invite made: send the link to your friends");
    } catch (err) { say(`invite: ${err.code}: ${err.message}`, true); }
  } }, h("h2", {}, "Invite"), h("label", { for: "invite-table" }, "Table "), inviteTable,
    h("label", { for: "invite-role" }, "Role "), role, el, expires, ul, uses, h("button", { type: "submit" }, "Make a link"), link);

  const forget = h("button", { type: "button", onclick: () => { store({ host_token: null }); token = null; hostConsole(root); } }, "Forget the host token");
  root.replaceChildren(h("header", { class: "bar" }, h("h1", {}, "Host console"), h("nav", {}, h("a", { href: "/" }, "Lobby"))),
    out, h("div", { class: "panels" }, create, change, floor, invites), forget);
}
