// The host console's table panels (docs/web.md): each table's game, whether it is paused, who sits where
// with what, its settings in words and what changes at the next hand; and the sentence each command's
// answer is said in.

import { api } from "./api.js";
import { h } from "./ui.js";
import { phaseWords, statusWords, settingName } from "./words.js";
import { t } from "./i18n.js";

const GAME_NAMES = { hcf: "High Card Flush", caribbean: "Caribbean Stud", sixcard: "6 Card Poker" };
const SHOWN = ["min_ante", "max_ante", "min_bank", "fee_mode", "fee", "min_buy_in", "max_buy_in", "default_buy_in",
  "offer_seconds", "bet_seconds", "action_seconds", "pause_seconds", "time_bank_seconds", "seats", "spots", "boxes", "jackpot"];

const value = (v) => (v === null || v === undefined ? t("no limit") : typeof v === "boolean" ? (v ? t("yes") : t("no")) : String(v));

/** The sentence for a host command's answer (never the JSON of it). */
export function done(body, r) {
  const table = body.table;
  switch (body.action) {
    case "create_table": return t("Table {table} is open.", { table: r.table?.name || table });
    case "change_settings": return r.pending && Object.keys(r.pending).length
      ? t("The settings of {table} are changed; some take effect from the next hand.", { table })
      : t("The settings of {table} are changed.", { table });
    case "pause": return t("Table {table} is paused: a hand in progress finishes, no new hand starts until you resume.", { table });
    case "resume": return t("Table {table} resumes: the next hand starts when enough players sit.", { table });
    case "declare_dead": return t("Seat {seat}'s hand at {table} is declared dead: its bets and fee go back.", { seat: body.seat, table });
    case "misdeal": return t("Misdeal at {table}: the hand is void and every bet and fee goes back.", { table });
    case "shuffler_fault": return t("Shuffler fault at {table}: the hand is void and every bet and fee goes back.", { table });
    case "remove_player": return t("The player at seat {seat} of {table} stands up after this hand.", { seat: body.seat, table });
    case "close_table": return [t("Table {table} closes: the players' chips go back to their accounts.", { table }), ...(r.settle_up?.lines || [])].join("\n");
    case "arrange_deck": return t("The next deck at {table} is arranged: that hand is not a random deal, and every player is told so.", { table });
    case "inject": return t("The irregularity is injected at {table}.", { table });
    case "drill_report": return reportText(r);
    case "drill_end": return r.right != null
      ? t("The drill at {table} is over: {right} of {total} right.", { table, right: r.right, total: r.total })
      : t("The drill at {table} is over.", { table });
    case "grant_chips": return typeof r.balance === "number"
      ? t("{account} got {amount} chips: the account now holds {balance}.", { account: body.account, amount: body.amount, balance: r.balance })
      : t("{account} got {amount} chips.", { account: body.account, amount: body.amount });
    default: return t("Done.");
  }
}

function reportText(r) {
  const rep = r.report || {};
  const right = rep.right ?? rep.steps?.filter((s) => s.right).length ?? 0;
  const total = rep.total ?? rep.steps?.length ?? 0;
  return t("Drill report: {right} of {total} steps right so far", { right, total })
    + (r.ended ? t("; the drill is over") : "") + (r.waiting ? t("; the table waits for the trainee") : "") + ".";
}

/** A seated person as the console lists them: a dropped connection is not the away switch (the table plays for
 * them), so each is said in its own words. */
export function seatLine(s) {
  return t("seat {seat}: {name}, {stack} chips", { seat: s.seat, name: s.name, stack: s.stack })
    + (s.sitting_out ? t(", sitting out") : "") + (s.away ? t(", away (the table plays for them)") : "")
    + (s.present === false ? t(", not connected") : "");
}

/** One table's panel: its state in words, Pause or Resume, a link to watch it. */
export async function tablePanel(tb, send, redraw, token) {
  // Between hands the lobby's entry says all (its phase is "paused" or "waiting"); during a hand it names the
  // hand's phase, so the table is asked whether it is paused (each host request spends the address's budget).
  let shown = null;
  if (phaseWords(tb.phase) !== tb.phase && !["settled", "void", "not_dealt"].includes(tb.phase)) {
    try { shown = await api("POST", "/api/host", { action: "show_settings", table: tb.name }, token); } catch (_) { /* lobby data only */ }
  }
  const settings = shown?.settings || tb.settings || {};
  const status = shown?.status || tb.phase;
  const paused = status === "paused";
  const seats = (tb.seats || []).map((s) => h("li", {}, seatLine(s)));
  const rows = SHOWN.filter((k) => k in settings).map((k) => h("li", {}, `${settingName(k)}: ${value(settings[k])}`));
  const pending = Object.entries(shown?.pending || {}).map(([k, v]) => h("li", {}, t("{setting} becomes {value} at the next hand", { setting: settingName(k), value: value(v) })));
  const toggle = h("button", { type: "button", "data-table-action": paused ? "resume" : "pause",
    onclick: async () => { if (await send({ action: paused ? "resume" : "pause", table: tb.name })) redraw(); } }, paused ? t("Resume") : t("Pause"));
  const phase = phaseWords(tb.phase) !== tb.phase ? t("hand in progress ({phase})", { phase: phaseWords(tb.phase) }) : statusWords(tb.phase);
  return h("section", { class: "panel table-state", "data-table": tb.name, "aria-label": t("table {table}", { table: tb.name }) },
    h("h2", {}, `${tb.name} \u00b7 ${GAME_NAMES[tb.game] || tb.game}`),
    h("p", { class: paused ? "warn state" : "state" }, paused ? t("Paused: no new hand starts until you resume.") : t("Now: {phase}.", { phase })),
    toggle,
    h("h3", {}, t("Seated")), seats.length ? h("ul", { class: "seated" }, seats) : h("p", {}, t("Nobody sits here yet.")),
    h("details", {}, h("summary", {}, t("Settings")), h("ul", {}, rows), pending.length ? h("ul", { class: "pending" }, pending) : ""),
    changeForm(tb, send), h("p", {}, h("a", { href: `/watch/${tb.name}` }, t("Watch {table}", { table: tb.name }))));
}

function changeForm(tb, send) {
  const id = `set-${tb.name}`;
  const feeMode = tb.game === "hcf" ? h("select", { id: `${id}-fee` }, [["", t("unchanged")], ["all", t("every seat")], ["players", t("players only")], ["designated", t("the DP only")], ["none", t("nobody")]].map(([v, w]) => h("option", { value: v }, w))) : null;
  const more = h("textarea", { id: `${id}-json`, rows: 2 });
  return h("form", { class: "change", "aria-label": t("change settings of {table}", { table: tb.name }), onsubmit: async (ev) => {
    ev.preventDefault();
    let settings = {};
    try { settings = more.value.trim() ? JSON.parse(more.value) : {}; } catch (_) {
      more.setCustomValidity(t("These settings are not written as {example}: check the braces and quotes.", { example: '{"name": value, ...}' }));
      more.reportValidity();
      more.addEventListener("input", () => more.setCustomValidity(""), { once: true });
      return;
    }
    if (feeMode?.value) settings.fee_mode = feeMode.value;
    await send({ action: "change_settings", table: tb.name, settings });
  } }, h("h3", {}, t("Change settings")),
    feeMode ? [h("label", { for: `${id}-fee` }, `${t("Fee paid by")} `), feeMode] : "",
    h("label", { for: `${id}-json` }, `${t("Other changes (e.g. {example})", { example: '{"min_ante": 10}' })} `), more, h("button", { type: "submit" }, t("Change")));
}
