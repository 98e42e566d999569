// The host console's invites (docs/web.md): make a link (with a Copy button), list the links of the tables
// this token runs, revoke one. GET/POST /api/invites, DELETE /api/invites/{id}.

import { api } from "./api.js";
import { h } from "./ui.js";
import { ownLimits } from "./limits.js";
import { refusal } from "./words.js";
import { t } from "./i18n.js";

const ROLES = [["player", t("a player")], ["spectator", t("a spectator (watches, no name asked)")], ["floor", t("the floor (runs this table only)")]];
const LINK_OF = { player: t("player link"), spectator: t("spectator link"), floor: t("floor link") };

async function copy(input, say) {
  input.select();
  try {
    if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(input.value);
    else if (!document.execCommand("copy")) throw new Error("no copy");
    say(t("The link is copied: paste it to your friends."));
  } catch (_) {
    say(t("The link is selected: copy it with Ctrl+C (or a long press on a phone)."));
  }
}

let known = null; // the links last listed: a redraw of the console shows them without asking again

const when = (iso) => (iso ? new Date(iso).toLocaleString(document.documentElement.lang || undefined) : t("never"));

function inviteRow(invite, token, say, refresh) {
  const left = invite.uses == null ? t("used {used} times", { used: invite.used }) : t("used {used} of {uses}", { used: invite.used, uses: invite.uses });
  const state = invite.revoked ? t("revoked") : new Date(invite.expires_at) < new Date() ? t("expired") : t("until {when}", { when: when(invite.expires_at) });
  const revoke = invite.revoked ? "" : h("button", { type: "button", class: "small", "data-invite": invite.id,
    "aria-label": t("revoke the {link} to {table} made {when}", { link: LINK_OF[invite.role] || invite.role, table: invite.table, when: when(invite.created_at) }),
    onclick: async () => {
      try {
        await api("DELETE", `/api/invites/${invite.id}`, undefined, token);
        say(t("The {link} to {table} is revoked: it opens nothing any more.", { link: LINK_OF[invite.role] || invite.role, table: invite.table }), false, "revoke");
        refresh();
      } catch (err) { say(refusal(err), true, "revoke"); }
    } }, t("Revoke"));
  return h("li", { class: invite.revoked ? "revoked" : "" },
    `${t("{link} to {table}, made {when}, {left}, {state}", { link: LINK_OF[invite.role] || invite.role, table: invite.table, when: when(invite.created_at), left, state })} `, revoke);
}

/** The invites panel for ``tables`` (the ones this token runs). */
export function invitesPanel(tables, token, say) {
  const table = h("select", { id: "invite-table" }, tables.map((t) => h("option", { value: t.name }, t.name)));
  const role = h("select", { id: "invite-role" }, ROLES.map(([v, w]) => h("option", { value: v }, w)));
  const expires = ownLimits(h("input", { id: "invite-expires", type: "number", min: 1, value: 12 }));
  const uses = ownLimits(h("input", { id: "invite-uses", type: "number", min: 1, value: 10 }));
  const link = h("input", { id: "invite-url", class: "invite-url", readonly: true, "aria-label": t("the new link"), value: "" });
  const copyButton = h("button", { type: "button", id: "invite-copy", disabled: true, onclick: () => copy(link, say) }, t("Copy"));
  const list = h("ul", { class: "invites", "aria-label": t("links made") });
  const show = () => {
    const mine = new Set(tables.map((t) => t.name.toLowerCase()));
    const rows = known.filter((i) => mine.has(i.table.toLowerCase())).sort((a, b) => b.id - a.id); // newest first
    list.replaceChildren(...(rows.length ? rows.map((i) => inviteRow(i, token, say, refresh)) : [h("li", {}, t("No link made yet."))]));
  };
  const refresh = async () => {
    try {
      known = (await api("GET", "/api/invites", undefined, token)).invites;
      show();
    } catch (err) { list.replaceChildren(h("li", { class: "bad" }, refusal(err))); }
  };
  if (known) show(); else refresh();
  return h("form", { class: "panel", "aria-label": t("invites"), onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      const r = await api("POST", "/api/invites", { table: table.value, role: role.value,
        expires_seconds: Number(expires.value) * 3600, uses: Number(uses.value) }, token);
      link.value = r.url;
      copyButton.disabled = false;
      say(t("The link is made: copy it and send it to your friends."), false, "invite");
      refresh();
    } catch (err) { say(refusal(err), true, "invite"); }
  } }, h("h2", {}, t("Invite")), h("label", { for: "invite-table" }, `${t("Table")} `), table,
    h("label", { for: "invite-role" }, `${t("For")} `), role, h("label", { for: "invite-expires" }, `${t("Lasts (hours)")} `), expires,
    h("label", { for: "invite-uses" }, `${t("Uses")} `), uses, h("button", { type: "submit" }, t("Make a link")),
    h("div", { class: "row" }, link, copyButton), h("h3", {}, t("Links made")), list);
}
