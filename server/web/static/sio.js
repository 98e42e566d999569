// A small Socket.IO v5 client (Engine.IO v4), websocket transport only (docs/protocol.md section 1).
//
// Engine.IO packets are one character of type then data: 0 open, 1 close, 2 ping, 3 pong, 4 message.
// A Socket.IO packet rides in a message: 0 connect (with auth), 1 disconnect, 2 event, 3 ack,
// 4 connect error; an event or ack may carry an id ("42" + id + JSON array).
// The server pings: we answer "3". A link that stays silent longer than pingInterval + pingTimeout
// is taken for dead (a cut network may never close the socket) and we reconnect with a growing delay.

import { t } from "./i18n.js";

const DELAYS = [500, 1000, 2000, 4000, 8000];
const CALL_TIMEOUT = 10000;

export class ConnectRefused extends Error {
  constructor(data) {
    super(typeof data?.message === "string" ? data.message : JSON.stringify(data));
    this.data = data;
    const found = /(auth|rate)\/[a-z_]+/.exec(this.message);
    this.code = found ? found[0] : "connect/refused";
  }
}

export class Socket {
  /** url: the page's origin; auth: the object sent with the connect packet (or a function giving it). */
  constructor(url, auth) {
    this.url = url.replace(/^http/, "ws") + "/socket.io/?EIO=4&transport=websocket";
    this.auth = auth;
    this.handlers = new Map();
    this.pending = new Map();
    this.nextId = 1;
    this.ws = null;
    this.connected = false;
    this.closing = false;
    this.attempt = 0;
    this.watchdog = null;
    this.silence = 30000;
    this.retryTimer = null;
    this.connects = 0; // connections made (1 + reconnections): pings answered keep it at 1
    // The browser knows when its network goes and comes back: say so at once, not after the pings' silence (up to
    // 46 s), and come back at once, not after the growing delay.
    globalThis.addEventListener?.("offline", () => { if (this.ws) this.dropLink(); });
    globalThis.addEventListener?.("online", () => {
      if (this.closing || (this.ws && this.ws.readyState === WebSocket.OPEN)) return;
      const trying = this.ws; // a retry still connecting over the old network: this one replaces it
      this.ws = null;
      if (trying) { try { trying.close(); } catch (_) { /* already closed */ } }
      this.attempt = 0;
      this.open();
    });
  }

  /** Listen to a server push ("table_update", ...) or to "connect", "disconnect", "refused". */
  on(name, handler) {
    if (!this.handlers.has(name)) this.handlers.set(name, []);
    this.handlers.get(name).push(handler);
    return this;
  }

  fire(name, ...args) {
    for (const handler of this.handlers.get(name) || []) {
      try { handler(...args); } catch (err) { console.error(err); }
    }
  }

  open() {
    this.closing = false;
    clearTimeout(this.retryTimer);
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onmessage = (msg) => { if (this.ws === ws) this.packet(String(msg.data)); };
    ws.onclose = () => { if (this.ws === ws) this.lost(); };
    ws.onerror = () => {};
  }

  close() {
    this.closing = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.watchdog);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      try { ws.send("41"); ws.close(); } catch (_) { /* already closed */ }
    }
    this.setDown();
  }

  send(text) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
  }

  alive() {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => this.dropLink(), this.silence);
  }

  /** The link is dead without a close (a cut network): drop it and come back. */
  dropLink() {
    const ws = this.ws;
    this.ws = null;
    if (ws) { try { ws.close(); } catch (_) { /* ignore */ } }
    this.lost();
  }

  packet(text) {
    this.alive();
    const kind = text[0];
    if (kind === "0") {
      const open = JSON.parse(text.slice(1));
      this.silence = (open.pingInterval || 25000) + (open.pingTimeout || 20000) + 1000;
      this.alive();
      const auth = typeof this.auth === "function" ? this.auth() : this.auth;
      this.send("40" + JSON.stringify(auth || {}));
    } else if (kind === "2") {
      this.send("3");
    } else if (kind === "1") {
      this.dropLink();
    } else if (kind === "4") {
      this.message(text.slice(1));
    }
  }

  message(text) {
    const kind = text[0];
    let rest = text.slice(1);
    if (rest.startsWith("/")) rest = rest.slice(rest.indexOf(",") + 1); // a namespace other than "/"
    const digits = /^\d*/.exec(rest)[0];
    const id = digits ? Number(digits) : null;
    const body = rest.slice(digits.length);
    const data = body ? JSON.parse(body) : null;
    if (kind === "0") {
      this.connected = true;
      this.connects += 1;
      this.attempt = 0;
      this.fire("connect", data);
    } else if (kind === "4") {
      this.closing = true; // a refusal is final: the same token cannot do better
      this.fire("refused", new ConnectRefused(data));
      this.close();
    } else if (kind === "1") {
      this.dropLink();
    } else if (kind === "2") {
      const [name, ...args] = data;
      this.fire(name, ...args);
    } else if (kind === "3") {
      const waiter = this.pending.get(id);
      if (waiter) {
        this.pending.delete(id);
        waiter.resolve(data[0]);
      }
    }
  }

  setDown() {
    const was = this.connected;
    this.connected = false;
    for (const waiter of this.pending.values()) waiter.reject(new Error(t("the connection dropped")));
    this.pending.clear();
    if (was) this.fire("disconnect");
  }

  lost() {
    clearTimeout(this.watchdog);
    this.setDown();
    if (this.closing) return;
    const base = DELAYS[Math.min(this.attempt, DELAYS.length - 1)];
    this.attempt += 1;
    const delay = base * (0.8 + Math.random() * 0.4); // jitter: not every client at once
    this.fire("retrying", delay);
    this.retryTimer = setTimeout(() => { if (!this.closing) this.open(); }, delay);
  }

  /** Send a request with an acknowledgement; resolves to the server's answer. */
  call(name, payload) {
    return new Promise((resolve, reject) => {
      if (!this.connected) { reject(new Error("not connected")); return; }
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no answer to ${name}`));
      }, CALL_TIMEOUT);
      this.pending.set(id, {
        resolve: (v) => { clearTimeout(timer); resolve(v); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      this.send("42" + id + JSON.stringify([name, payload]));
    });
  }

  /** Send a request as `call` does, sent again (up to three times in all) while the server answers that it is
   * busy (`rate/limited`), after the wait it asks for; resolves to the last answer. */
  async request(name, payload) {
    let reply;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (attempt) await new Promise((r) => setTimeout(r, 1000 * Math.min(5, reply.error.retry_after || 1)));
      reply = await this.call(name, payload);
      if (reply?.ok !== false || reply.error?.code !== "rate/limited") break;
    }
    return reply;
  }

  /** Send an event without acknowledgement. */
  emit(name, payload) {
    this.send("42" + JSON.stringify([name, payload]));
  }
}
