// The page's words in English, Spanish or German (docs/i18n.md). English is the message id: t("Sit") says
// "Sit", "Sentarse" or "Hinsetzen"; {name} fields are filled from params. The language is the one chosen in
// the header's switch (kept in localStorage), else the browser's first language we speak, else English.

import { stored, store } from "./api.js";

export const LANGUAGES = { en: "English", es: "Español", de: "Deutsch" };
let words = {};
let chosen = "en";

/** The language to use: the one saved by the switch, else the first of the browser's that we speak. */
export function chooseLanguage(saved = stored().lang, asked = navigator.languages || [navigator.language]) {
  for (const tag of [saved, ...asked]) {
    const code = String(tag || "").toLowerCase().split(/[-_]/)[0];
    if (code in LANGUAGES) return code;
  }
  return "en";
}

/** The page's language now (sent to the server with the connection, so its refusals come back in it). */
export const language = () => chosen;

/** Load the words of the chosen language; English needs none (its ids are its words). */
export async function loadLanguage(lang = chooseLanguage()) {
  chosen = lang;
  document.documentElement.lang = lang;
  if (lang === "en") return;
  try {
    const response = await fetch(`/static/i18n/${lang}.json`);
    words = await response.json();
  } catch (_) {
    words = {}; // the page still works, in English
  }
}

/** One sentence in the page's language, with its {fields} filled in. */
export function t(id, params = {}) {
  const text = words[id] || id;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A sentence the server shared in an update (docs/i18n.md), said in the page's language from its spec:
 * {id, args} (an argument may be a spec too) or {join, sep}; plain text as it came. */
export function sayAgain(spec) {
  if (spec === null || spec === undefined) return "";
  if (typeof spec !== "object") return String(spec);
  if (Array.isArray(spec.join)) return spec.join.map(sayAgain).join(spec.sep ?? ", ");
  const args = {};
  for (const [name, value] of Object.entries(spec.args || {})) args[name] = sayAgain(value);
  return t(String(spec.id), args);
}

/** A record's shared sentence ``field`` (or list of sentences) in the page's language: its ``say`` spec when
 * the server sent one, else its English text. */
export function said(record, field) {
  const text = record?.[field];
  const spec = record?.say?.[field];
  if (spec === undefined || spec === null) return text;
  if (Array.isArray(text)) return text.map((line, i) => (Array.isArray(spec) && spec[i] ? sayAgain(spec[i]) : line));
  return sayAgain(spec);
}

/** The header's language switch: the choice is remembered and the page opens again in it. */
export function languageSwitch() {
  const select = document.createElement("select");
  select.id = "language";
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, code, false, code === chosen);
    option.lang = code;
    select.append(option);
  }
  select.addEventListener("change", () => { store({ lang: select.value }); location.reload(); });
  return select;
}
