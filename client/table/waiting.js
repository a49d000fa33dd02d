// The table before the deal: the invitation (the host's), who sits where at a larger table
// and Start now, a guest's wait, and the invitation again over a game whose friend's seat
// is free.
import { actionId } from "../api.js";
import { h } from "../dom.js";
import { houseNotes } from "../house.js";
import { DEFAULT_NAME, seatNames } from "../narrate.js";
import { invitePanel } from "./invite.js";

/** The panels before the deal, mixed into TableSession (session.js). */
export const waiting = {
  waitingPanel() {
    const room = this.room;
    const link = this.entry.link || `${window.location.origin}/t/${this.token}`;
    if (room.mode === "online" && this.held.includes(0) && room.seats.some((s) => !s.taken)) {
      if (room.players > 2) return [invitePanel(link, { many: true }), this.seatsPanel(), houseNotes(room.house)];
      return [invitePanel(link), houseNotes(room.house)];
    }
    const leave = room.mode === "online" && this.held.length && !this.held.includes(0) && !room.closed
      ? h("p", { class: "small" }, h("button", {
        type: "button",
        class: "linkish",
        testid: "waiting-leave",
        onclick: () => this.callbacks().askLeave(),
      }, "Leave this table"))
      : null;
    // A guest who sat down at a larger table: who sits where, the seats still awaited and
    // the computer's, and that the host may start, not an empty wait.
    const guest = room.mode === "online" && this.held.length && !this.held.includes(0) && room.players > 2;
    return [h("p", { class: "waiting-friend", role: "status" }, "Waiting for the table to start…"),
      guest && !room.closed ? this.seatsPanel({ host: false }) : null, leave, houseNotes(room.house)];
  },

  /** The list of seats at a larger table before the deal: who sat down, who is still
   * awaited and the computer's seats; for the host, Start now (the seats still free go to
   * the computer), for a guest, that the host may start. */
  seatsPanel({ host = true } = {}) {
    const room = this.room;
    const me = this.held[0] ?? 0;
    const names = seatNames(room, me, room.mode);
    const rows = room.seats.map((s) => h("li", { testid: "seat-row", dataset: { seat: String(s.seat), kind: s.kind, taken: s.taken ? "true" : "false" } },
      s.kind === "bot" ? `${names.name(s.seat)} (computer, ${s.level || "medium"})`
        : s.taken ? `${names.name(s.seat)}${s.seat === me ? " (you)" : s.seat === 0 ? " (host)" : ""}`
          : "Waiting for a friend…"));
    const free = room.seats.filter((s) => !s.taken).length;
    if (!host) {
      const hostName = DEFAULT_NAME.test(room.seats[0]?.name || "") ? "the host" : room.seats[0].name;
      const rest = free === 1 ? "the computer plays the free seat" : `the computer plays the ${free} free seats`;
      return h("section", { class: "seats-panel", "aria-label": "Seats", testid: "waiting-seats" },
        h("h2", {}, "Seats"),
        h("ol", { class: "seat-list" }, rows),
        h("p", { class: "small", testid: "waiting-start-note" },
          `The game starts when every seat is taken, or when ${hostName} starts it: then ${rest} until a friend comes.`));
    }
    return h("section", { class: "seats-panel", "aria-label": "Seats" },
      h("h2", {}, "Seats"),
      h("ol", { class: "seat-list" }, rows),
      h("button", {
        type: "button",
        class: "btn",
        testid: "start-now",
        onclick: () => {
          if (this.send({ type: "start", id: actionId() })) this.say("Starting the table…");
        },
      }, free === 1 ? "Start now: the computer takes the free seat" : `Start now: the computer takes the ${free} free seats`));
  },

  /** A game going on with the friend's seat free again: the invitation, over the table. */
  seatFreePanel() {
    const room = this.room;
    if (room.mode !== "online" || !this.held.includes(0) || !room.seats.some((s) => !s.taken)) return null;
    const link = this.entry.link || `${window.location.origin}/t/${this.token}`;
    return invitePanel(link, { again: true });
  },
};
