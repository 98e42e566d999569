// The HTTP API (docs/protocol.md section 10) and what the page keeps in localStorage (never in a URL).

export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data;
  try { data = await response.json(); } catch (_) { data = { ok: false, error: { code: "request/internal", message: `HTTP ${response.status}` } }; }
  if (data && data.ok === false) throw new ApiError(data.error?.code, data.error?.message || "refused");
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
