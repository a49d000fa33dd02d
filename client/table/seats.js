// The other seats' plates (who sits there, their cards face down, score, timer, marks and
// notes), where each sits round the table, and the facts about a seat the other parts read
// (skipped by a jack, out of the game, scores shown).
import { fan } from "../cardview.js";
import { h } from "../dom.js";
import { DEFAULT_NAME } from "../narrate.js";
import { bubble } from "./reactions.js";
import { capital } from "./words.js";

export function opponentsRow(m) {
  const { room, view } = m;
  const seats = [];
  const from = m.watching ? 0 : m.seat;
  for (let i = 1; i < view.players; i++) seats.push((from + i) % view.players);
  return h("div", { class: `opponents n${seats.length}` },
    seats.map((s, i) => opponentPlate(m, s, placeOf(i, seats.length))));
}

/**
 * Where the i-th seat after the player sits on a wide screen, in the order of play: one
 * seat across; two left and right; from three on, the first on the left, the last on the
 * right and the others across (the play goes round clockwise while `direction` is 1).
 */
export function placeOf(i, n) {
  if (n === 1) return "across";
  if (n === 2) return i === 0 ? "left" : "right";
  if (i === 0) return "left";
  return i === n - 1 ? "right" : "across";
}

export function opponentPlate(m, seat, place) {
  const { room, view, names } = m;
  const info = room.seats[seat] || {};
  const count = view.counts[seat] ?? 0;
  const turn = !view.hand_over && !room.closed && view.turn === seat;
  // While this device's own connection is away, nobody else's presence is known.
  const unknown = info.kind !== "bot" && Boolean(m.connection) && m.connection !== "open" && !m.watching;
  const connected = info.kind === "bot" || (!unknown && info.connected !== false);
  const name = names.name(seat);
  const bot = info.kind === "bot";
  // Unknown is not away: no "away" word, no away look, until this device hears again.
  const note = seatNote(info, connected || unknown);
  const notKnown = m.connection === "offline" ? "not known while you're offline" : "not known while reconnecting";
  const status = (bot ? `computer, ${info.level || ""}`.replace(/, $/, "") : unknown ? notKnown : connected ? "connected" : "away")
    + (note?.words ? `, ${note.words}` : "");
  const skipped = !view.hand_over && skippedSeat(view) === seat;
  const pickup = turn && view.pending ? view.pending.count : null;
  const answers = view.options?.answering !== false ? " or answer" : "";
  const out = isOut(view, seat);
  const doing = out ? ", out of the game" : pickup ? `, to pick up ${pickup}${answers}` : turn ? ", to play" : skipped ? ", skipped" : "";
  const scoreWords = showScores(view) ? `, total ${totalText(view, seat)}` : "";
  return h("div", {
    class: `plate opponent${bot ? " bot" : ""}${turn ? " to-act" : ""}${connected || unknown ? "" : " away"}${place ? ` at-${place}` : ""}${skipped ? " skipped" : ""}${out ? " out" : ""}${note ? ` has-note note-${note.kind}` : ""}`,
    testid: "opponent",
    dataset: {
      seat: String(seat), connected: unknown ? "unknown" : connected ? "true" : "false", count: String(count), place, skipped: skipped ? "true" : "", out: out ? "true" : "",
      open: info.open ? "true" : "", left: info.left || "", computerPlays: info.away ? "true" : "",
    },
    "aria-label": `${name}, ${status}, ${count} ${count === 1 ? "card" : "cards"}${scoreWords}${doing}`,
    role: "group",
  },
    h("div", { class: "plate-head" },
      h("span", { class: `dot ${unknown ? "unknown" : connected ? "on" : "off"}`, "aria-hidden": "true", title: unknown ? capital(notKnown) : connected ? "Connected" : "Away" }),
      h("span", { class: "plate-name" }, name),
      bot ? h("span", { class: "badge", title: "Computer player" }, "bot") : null,
      showScores(view) ? scoreChip(view, seat) : null),
    fan(count, { label: `${count} ${count === 1 ? "card" : "cards"}` }),
    turn ? timerBadge(m, seat) : null,
    out ? h("span", { class: "seat-mark out-mark", testid: "out-mark" }, "out") : seatMarks(skipped, pickup),
    bubble(m, seat),
    note ? h("span", {
      class: `away-note seat-note note-${note.kind}`,
      testid: "seat-note",
      dataset: { note: note.kind },
      title: note.words ? capital(note.words) : null,
    }, note.text) : null);
}

/**
 * What a plate says under the cards about who plays the seat: a friend's seat
 * the computer keeps ("seat open"), the person who left it ("Ann left"), a person the
 * computer plays for while they are away ("away · computer plays"), or a person away.
 * `{kind, text, words}` (the words for screen readers and the title), or null.
 */
export function seatNote(info, connected) {
  if (info.left) {
    const who = DEFAULT_NAME.test(info.left) ? "A friend" : info.left;
    return { kind: "left", text: `${who} left`, words: `${who} left the table; the computer plays this seat` };
  }
  if (info.open && info.kind === "bot") {
    return { kind: "open", text: "seat open", words: "the computer keeps this seat until a friend sits down" };
  }
  if (info.away) return { kind: "away", text: "away · computer plays", words: "the computer plays for them while they are away" };
  if (!connected) return { kind: "gone", text: "away", words: "" };
  return null;
}

/** A plate's marks: skipped by a jack, or a pickup waiting for it ("+6"). */
export function seatMarks(skipped, pickup) {
  if (pickup) return h("span", { class: "seat-mark pickup-mark", testid: "pickup-mark", title: `Picks up ${pickup} or answers` }, `+${pickup}`);
  if (skipped) return h("span", { class: "seat-mark skipped-mark", testid: "skipped-mark", title: "Skipped a turn" }, "skipped");
  return null;
}

export function showScores(view) {
  return Boolean(view.options && view.options.target) || ["limit", "host"].includes(view.options?.game_end);
}

/** A seat's total as shown on its plate: "37", or "37/101" against a limit. */
export function totalText(view, seat) {
  const total = (view.totals || [])[seat] ?? 0;
  return view.limit ? `${total}/${view.limit}` : String(total);
}

/** A plate's score: "37", or "37/101" against a limit (a crowded plate shows the "37"). */
export function scoreChip(view, seat) {
  const total = (view.totals || [])[seat] ?? 0;
  return h("span", { class: "score", testid: "total", title: view.limit ? `Total, out over ${view.limit}` : "Score" },
    String(total), view.limit ? h("span", { class: "of-limit" }, `/${view.limit}`) : null);
}

export function timerBadge(m, seat) {
  if (!m.room.deadline) return null;
  // This device offline (or reconnecting): the time left is not known here (clock.js).
  const unknown = Boolean(m.connection) && m.connection !== "open" && !m.watching;
  return h("span", {
    class: `timer${unknown ? " unknown" : ""}`,
    testid: "timer",
    dataset: { seat: String(seat), deadline: String(m.room.deadline), known: unknown ? "false" : "true" },
    "aria-label": unknown ? "Time left not known until this device is connected again" : "Time left for this turn",
  }, m.timerText || "");
}

/**
 * The seat a jack just skipped, until the next move is made (a later play, pass or take):
 * read from the hand's log, whose last move may be followed by the skip.
 */
export function skippedSeat(view) {
  const log = Array.isArray(view?.log) ? view.log : [];
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const e = log[i];
    if (!e) continue;
    if (e.type === "skipped") return e.seat;
    if (["played", "passed", "took", "kept", "turn_ended", "hand_over", "opened"].includes(e.type)) return null;
  }
  return null;
}

/** Seats out of the game (101: over the limit). */
export function isOut(view, seat) {
  return Array.isArray(view?.out) && view.out.includes(seat);
}
