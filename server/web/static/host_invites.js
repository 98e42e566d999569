// The host console's invites (docs/web.md): make a link (with a Copy button), list the links of the tables
// this token runs, revoke one. GET/POST /api/invites, DELETE /api/invites/{id}.

import { api } from "./api.js";
import { h } from "./ui.js";
import { refusal } from "./words.js";

const ROLES = [["player", "a player"], ["spectator", "a spectator (watches, no name asked)"], ["floor", "the floor (runs this table only)"]];
const ROLE_WORDS = { player: "player", spectator: "spectator", floor: "floor" };

async function copy(input, say) {
  input.select();
  try {
    if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(input.value);
    else if (!document.execCommand("copy")) throw new Error("no copy");
    say("The link is copied: paste it to your friends.");
  } catch (_) {
    say("The link is selected: copy it with Ctrl+C (or a long press on a phone).");
  }
}

let known = null; // the links last listed: a redraw of the console shows them without asking again

const when = (iso) => (iso ? new Date(iso).toLocaleString() : "never");

function inviteRow(invite, token, say, refresh) {
  const left = invite.uses == null ? `used ${invite.used} times` : `used ${invite.used} of ${invite.uses}`;
  const state = invite.revoked ? "revoked" : new Date(invite.expires_at) < new Date() ? "expired" : `until ${when(invite.expires_at)}`;
  const revoke = invite.revoked ? "" : h("button", { type: "button", class: "small", "data-invite": invite.id,
    "aria-label": `revoke the ${ROLE_WORDS[invite.role] || invite.role} link to ${invite.table} made ${when(invite.created_at)}`,
    onclick: async () => {
      try {
        await api("DELETE", `/api/invites/${invite.id}`, undefined, token);
        say(`The ${ROLE_WORDS[invite.role] || invite.role} link to ${invite.table} is revoked: it opens nothing any more.`, false, "revoke");
        refresh();
      } catch (err) { say(refusal(err), true, "revoke"); }
    } }, "Revoke");
  return h("li", { class: invite.revoked ? "revoked" : "" },
    `${ROLE_WORDS[invite.role] || invite.role} link to ${invite.table}, made ${when(invite.created_at)}, ${left}, ${state} `, revoke);
}

/** The invites panel for ``tables`` (the ones this token runs). */
export function invitesPanel(tables, token, say) {
  const table = h("select", { id: "invite-table" }, tables.map((t) => h("option", { value: t.name }, t.name)));
  const role = h("select", { id: "invite-role" }, ROLES.map(([v, w]) => h("option", { value: v }, w)));
  const expires = h("input", { id: "invite-expires", type: "number", min: 1, value: 12 });
  const uses = h("input", { id: "invite-uses", type: "number", min: 1, value: 10 });
  const link = h("input", { id: "invite-url", class: "invite-url", readonly: true, "aria-label": "the new link", value: "" });
  const copyButton = h("button", { type: "button", id: "invite-copy", disabled: true, onclick: () => copy(link, say) }, "Copy");
  const list = h("ul", { class: "invites", "aria-label": "links made" });
  const show = () => {
    const mine = new Set(tables.map((t) => t.name.toLowerCase()));
    const rows = known.filter((i) => mine.has(i.table.toLowerCase())).sort((a, b) => b.id - a.id); // newest first
    list.replaceChildren(...(rows.length ? rows.map((i) => inviteRow(i, token, say, refresh)) : [h("li", {}, "No link made yet.")]));
  };
  const refresh = async () => {
    try {
      known = (await api("GET", "/api/invites", undefined, token)).invites;
      show();
    } catch (err) { list.replaceChildren(h("li", { class: "bad" }, refusal(err))); }
  };
  if (known) show(); else refresh();
  return h("form", { class: "panel", "aria-label": "invites", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      const r = await api("POST", "/api/invites", { table: table.value, role: role.value,
        expires_seconds: Number(expires.value) * 3600, uses: Number(uses.value) }, token);
      link.value = r.url;
      copyButton.disabled = false;
      say("The link is made: copy it and send it to your friends.", false, "invite");
      refresh();
    } catch (err) { say(refusal(err), true, "invite"); }
  } }, h("h2", {}, "Invite"), h("label", { for: "invite-table" }, "Table "), table,
    h("label", { for: "invite-role" }, "For "), role, h("label", { for: "invite-expires" }, "Lasts (hours) "), expires,
    h("label", { for: "invite-uses" }, "Uses "), uses, h("button", { type: "submit" }, "Make a link"),
    h("div", { class: "row" }, link, copyButton), h("h3", {}, "Links made"), list);
}
