// The server: JSON over HTTP, and one WebSocket per table with reconnection.

/** A hex string of fresh randomness for the deal (each seat adds some). */
export function entropy(bytes = 16) {
  const data = new Uint8Array(bytes);
  window.crypto.getRandomValues(data);
  return Array.from(data, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A unique id for an action, so a repeat after a reconnect is answered, not applied. */
export function actionId() {
  if (window.crypto.randomUUID) return window.crypto.randomUUID();
  return entropy(16);
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, { body, credentials } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (credentials && credentials.length) headers.Authorization = `Seat ${credentials.join(" ")}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "network", "The table cannot be reached. Check your connection.");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(
      response.status,
      data?.error || `http_${response.status}`,
      data?.message || `The server answered ${response.status}.`,
    );
  }
  return data;
}

export const api = {
  create: (spec) => call("POST", "/api/rooms", { body: { entropy: entropy(), ...spec } }),
  variants: () => call("GET", document.querySelector('meta[name="eights-catalogue"]')?.content || "/api/variants"),
  lobby: (token) => call("GET", `/api/rooms/${encodeURIComponent(token)}`),
  /** The open tables: public tables waiting for players and games to watch. */
  openTables: () => call("GET", "/api/lobby"),
  join: (token, name) =>
    call("POST", `/api/rooms/${encodeURIComponent(token)}/join`, {
      body: { entropy: entropy(), name },
    }),
  state: (token, credentials) =>
    call("GET", `/api/rooms/${encodeURIComponent(token)}/state`, { credentials }),
  record: (token, credentials) =>
    call("GET", `/api/rooms/${encodeURIComponent(token)}/record`, { credentials }),
  verify: (record) => call("POST", "/api/verify", { body: record }),
  rename: (token, credentials, name) =>
    call("POST", `/api/rooms/${encodeURIComponent(token)}/rename`, { body: { name }, credentials }),
  rematch: (token, credentials) =>
    call("POST", `/api/rooms/${encodeURIComponent(token)}/rematch`, {
      body: { entropy: entropy() },
      credentials,
    }),
  resetSeat: (token, credentials, seat) =>
    call("POST", `/api/rooms/${encodeURIComponent(token)}/seats/${seat}/reset`, {
      body: {},
      credentials,
    }),
};

const CLOSE_UNAUTHORISED = 4401;
const CLOSE_FORBIDDEN = 4403;
const FATAL = new Set(["bad_credential", "room_expired", "room_not_found", "no_spectators"]);

/**
 * The state a patch makes of the state this socket last carried for its seat
 * (docs/protocol.md, "Patches"); null when it was not made for that state.
 */
export function applyPatch(state, patch) {
  if (!state || !state.view || state.version !== patch.base) return null;
  const view = { ...state.view, ...patch.view };
  if (patch.log) {
    const kept = state.view.log || [];
    if (patch.log.from > kept.length) return null;
    view.log = kept.slice(0, patch.log.from).concat(patch.log.events);
  }
  const room = { ...state.room, ...patch.room };
  return { type: "state", version: patch.version, seat: patch.seat, now: patch.now, room, view };
}

const PING_MS = 4000;
/** While open, the socket is pinged this often when it has heard nothing meanwhile. */
const SILENT_MS = 10000;
/** Heard nothing for this long (a network gone without a close): the connection is dead. */

/**
 * One table's socket. Calls `handlers.message(msg)` for every message and
 * `handlers.status(s)` with "connecting" | "open" | "closed" | "offline" | "fatal".
 * Reconnects with backoff until closed by `close()` or refused for good (a bad
 * credential). A network that goes away without closing the socket is noticed: the
 * browser's "offline" at once, a silent connection (no answer to pings) within SILENT_MS.
 * A player's socket asks for patches; each becomes the whole state it makes before the
 * table sees it. A watcher's (`watch: true`) sends no credentials and gets whole states
 * of the public table only; "no_spectators" (close 4403) ends it for good.
 */
export class TableSocket {
  constructor(token, credentials, handlers, { watch = false, hello = () => ({}) } = {}) {
    this.token = token;
    this.helloExtra = hello;
    this.credentials = credentials;
    this.handlers = handlers;
    this.watch = watch;
    this.tries = 0;
    this.stopped = false;
    this.fatal = null;
    this.ws = null;
    this.timer = null;
    this.early = [];
    this.onVisible = () => {
      if (document.visibilityState === "visible" && !this.isOpen() && !this.stopped) {
        this.reconnectNow();
      }
    };
    this.onOffline = () => this.drop("offline");
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onVisible);
    window.addEventListener("offline", this.onOffline);
    this.heard = Date.now();
    this.pinger = window.setInterval(() => this.checkAlive(), PING_MS / 2);
    this.connect();
  }

  /** Ping a quiet open socket; drop one that stayed silent too long. */
  checkAlive() {
    if (!this.isOpen()) return;
    const quiet = Date.now() - this.heard;
    if (quiet > SILENT_MS) this.drop("closed");
    else if (quiet > PING_MS) this.ws.send(JSON.stringify({ type: "ping" }));
  }

  /** Give up on the connection now (it cannot be trusted) and connect again. */
  drop(status) {
    if (this.stopped) return;
    const ws = this.ws;
    this.ws = null;
    this.welcomed = false;
    if (ws) {
      try { ws.close(4000, "reconnecting"); } catch { /* already closing */ }
    }
    this.handlers.status?.(status);
    this.retry();
  }

  isOpen() {
    return this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed;
  }

  connect() {
    if (this.stopped) return;
    this.welcomed = false;
    if (navigator.onLine === false) {
      // This device has no network: nothing to try until it is back ("online" connects at
      // once), and the player is told so rather than "Reconnecting…".
      this.handlers.status?.("offline");
      this.retry();
      return;
    }
    this.handlers.status?.("connecting");
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${window.location.host}/ws/${encodeURIComponent(this.token)}`;
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    const wire = {}; // seat -> the last state this connection carried, for its patches
    ws.addEventListener("open", () => {
      const hello = this.watch
        ? { type: "hello", watch: true }
        : { type: "hello", credentials: this.credentials, patches: true, ...this.helloExtra() };
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return; // a connection given up on
      this.heard = Date.now();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.welcomed = true;
        this.heard = Date.now();
        this.tries = 0;
        this.handlers.status?.("open");
        // What the page sent before the first welcome goes now, in order.
        const early = this.early;
        this.early = null;
        for (const m of early || []) ws.send(JSON.stringify(m));
      }
      if (msg.type === "error" && !msg.id && FATAL.has(msg.error)) this.fatal = msg;
      if (msg.type === "state") wire[msg.seat] = msg;
      if (msg.type === "patch") {
        const made = applyPatch(wire[msg.seat], msg);
        if (!made) {
          // Not the state it was made for: ask for whole states again.
          ws.send(JSON.stringify({ type: "sync" }));
          return;
        }
        wire[msg.seat] = made;
        msg = made;
      }
      this.handlers.message?.(msg);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcomed = false;
      if (this.stopped) return;
      if (event.code === CLOSE_UNAUTHORISED || event.code === CLOSE_FORBIDDEN || this.fatal) {
        this.stopped = true;
        const why = event.code === CLOSE_FORBIDDEN ? "no_spectators" : "bad_credential";
        this.handlers.status?.("fatal", this.fatal || { error: why });
        return;
      }
      this.handlers.status?.(navigator.onLine === false ? "offline" : "closed");
      this.retry();
    });
  }

  retry() {
    if (this.stopped) return;
    const base = Math.min(15000, 500 * 2 ** this.tries);
    const wait = base / 2 + Math.random() * (base / 2);
    this.tries += 1;
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.connect(), wait);
  }

  reconnectNow() {
    window.clearTimeout(this.timer);
    if (this.ws) return;
    this.tries = 0;
    this.connect();
  }

  /** Send a message; false when the socket is not open (the caller tells the player).
   * Before the first welcome a message is kept and sent with it. */
  send(message) {
    if (this.early && !this.stopped) {
      // The page is drawn from the create or join answer before the socket's first
      // welcome: a tap then is kept for it rather than lost.
      this.early.push(message);
      return true;
    }
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.welcomed) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.stopped = true;
    window.clearTimeout(this.timer);
    window.clearInterval(this.pinger);
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onVisible);
    window.removeEventListener("offline", this.onOffline);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000, "leaving");
    }
  }
}
