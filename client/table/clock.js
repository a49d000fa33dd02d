// The turn clock and 101's bridge window: the seconds left (a device's clock that
// disagrees with the server's is set right), ticking four times a second.
import { sound } from "../sound.js";

/** The turn clock, mixed into TableSession (session.js). */
export const clock = {
  noteDeadline() {
    const deadline = this.room?.deadline;
    if (!deadline || deadline === this.deadlineSeen) return;
    this.deadlineSeen = deadline;
    const full = (this.room.timer || 0) * 1000;
    const raw = deadline - Date.now();
    // A clock that disagrees with the server's: count the whole turn from now.
    this.deadlineOffset = raw > full + 1500 || raw < -1500 ? Date.now() + full - deadline : 0;
  },

  timerLeft() {
    const deadline = this.room?.deadline;
    if (!deadline) return null;
    return Math.max(0, deadline + this.deadlineOffset - Date.now());
  },

  /** While this device's own connection is away the table's clock is not known here (the
   * server may have stopped it, or moved on): it says so instead of counting to 0s. */
  clockUnknown() {
    return Boolean(this.connection) && this.connection !== "open";
  },

  timerText() {
    const left = this.timerLeft();
    if (left === null) return "";
    if (this.clockUnknown()) return this.connection === "offline" ? "offline" : "…";
    return `${Math.ceil(left / 1000)}s`;
  },

  /** 101: whole seconds left to declare the bridge on the table, or null (no window). */
  bridgeSecs() {
    const deadline = this.room?.bridge_deadline;
    if (!deadline) return null;
    const left = deadline - (Date.now() - (this.serverSkew || 0));
    return Math.max(0, Math.ceil(left / 1000));
  },

  tickBridge() {
    const secs = this.bridgeSecs();
    if (secs === null) return;
    const text = `(${secs} s)`;
    for (const el of this.container.querySelectorAll("[data-testid=bridge-secs]")) {
      if (el.textContent !== text) el.textContent = text;
    }
    if (secs <= 0 && this.container.querySelector("[data-testid=bridge-secs]")) this.scheduleRender();
  },

  tick() {
    this.tickBridge();
    const left = this.timerLeft();
    if (left === null) return;
    const text = this.timerText();
    const unknown = this.clockUnknown();
    for (const el of this.container.querySelectorAll("[data-testid=timer]")) {
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("low", !unknown && left < 6000);
    }
    if (unknown) return;
    const secs = Math.ceil(left / 1000);
    if (this.wasMyTurn && secs <= 5 && secs > 0 && secs !== this.lastTick) {
      this.lastTick = secs;
      sound("tick");
    }
  },
};
