// DOM helpers (no inline styles or scripts: the pages run under a strict CSP) and card rendering.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const SUIT_SIGNS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const RANK_NAMES = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };

export function cardName(card) {
  const rank = RANK_NAMES[card[0]] || card[0];
  return `${rank} of ${SUIT_NAMES[card[1]] || card[1]}`;
}

/** One card face ("Ah") or, with null, a card back. */
export function card(text) {
  if (!text) return h("span", { class: "card back", role: "img", "aria-label": "face-down card" }, "\u{1F0A0}");
  const rank = text[0] === "T" ? "10" : text[0];
  return h("span", { class: `card suit-${text[1]}`, role: "img", "aria-label": cardName(text), "data-card": text },
    rank, SUIT_SIGNS[text[1]] || text[1]);
}

/** Cards named in a line of words ("10♣ Q♣ 5♦"), as the felt draws them, never the codes ("Tc Qc 5d"). */
export function cardsText(list) {
  return (list || []).map((c) => (c[0] === "T" ? "10" : c[0]) + (SUIT_SIGNS[c[1]] || c[1])).join(" ");
}

export function cards(list, backs = 0) {
  const row = h("span", { class: "cards" });
  for (const c of list || []) row.append(card(c));
  for (let i = 0; i < backs; i += 1) row.append(card(null));
  return row;
}

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

let audio = null;

/** A short beep (WebAudio), for "your turn" when the player switched sound on. */
export function beep() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.15);
  } catch (_) { /* no audio here */ }
}
