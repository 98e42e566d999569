// The host console's table panels (docs/web.md): each table's game, whether it is paused, who sits where
// with what, its settings in words and what changes at the next hand; and the sentence each command's
// answer is said in.

import { api } from "./api.js";
import { h } from "./ui.js";
import { phaseWords, statusWords, settingName } from "./words.js";

const GAME_NAMES = { hcf: "High Card Flush", caribbean: "Caribbean Stud", sixcard: "6 Card Poker" };
const SHOWN = ["min_ante", "max_ante", "min_bank", "fee_mode", "fee", "min_buy_in", "max_buy_in", "default_buy_in",
  "offer_seconds", "bet_seconds", "action_seconds", "pause_seconds", "time_bank_seconds", "seats", "spots", "boxes", "jackpot"];

const value = (v) => (v === null || v === undefined ? "no limit" : typeof v === "boolean" ? (v ? "yes" : "no") : String(v));

/** The sentence for a host command's answer (never the JSON of it). */
export function done(body, r) {
  const t = body.table;
  switch (body.action) {
    case "create_table": return `Table ${r.table?.name || t} is open.`;
    case "change_settings": return `The settings of ${t} are changed${r.pending && Object.keys(r.pending).length ? "; some take effect from the next hand" : ""}.`;
    case "pause": return `Table ${t} is paused: a hand in progress finishes, no new hand starts until you resume.`;
    case "resume": return `Table ${t} resumes: the next hand starts when enough players sit.`;
    case "declare_dead": return `Seat ${body.seat}'s hand at ${t} is declared dead: its bets and fee go back.`;
    case "misdeal": return `Misdeal at ${t}: the hand is void and every bet and fee goes back.`;
    case "shuffler_fault": return `Shuffler fault at ${t}: the hand is void and every bet and fee goes back.`;
    case "remove_player": return `The player at seat ${body.seat} of ${t} stands up after this hand.`;
    case "close_table": return [`Table ${t} closes: the players' chips go back to their accounts.`, ...(r.settle_up?.lines || [])].join("\n");
    case "arrange_deck": return `The next deck at ${t} is arranged: that hand is not a random deal, and every player is told so.`;
    case "inject": return `The irregularity is injected at ${t}.`;
    case "drill_report": return reportText(r);
    case "drill_end": return `The drill at ${t} is over${r.right != null ? `: ${r.right} of ${r.total} right` : ""}.`;
    case "grant_chips": return `${body.account} got ${body.amount} chips${typeof r.balance === "number" ? `: the account now holds ${r.balance}` : ""}.`;
    default: return "Done.";
  }
}

function reportText(r) {
  const rep = r.report || {};
  const right = rep.right ?? rep.steps?.filter((s) => s.right).length ?? 0;
  const total = rep.total ?? rep.steps?.length ?? 0;
  return `Drill report: ${right} of ${total} steps right so far${r.ended ? "; the drill is over" : ""}${r.waiting ? "; the table waits for the trainee" : ""}.`;
}

/** A seated person as the console lists them: a dropped connection is not the away switch (the table plays for
 * them), so each is said in its own words. */
export function seatLine(s) {
  const notes = [s.sitting_out && "sitting out", s.away && "away (the table plays for them)", s.present === false && "not connected"];
  return [`seat ${s.seat}: ${s.name}, ${s.stack} chips`, ...notes.filter(Boolean)].join(", ");
}

/** One table's panel: its state in words, Pause or Resume, a link to watch it. */
export async function tablePanel(t, send, redraw, token) {
  // Between hands the lobby's entry says all (its phase is "paused" or "waiting"); during a hand it names the
  // hand's phase, so the table is asked whether it is paused (each host request spends the address's budget).
  let shown = null;
  if (phaseWords(t.phase) !== t.phase && !["settled", "void", "not_dealt"].includes(t.phase)) {
    try { shown = await api("POST", "/api/host", { action: "show_settings", table: t.name }, token); } catch (_) { /* lobby data only */ }
  }
  const settings = shown?.settings || t.settings || {};
  const status = shown?.status || t.phase;
  const paused = status === "paused";
  const seats = (t.seats || []).map((s) => h("li", {}, seatLine(s)));
  const rows = SHOWN.filter((k) => k in settings).map((k) => h("li", {}, `${settingName(k)}: ${value(settings[k])}`));
  const pending = Object.entries(shown?.pending || {}).map(([k, v]) => h("li", {}, `${settingName(k)} becomes ${value(v)} at the next hand`));
  const toggle = h("button", { type: "button", "data-table-action": paused ? "resume" : "pause",
    onclick: async () => { if (await send({ action: paused ? "resume" : "pause", table: t.name })) redraw(); } }, paused ? "Resume" : "Pause");
  const phase = phaseWords(t.phase) !== t.phase ? `hand in progress (${phaseWords(t.phase)})` : statusWords(t.phase);
  return h("section", { class: "panel table-state", "data-table": t.name, "aria-label": `table ${t.name}` },
    h("h2", {}, `${t.name} \u00b7 ${GAME_NAMES[t.game] || t.game}`),
    h("p", { class: paused ? "warn state" : "state" }, paused ? "Paused: no new hand starts until you resume." : `Now: ${phase}.`),
    toggle,
    h("h3", {}, "Seated"), seats.length ? h("ul", { class: "seated" }, seats) : h("p", {}, "Nobody sits here yet."),
    h("details", {}, h("summary", {}, "Settings"), h("ul", {}, rows), pending.length ? h("ul", { class: "pending" }, pending) : ""),
    changeForm(t, send), h("p", {}, h("a", { href: `/watch/${t.name}` }, `Watch ${t.name}`)));
}

function changeForm(t, send) {
  const id = `set-${t.name}`;
  const feeMode = t.game === "hcf" ? h("select", { id: `${id}-fee` }, [["", "unchanged"], ["all", "every seat"], ["players", "players only"], ["designated", "the DP only"], ["none", "nobody"]].map(([v, w]) => h("option", { value: v }, w))) : null;
  const more = h("textarea", { id: `${id}-json`, rows: 2 });
  return h("form", { class: "change", "aria-label": `change settings of ${t.name}`, onsubmit: async (ev) => {
    ev.preventDefault();
    let settings = {};
    try { settings = more.value.trim() ? JSON.parse(more.value) : {}; } catch (_) {
      more.setCustomValidity("These settings are not written as {\"name\": value, ...}: check the braces and quotes.");
      more.reportValidity();
      more.addEventListener("input", () => more.setCustomValidity(""), { once: true });
      return;
    }
    if (feeMode?.value) settings.fee_mode = feeMode.value;
    await send({ action: "change_settings", table: t.name, settings });
  } }, h("h3", {}, "Change settings"),
    feeMode ? [h("label", { for: `${id}-fee` }, "Fee paid by "), feeMode] : "",
    h("label", { for: `${id}-json` }, "Other changes (e.g. {\"min_ante\": 10}) "), more, h("button", { type: "submit" }, "Change"));
}
