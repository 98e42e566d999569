// A certificate (docs/drills.md, "Certificates"): an exam passed, printable (the browser's Print, or Save as
// PDF: the print styles drop the navigation and buttons, black on white, fitting A4 and Letter). It names the
// trainee, the date, the scenario, the scores and times, and the SHA-256 digest of the answer log, kept with the
// report; the server works it out again from the kept report on every reading ("Check again").

import { api } from "./api.js";
import { h } from "./ui.js";
import { reader, refusalSentence, stepName, utcWords, percentWords, secondsWords } from "./trainer.js";

const HOW = { live: "at a live drill table of this server", offline: "rehearsed with hcf drill and sent to this server", practice: "in a practice session" };

export async function certificatePage(root, name, session) {
  const who = reader();
  const note = h("p", { role: "status", "aria-live": "polite", class: "no-print" });
  root.replaceChildren(h("header", { class: "bar trainer-bar no-print" }, h("h1", {}, "Certificate"),
    h("nav", { "aria-label": "pages" }, h("a", { href: `/trainees/${encodeURIComponent(name)}` }, `Drill history of ${name}`))), note);
  if (!who.token) { note.textContent = "Log in on the lobby page (a trainee sees their own certificates) or give the host token on the host console."; return; }
  const load = async () => {
    try { return await api("GET", `/api/trainees/${encodeURIComponent(name)}/certificates/${encodeURIComponent(session) || "0"}`, undefined, who.token); }
    catch (err) { note.textContent = refusalSentence(err); note.classList.add("bad"); note.setAttribute("role", "alert"); return null; }
  };
  const cert = await load();
  if (!cert) return;
  const check = h("p", { class: "check", role: "status", "aria-live": "polite" });
  const showCheck = (c) => {
    check.textContent = c.checked
      ? `Checked against the database at ${utcWords(Date.now() / 1000)}: the digest worked out again from the kept report is the one kept with it.`
      : `This report changed after it was kept: the digest worked out again from the database (${c.recomputed}) is not the one kept with it. This certificate cannot be trusted.`;
    check.classList.toggle("bad", !c.checked);
  };
  showCheck(cert);
  const again = h("button", { type: "button", class: "no-print", onclick: async () => { const c = await load(); if (c) showCheck(c); } }, "Check again against the database");
  const print = h("button", { type: "button", class: "no-print", onclick: () => window.print() }, "Print or save as PDF");
  root.append(h("article", { class: "certificate", "aria-labelledby": "cert-heading" },
    h("h2", { id: "cert-heading" }, "Certificate of a drill exam passed"),
    h("p", { class: "cert-who" }, h("strong", {}, cert.trainee), ` passed the exam ${cert.scenario} on ${utcWords(cert.at)}, ${HOW[cert.source] || cert.source} (session ${cert.session} of their drill history).`),
    h("p", { class: "cert-score" }, scoreWords(cert)),
    stepTable(cert.by_step),
    h("h3", {}, "The answer log"),
    h("p", {}, cert.answers
      ? `The answer log of ${cert.answers} ${cert.answers === 1 ? "answer" : "answers"} (each step, what was said, the right answer) has this SHA-256 digest:`
      : "This report was kept without its answer log (hcf drill sends its figures only); the digest is of an empty log:"),
    h("p", { class: "digest" }, h("code", { "data-digest": cert.digest }, cert.digest)),
    h("p", {}, `To check it later on the server: hcf-server drill verify ${cert.trainee} ${cert.session} --db URL.`),
    check),
  h("div", { class: "row no-print" }, print, again));
}

function scoreWords(cert) {
  const marks = cert.marks || {};
  const needed = (mark) => (mark == null ? "" : `; ${mark}% needed`);
  const within = cert.within_standard == null ? "" : `, ${cert.within_standard} within their standard times (${percentWords(cert.within_percent)}${needed(marks.within)})`;
  return `Score: ${cert.right} of ${cert.total} steps right (${percentWords(cert.right_percent)}${needed(marks.right)})${within}.`;
}

function stepTable(byStep) {
  // each cell names its column too: a phone shows a step kind's figures as a line, without the header row
  const cell = (label, text) => h("td", { "data-label": label }, text);
  const rows = Object.entries(byStep || {}).map(([kind, t]) => h("tr", {},
    h("th", { scope: "row" }, stepName(kind)), cell("right", `${t.right} of ${t.total}`),
    cell("median", secondsWords(t.median_seconds)), cell("worst", secondsWords(t.worst_seconds)),
    cell("standard", t.standard_seconds == null ? "none" : `${t.standard_seconds} s`),
    cell("within it", t.within_standard == null ? "not timed" : `${t.within_standard} of ${t.total}`)));
  return h("div", { class: "table-wrap" }, h("table", { class: "trainer-table cert-table" }, h("caption", {}, "Each step kind: right answers, median and worst times, the standard time and how many steps were within it"),
    h("thead", {}, h("tr", {}, ["Step", "Right", "Median", "Worst", "Standard", "Within it"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows)));
}
