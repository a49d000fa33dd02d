// A table with friends: leaving it (the computer takes the seat), the host ending the game
// or letting people watch, a rematch at a new table, and the host freeing a lost seat.
import { api } from "../api.js";
import { announce, toast } from "../dom.js";
import { navigate } from "../nav.js";
import { forgetTable, savedTable, saveTable } from "../storage.js";

/** Leaving, ending, watching and rematches, mixed into TableSession (session.js). */
export const friends = {
  /** A friend leaves the table for good: the computer plays their seat from now on. */
  leave() {
    if (this.room?.mode !== "online" || this.held.includes(0)) return;
    const sent = this.ask({ type: "leave" }, {
      done: () => this.leftTable(),
      failed: () => {
        this.leaving = null;
        return false;
      },
    });
    if (sent) {
      this.leaving = { seat: this.held[0] };
      this.say("Leaving the table…");
    }
  },

  /** After leaving: this browser forgets the seat and goes home (once). */
  leftTable() {
    if (!this.leaving || this.leaving.done) return;
    this.leaving.done = true;
    forgetTable(this.token);
    this.destroy();
    navigate("/", { replace: true });
    const words = "You left the table; the computer plays your seat.";
    announce(words);
    toast(words);
  },

  /** The host ends the game for everyone: the table is closed, no more moves. */
  endGame() {
    if (!this.held.includes(0) || this.room?.closed) return;
    if (this.ask({ type: "end" }, { done: () => {} })) this.say("Ending the game…");
  },

  /** The host lets people watch this public table, or stops them. */
  allowSpectators(allowed) {
    if (!this.held.includes(0) || !this.room?.public) return;
    this.ask({ type: "spectators", allowed }, {
      done: (result) => {
        const on = result.watchable ?? allowed;
        this.say(on ? "People may watch this table." : "Watching is off: nobody watches this table now.");
      },
    });
  },

  /** Rematch: this device's seat at a new table for the same people (made by the first to
   * ask, joined by the others with one tap), saved here, and the table opened. */
  async rematch() {
    const token = this.room?.rematch;
    const saved = token ? savedTable(token) : null;
    if (saved) {
      navigate(`/t/${token}`);
      return;
    }
    if (this.rematching) return;
    this.rematching = true;
    this.say("Opening the rematch…", { quietToast: true });
    try {
      const made = await api.rematch(this.token, Object.values(this.entry.credentials || {}));
      saveTable({
        token: made.token,
        mode: "online",
        variant: this.room.variant,
        players: this.room.players,
        credentials: { [made.seat]: made.credential },
        link: made.link,
        created: Date.now(),
      });
      navigate(`/t/${made.token}`, { states: made.states || [] });
    } catch (err) {
      this.say(err.message || "The rematch could not be opened.");
    } finally {
      this.rematching = false;
    }
  },

  async resetSeat(seat) {
    this.confirmReset = false;
    try {
      await api.resetSeat(this.token, Object.values(this.entry.credentials || {}), seat);
      this.say("The seat is free. Send the invitation again.");
    } catch (err) {
      this.say(err.status === 404 ? "This server cannot free a seat yet." : err.message);
    }
    this.render();
  },
};
