// The HTTP API (docs/protocol.md section 10) and what the page keeps in localStorage (never in a URL).

// A cycle with i18n.js (which reads the stored language from here) is safe: each uses the other's functions only
// when called, never while the modules load.
import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** One HTTP API call; a refusal throws an ApiError. A busy server (rate/limited) is asked again after the
 * wait it names, up to three times, so that a console that loads several things at once still loads. */
export async function api(method, path, body, token) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await once(method, path, body, token);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== "rate/limited" || attempt >= 3) throw err;
      await new Promise((r) => setTimeout(r, 1000 * Math.min(5, err.retryAfter || 1)));
    }
  }
}

async function once(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data;
  try { data = await response.json(); } catch (_) { data = { ok: false, error: { code: "request/internal", message: t("the server did not answer as expected (HTTP status {status}): try again", { status: response.status }) } }; }
  if (data && data.ok === false) {
    const err = new ApiError(data.error?.code, data.error?.message || t("the server refused that"));
    err.retryAfter = data.error?.retry_after;
    throw err;
  }
  return data;
}

const KEY = "hcf-table";

export function stored() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch (_) { return {}; }
}

export function store(changes) {
  const next = { ...stored(), ...changes };
  localStorage.setItem(KEY, JSON.stringify(next));
  return next;
}
