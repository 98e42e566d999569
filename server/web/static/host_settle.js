// The host console's settle-up (docs/web.md, "Settle-up"): each person's net for the session and who pays
// whom, in sentences (GET /api/tables/{name}/settle-up with the host token). A closed table's night can be
// settled too: type its name.

import { api } from "./api.js";
import { h } from "./ui.js";
import { refusal } from "./words.js";

export function settlePanel(tables, token) {
  const names = h("datalist", { id: "settle-tables" }, tables.map((t) => h("option", { value: t.name })));
  const table = h("input", { id: "settle-table", list: "settle-tables", required: true, maxlength: 32, value: tables[0]?.name || "" });
  const day = h("input", { id: "settle-day", type: "date" });
  const out = h("ul", { class: "settle-lines", "aria-live": "polite" });
  const form = h("form", { class: "panel", "aria-label": "settle up", onsubmit: async (ev) => {
    ev.preventDefault();
    const query = day.value ? `?day=${encodeURIComponent(day.value)}` : "";
    try {
      const r = await api("GET", `/api/tables/${encodeURIComponent(table.value.trim())}/settle-up${query}`, undefined, token);
      out.replaceChildren(...r.lines.map((line, i) => h("li", { class: i === 0 ? "heading" : line.includes(" pays ") ? "pays" : "" }, line)));
    } catch (err) { out.replaceChildren(h("li", { class: "bad" }, refusal(err))); }
  } }, h("h2", {}, "Settle up"), names,
    h("label", { for: "settle-table" }, "Table "), table,
    h("label", { for: "settle-day" }, "One day (UTC; empty: the whole night since the table opened) "), day,
    h("button", { type: "submit" }, "Settle up"), out);
  return form;
}
