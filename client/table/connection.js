// The session's socket: its status (connecting, open, away, refused), the messages it
// brings (states, results, hints, reactions, errors), a move kept while the connection is
// away and sent again on it, the Menu's requests and their answers, and each seat's state
// taken in (the newest one decides what the table shows).
import { actionId } from "../api.js";
import { fill, h } from "../dom.js";
import { roomChanges, seatNames } from "../narrate.js";
import { gonePage, lostSeatPage } from "../pages.js";
import { sound } from "../sound.js";
import { forgetTable } from "../storage.js";

/** How long a move sent waits for its answer while the connection is open. */
export const PENDING_MS = 8000;

/** The socket and the seats' states, mixed into TableSession (session.js). */
export const connection = {
  status(status, detail) {
    // A socket that was open once and connects again is "reconnecting" to the player.
    if (status === "open") this.wasOpen = true;
    this.connection = status === "connecting" && this.wasOpen ? "reconnecting" : status;
    // The device itself has no network: that is what the player is told, whatever the
    // socket is trying meanwhile (seats.js shows the others' presence as unknown).
    if (status !== "open" && status !== "fatal" && navigator.onLine === false) this.connection = "offline";
    if (status === "open" && this.pending?.message) {
      // A move made while the connection was away (or lost with it) goes again, under its
      // own id: the server applies it once, or answers that it has already.
      this.pending.delayed = true;
      this.socket.send(this.pending.message);
      this.armPending();
    }
    if (status === "fatal") {
      const code = detail?.error || "bad_credential";
      if (this.leaving && code === "bad_credential") {
        // The seat is the computer's now: the server closes this device's socket.
        this.leftTable();
        return;
      }
      if (code === "room_expired" || code === "room_not_found") {
        forgetTable(this.token);
        this.destroy();
        fill(this.container, gonePage());
        return;
      }
      const mine = this.room?.seats?.[this.held[0]];
      if (code === "bad_credential" && mine?.left) {
        // Left from another device of theirs: this one forgets the seat too.
        forgetTable(this.token);
        this.destroy();
        fill(this.container, lostSeatPage(this.token, "You left this table from another device; the computer plays your seat now."));
        return;
      }
      this.destroy();
      fill(this.container, lostSeatPage(this.token, detail?.message));
      return;
    }
    this.scheduleRender();
  },

  message(msg) {
    switch (msg.type) {
      case "welcome":
        if (Array.isArray(msg.seats) && msg.seats.length) this.held = msg.seats;
        break;
      case "state":
        this.takeState(msg);
        break;
      case "result":
        if (msg.id && this.asked.has(msg.id)) {
          const asked = this.asked.get(msg.id);
          this.asked.delete(msg.id);
          asked.done(msg);
          break;
        }
        if (this.pending && msg.id === this.pending.id) {
          if (this.pending.delayed) this.say("Your move went through.");
          this.pending.message = null; // answered: never sent again
          // Stay pending until the state it made arrives, so the old one is not offered again.
          if (typeof msg.version === "number" && msg.version > this.version) this.pending.version = msg.version - 1;
          else this.clearPending();
        }
        break;
      case "hint":
        this.showHint(msg);
        break;
      case "reaction":
        this.reaction(msg);
        break;
      case "error":
        this.error(msg);
        break;
      default:
        break;
    }
  },

  error(msg) {
    if (msg.id && this.asked.has(msg.id)) {
      const asked = this.asked.get(msg.id);
      this.asked.delete(msg.id);
      asked.failed(msg);
      return;
    }
    const aboutHint = this.hintId && (msg.id === this.hintId || (!msg.id && msg.error === "bad_request"));
    if (aboutHint) {
      this.hintId = null;
      this.say("Hints are not available at this table yet.");
      return;
    }
    const delayed = Boolean(this.pending?.delayed) && msg.id === this.pending.id;
    if (this.pending && (!msg.id || msg.id === this.pending.id)) this.clearPending();
    if (msg.error === "stale_version") {
      this.say(delayed
        ? "Your move could not be made: the table moved on while you were away. Here it is now."
        : "The table moved on; here it is now.");
      return;
    }
    if (delayed) {
      sound("error");
      this.say(`Your move could not be made: ${REFUSALS[msg.error] || msg.message || "the table refused it."}`);
      return;
    }
    sound("error");
    this.say(REFUSALS[msg.error] || msg.message || "That did not work.");
  },

  /**
   * Send a Menu request (leave, end, spectators) with an id; `done` gets its result and
   * `failed` its refusal (the refusal is said unless `failed` returns true).
   */
  ask(message, { done, failed = () => false }) {
    const id = actionId();
    if (!this.send({ ...message, id })) return false;
    this.asked.set(id, {
      done,
      failed: (err) => {
        if (failed(err)) return;
        sound("error");
        this.say(REFUSALS[err.error] || err.message || "That did not work.");
      },
    });
    return true;
  },

  send(message) {
    if (this.socket.send(message)) return true;
    this.say("Not connected. Reconnecting…");
    this.socket.reconnectNow();
    return false;
  },

  takeState(msg, { quiet = false } = {}) {
    if (typeof msg.seat !== "number") return;
    if (typeof msg.now === "number") this.serverSkew = Date.now() - msg.now;
    const before = this.states[msg.seat];
    if (before && before.version > msg.version) return;
    this.states[msg.seat] = msg;
    if (msg.version >= this.version) {
      if (this.room && msg.room && !quiet && msg.version > this.version) {
        const mode = msg.room.mode || this.entry.mode;
        const names = seatNames(msg.room, mode === "local" ? null : this.held[0], mode);
        this.news.push(...roomChanges(this.room, msg.room, names));
        this.signalRoom(this.room, msg.room, names, mode);
      }
      this.version = msg.version;
      this.room = msg.room;
    }
    if (this.pending && msg.version > this.pending.version) this.clearPending();
    if (!quiet) this.scheduleRender();
  },

  /** A friend joined, or agreed to the next round while this device has not: a signal when
   * the page is in the background (signals.js). */
  signalRoom(before, after, names, mode) {
    const was = before?.seats || [];
    for (const [i, seat] of (after?.seats || []).entries()) {
      const old = was[i];
      if (!old || this.held.includes(i) || seat.kind !== "human") continue;
      if (seat.taken && !old.taken) {
        this.signals.signal(`${names.name(i)} joined`, { mode, tag: this.token });
      } else if (seat.agreed && !old.agreed && after.hand_over && this.held.some((h) => !after.seats[h]?.agreed)) {
        this.signals.signal(`${names.name(i)} is ready for the next ${this.room?.variant === "duo" ? "round" : "hand"}`, { mode, tag: this.token });
      }
    }
  },

  clearPending() {
    this.pending = null;
    window.clearTimeout(this.pendingTimer);
    this.scheduleRender();
  },

  /** A move sent waits for its answer: given up after PENDING_MS with the connection open
   * (the table is shown as it is), kept while the connection is away (sent again on it). */
  armPending() {
    window.clearTimeout(this.pendingTimer);
    this.pendingTimer = window.setTimeout(() => {
      if (!this.pending) return;
      if (this.connection === "open") this.clearPending();
      else this.armPending();
    }, PENDING_MS);
  },
};

/** Refusals said in the table's words rather than the server's. */
const REFUSALS = {
  table_closed: "The host ended the game: no more moves at this table.",
  host_stays: "The host cannot leave: end the game from the Menu instead.",
};
