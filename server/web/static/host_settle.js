// The host console's settle-up (docs/web.md, "Settle-up"): each person's net for the session and who pays
// whom, in sentences (GET /api/tables/{name}/settle-up with the host token). The host opens and closes a
// table's session (a night) here; closing it shows its final settle-up. A closed table's night can be settled
// too: type its name. Beside it, who may open the table's replay links (docs/web.md, "History and replays").

import { api } from "./api.js";
import { h } from "./ui.js";
import { ownLimits } from "./limits.js";
import { refusal } from "./words.js";
import { t } from "./i18n.js";

const REPLAYS = [["anyone", t("anyone with the link")], ["players", t("its players and the host")], ["host", t("the host only")]];

export function settlePanel(tables, token) {
  const names = h("datalist", { id: "settle-tables" }, tables.map((t) => h("option", { value: t.name })));
  const table = h("input", { id: "settle-table", list: "settle-tables", required: true, maxlength: 32, value: tables[0]?.name || "" });
  const day = h("input", { id: "settle-day", type: "date" });
  const session = ownLimits(h("input", { id: "settle-session", type: "number", min: 1, step: 1, inputmode: "numeric" }));
  const out = h("ul", { class: "settle-lines", "aria-live": "polite" });
  const path = (tail) => `/api/tables/${encodeURIComponent(table.value.trim())}/${tail}`;
  const show = (lines) => out.replaceChildren(...lines.map((line, i) => h("li", { class: i === 0 ? "heading" : line.includes(" pays ") ? "pays" : "" }, line)));
  const run = async (work) => {
    if (!table.value.trim()) { out.replaceChildren(h("li", { class: "bad" }, t("Type the table's name first."))); return; }
    try { await work(); } catch (err) { out.replaceChildren(h("li", { class: "bad" }, refusal(err))); }
  };
  const settle = () => run(async () => {
    const query = new URLSearchParams();
    if (day.value) query.set("day", day.value);
    if (session.value) query.set("session", session.value);
    const r = await api("GET", path(`settle-up${query.toString() ? `?${query}` : ""}`), undefined, token);
    show(r.lines);
  });
  const night = (action) => run(async () => {
    const r = await api("POST", path("session"), { action }, token);
    show(action === "close" && r.closed ? [r.message, ...r.settle_up.lines] : [r.message]);
    if (action === "close" && r.closed) out.firstChild.className = "done";
  });
  const form = h("form", { class: "panel", "aria-label": t("settle up"), onsubmit: (ev) => { ev.preventDefault(); settle(); } },
    h("h2", {}, t("Settle up")), names,
    h("label", { for: "settle-table" }, `${t("Table")} `), table,
    h("div", { class: "row" },
      h("button", { type: "button", class: "open-session", onclick: () => night("open") }, t("Open the session")),
      h("button", { type: "button", class: "close-session", onclick: () => night("close") }, t("Close the session"))),
    h("label", { for: "settle-session" }, `${t("Session number (empty: the latest, or the whole night when none was opened)")} `), session,
    h("label", { for: "settle-day" }, `${t("Or one day (UTC)")} `), day,
    h("button", { type: "submit" }, t("Settle up")), out);
  return h("div", { class: "settle-panels" }, form, replaysPanel(table, token));
}

/** Who may open a table's replay links: the host's setting, said back in a sentence. */
function replaysPanel(table, token) {
  const choice = h("select", { id: "replays-who" }, REPLAYS.map(([value, words]) => h("option", { value }, words)));
  const said = h("p", { class: "replays-said", "aria-live": "polite" });
  const path = () => `/api/tables/${encodeURIComponent(table.value.trim())}/replays`;
  const send = async (body) => {
    try {
      const r = body ? await api("POST", path(), body, token) : await api("GET", path(), undefined, token);
      choice.value = r.replays;
      said.className = "replays-said";
      said.textContent = r.message;
    } catch (err) { said.className = "replays-said bad"; said.textContent = refusal(err); }
  };
  return h("form", { class: "panel", "aria-label": t("replay links"), onsubmit: (ev) => { ev.preventDefault(); send({ replays: choice.value }); } },
    h("h2", {}, t("Replay links")),
    h("p", { class: "hint" }, t("Who may open the finished hands of the table named under Settle up.")),
    h("label", { for: "replays-who" }, `${t("Open to")} `), choice,
    h("div", { class: "row" }, h("button", { type: "submit" }, t("Save")),
      h("button", { type: "button", class: "small", onclick: () => send(null) }, t("Show the setting"))), said);
}
