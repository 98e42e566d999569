// A certificate (docs/drills.md, "Certificates"): an exam passed, printable (the browser's Print, or Save as
// PDF: the print styles drop the navigation and buttons, black on white, fitting A4 and Letter). It names the
// trainee, the date, the scenario, the scores and times, and the SHA-256 digest of the answer log, kept with the
// report; the server works it out again from the kept report on every reading ("Check again").

import { api } from "./api.js";
import { h } from "./ui.js";
import { t } from "./i18n.js";
import { reader, refusalSentence, stepName, utcWords, percentWords, secondsWords } from "./trainer.js";

const HOW = { live: t("at a live drill table of this server"), offline: t("rehearsed with hcf drill and sent to this server"), practice: t("in a practice session") };

export async function certificatePage(root, name, session) {
  const who = reader();
  const note = h("p", { role: "status", "aria-live": "polite", class: "no-print" });
  root.replaceChildren(h("header", { class: "bar trainer-bar no-print" }, h("h1", {}, t("Certificate")),
    h("nav", { "aria-label": "pages" }, h("a", { href: `/trainees/${encodeURIComponent(name)}` }, t("Drill history of {name}", { name })))), note);
  if (!who.token) { note.textContent = t("Log in on the lobby page (a trainee sees their own certificates) or give the host token on the host console."); return; }
  const load = async () => {
    try { return await api("GET", `/api/trainees/${encodeURIComponent(name)}/certificates/${encodeURIComponent(session) || "0"}`, undefined, who.token); }
    catch (err) { note.textContent = refusalSentence(err); note.classList.add("bad"); note.setAttribute("role", "alert"); return null; }
  };
  const cert = await load();
  if (!cert) return;
  const check = h("p", { class: "check", role: "status", "aria-live": "polite" });
  const showCheck = (c) => {
    check.textContent = c.checked
      ? t("Checked against the database at {at}: the digest worked out again from the kept report is the one kept with it.", { at: utcWords(Date.now() / 1000) })
      : t("This report changed after it was kept: the digest worked out again from the database ({digest}) is not the one kept with it. This certificate cannot be trusted.", { digest: c.recomputed });
    check.classList.toggle("bad", !c.checked);
  };
  showCheck(cert);
  const again = h("button", { type: "button", class: "no-print", onclick: async () => { const c = await load(); if (c) showCheck(c); } }, t("Check again against the database"));
  const print = h("button", { type: "button", class: "no-print", onclick: () => window.print() }, t("Print or save as PDF"));
  root.append(h("article", { class: "certificate", "aria-labelledby": "cert-heading" },
    h("h2", { id: "cert-heading" }, t("Certificate of a drill exam passed")),
    h("p", { class: "cert-who" }, h("strong", {}, cert.trainee), " ", t("passed the exam {scenario} on {at}, {how} (session {session} of their drill history).", { scenario: cert.scenario, at: utcWords(cert.at), how: HOW[cert.source] || cert.source, session: cert.session })),
    h("p", { class: "cert-score" }, scoreWords(cert)),
    stepTable(cert.by_step),
    h("h3", {}, t("The answer log")),
    h("p", {}, cert.answers === 1 ? t("The answer log of 1 answer (each step, what was said, the right answer) has this SHA-256 digest:")
      : cert.answers ? t("The answer log of {count} answers (each step, what was said, the right answer) has this SHA-256 digest:", { count: cert.answers })
        : t("This report was kept without its answer log (hcf drill sends its figures only); the digest is of an empty log:")),
    h("p", { class: "digest" }, h("code", { "data-digest": cert.digest }, cert.digest)),
    h("p", {}, t("To check it later on the server: {command}.", { command: `hcf-server drill verify ${cert.trainee} ${cert.session} --db URL` })),
    check),
  h("div", { class: "row no-print" }, print, again));
}

function scoreWords(cert) {
  const marks = cert.marks || {};
  const needed = (mark) => (mark == null ? "" : t("; {mark} needed", { mark: percentWords(mark) }));
  const within = cert.within_standard == null ? "" : t(", {count} within their standard times ({percent}{needed})", { count: cert.within_standard, percent: percentWords(cert.within_percent), needed: needed(marks.within) });
  return t("Score: {right} of {total} steps right ({percent}{needed}){within}.", { right: cert.right, total: cert.total, percent: percentWords(cert.right_percent), needed: needed(marks.right), within });
}

function stepTable(byStep) {
  // each cell names its column too: a phone shows a step kind's figures as a line, without the header row
  const cell = (label, text) => h("td", { "data-label": label }, text);
  const rows = Object.entries(byStep || {}).map(([kind, one]) => h("tr", {},
    h("th", { scope: "row" }, stepName(kind)), cell(t("right"), t("{right} of {total}", { right: one.right, total: one.total })),
    cell(t("median"), secondsWords(one.median_seconds)), cell(t("worst"), secondsWords(one.worst_seconds)),
    cell(t("standard"), one.standard_seconds == null ? t("none") : `${one.standard_seconds} s`),
    cell(t("within it"), one.within_standard == null ? t("not timed") : t("{right} of {total}", { right: one.within_standard, total: one.total }))));
  return h("div", { class: "table-wrap" }, h("table", { class: "trainer-table cert-table" }, h("caption", {}, t("Each step kind: right answers, median and worst times, the standard time and how many steps were within it")),
    h("thead", {}, h("tr", {}, [t("Step"), t("Right"), t("Median"), t("Worst"), t("Standard"), t("Within it")].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows)));
}
