// The lobby, the invite's join page and the account box (docs/web.md).

import { api, stored, store } from "./api.js";
import { h } from "./ui.js";

const GAME_NAMES = { hcf: "High Card Flush", caribbean: "Caribbean Stud", sixcard: "6 Card Poker" };

function message(el, text, bad = false) {
  el.textContent = text;
  el.classList.toggle("bad", bad);
}

export async function lobby(root) {
  const list = h("tbody");
  const note = h("p", { role: "status", "aria-live": "polite" });
  root.replaceChildren(h("header", { class: "bar" }, h("h1", {}, "hcf-table"), h("nav", {}, h("a", { href: "/host" }, "Host console"))),
    accountBox(),
    h("h2", {}, "Tables"), note,
    h("table", { class: "lobby" }, h("thead", {}, h("tr", {}, ["Table", "Game", "Stakes", "Seats", "Phase", ""].map((t) => h("th", { scope: "col" }, t)))), list));
  try {
    const { tables } = await api("GET", "/api/tables");
    for (const t of tables) {
      const s = t.settings || {};
      list.append(h("tr", { "data-table": t.name },
        h("td", {}, t.name), h("td", {}, GAME_NAMES[t.game] || t.game), h("td", {}, `Ante ${s.min_ante}\u2013${s.max_ante ?? "no limit"}`),
        h("td", {}, `${(t.seats || []).length} of ${s.seats ?? "?"}`), h("td", {}, t.phase),
        h("td", {}, h("a", { href: `/table/${t.name}` }, "Play"), " ", h("a", { href: `/watch/${t.name}` }, "Watch"), " ",
          h("a", { href: `/history/${t.name}` }, "History"))));
    }
    if (!tables.length) message(note, "no table is open");
  } catch (err) {
    message(note, `the lobby could not be loaded: ${err.message}`, true);
  }
}

function accountBox() {
  const saved = stored();
  const out = h("p", { role: "status", "aria-live": "polite" });
  if (saved.token) {
    const pass = h("input", { type: "password", id: "newpass", autocomplete: "new-password", minlength: 8 });
    return h("section", { class: "account", "aria-label": "your account" },
      h("p", {}, `Playing as ${saved.name || "you"}.`),
      h("form", { class: "inline", onsubmit: async (ev) => {
        ev.preventDefault();
        try { await api("POST", "/api/password", { new: pass.value }, saved.token); message(out, "password saved: log in with it from another device"); }
        catch (err) { message(out, `${err.code}: ${err.message}`, true); }
      } }, h("label", { for: "newpass" }, "Add a password "), pass, h("button", { type: "submit" }, "Save")),
      h("button", { type: "button", onclick: () => { store({ token: null, name: null }); location.reload(); } }, "Log out on this device"), out);
  }
  const name = h("input", { id: "login-name", autocomplete: "username", required: true });
  const pass = h("input", { id: "login-pass", type: "password", autocomplete: "current-password", required: true });
  const go = (path) => async (ev) => {
    ev.preventDefault();
    try {
      const r = await api("POST", path, { name: name.value, password: pass.value });
      store({ token: r.token, name: r.name });
      location.reload();
    } catch (err) { message(out, `${err.code}: ${err.message}`, true); }
  };
  return h("section", { class: "account", "aria-label": "log in" },
    h("form", { class: "inline", onsubmit: go("/api/login") },
      h("label", { for: "login-name" }, "Name "), name, h("label", { for: "login-pass" }, " Password "), pass,
      h("button", { type: "submit" }, "Log in"), h("button", { type: "button", onclick: go("/api/register") }, "Register")), out);
}

const ROUTES = { player: (t) => `/table/${t}`, spectator: (t) => `/watch/${t}`, floor: () => "/host" };

/** The invite link: read the token from the fragment, drop it from the URL at once, ask for a name. */
export function join(root, navigate) {
  const token = location.hash.slice(1);
  history.replaceState(null, "", "/join"); // no token stays in the URL (or in the history)
  const name = h("input", { id: "join-name", autocomplete: "nickname", required: true, maxlength: 24 });
  const out = h("p", { role: "status", "aria-live": "polite" });
  const form = h("form", { class: "join", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      const r = await api("POST", "/api/invites/redeem", { token, name: name.value.trim() });
      const keep = { name: r.name };
      if (r.token) keep.token = r.token;
      if (r.host_token) keep.host_token = r.host_token;
      store(keep);
      const path = (ROUTES[r.role] || ROUTES.player)(r.table);
      history.replaceState(null, "", path);
      navigate();
    } catch (err) { message(out, `${err.code}: ${err.message}`, true); }
  } }, h("label", { for: "join-name" }, "Your name at the table "), name, h("button", { type: "submit" }, "Join"));
  root.replaceChildren(h("h1", {}, "You are invited"), token ? form : h("p", { class: "bad" }, "This link has no invite in it: ask the host for a new one."), out);
  name.focus();
}
