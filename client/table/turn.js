// The turn line above the pile: whose turn it is (or who is away, who may declare a
// bridge, the pickup waiting) and which way the play goes round the table.
import { h } from "../dom.js";
import { timerBadge } from "./seats.js";
import { durationWords, nameInSentence } from "./words.js";

export function turnIndicator(m) {
  const { view, names, room } = m;
  let text;
  let whose = "other";
  if (room.closed) text = "The game is over";
  else if (view.game_over) text = room.variant === "duo" ? "Round over" : "Game over";
  else if (view.hand_over) text = "Hand over";
  else if (m.covered) text = `${names.name(view.turn)} to play`;
  else if (awaySeat(m) !== null) {
    whose = view.turn === m.seat ? "me" : "other";
    text = awayText(m);
  } else if (bridgeWindow(m) && !bridgeWindow(m).mine) {
    text = `${names.name(bridgeWindow(m).seat)} may declare a bridge`;
  } else if (bridgeWindow(m)) {
    whose = "me";
    text = view.turn === m.seat ? "Your turn: a bridge to declare" : "A bridge to declare: the table waits";
  } else if (view.turn === m.seat) {
    whose = "me";
    text = room.mode === "local" ? `${names.name(m.seat)}, your turn` : "Your turn";
  } else if (view.pending) {
    text = pickupText(m).replace(/\.$/, "");
  } else {
    const seat = room.seats[view.turn];
    if (seat?.kind === "bot" && room.paused) text = `Paused: ${names.name(view.turn)} waits for you`;
    else if (seat?.kind === "bot") text = `${names.name(view.turn)} is thinking…`;
    else if (seat?.away) text = `The computer plays for ${nameInSentence(names, view.turn)}…`;
    else text = `Waiting for ${nameInSentence(names, view.turn)}`;
  }
  const away = !view.hand_over && awaySeat(m) !== null;
  return h("span", {
    class: `turn ${whose}${away ? " away" : ""}`,
    testid: "turn-indicator",
    dataset: { turn: whose, seat: String(view.turn), away: away ? "true" : "" },
  }, text, whose === "me" && m.room.deadline ? timerBadge(m, m.seat) : null);
}

/** At a table with a friend: the other seat when it has no device connected, else null. */
export function awaySeat(m) {
  const { room } = m;
  if (room.mode !== "online" || !m.view || m.view.hand_over) return null;
  const other = room.seats.find((s) => s.seat !== m.seat && s.kind === "human" && s.taken && s.connected === false && !s.away);
  return other ? other.seat : null;
}

/** "Your friend is away: moves wait until they are back" (the server refuses them); with
 * an away limit, how long the table waits before the computer plays for them. */
function awayText(m) {
  const name = m.names.name(awaySeat(m));
  const limit = m.room.away_limit;
  return limit ? `${name} is away: moves wait for them, at most ${durationWords(limit)}` : `${name} is away: moves wait until they are back`;
}

const ANSWER_WORDS = { two: "a two", queen: "a queen" };

/**
 * The pickup waiting, in words for the seat shown: "Pick up 6, or answer with a two" for
 * the seat it waits for, "Sam must pick up 6 or answer" for the others. Null when none.
 */
export function pickupText(m) {
  const { view, names } = m;
  const pending = view?.pending;
  if (!pending || view.hand_over) return null;
  const answering = view.options?.answering !== false;
  const mine = view.turn === m.seat && !m.covered;
  if (mine) {
    if (!answering) return `Pick up ${pending.count}: at this table a pickup is not answered.`;
    const canAnswer = (view.legal || []).some((a) => a.type === "play");
    return canAnswer
      ? `Pick up ${pending.count}, or answer with ${ANSWER_WORDS[pending.kind] || "a card of its kind"}.`
      : `Pick up ${pending.count}: you hold no ${pending.kind === "queen" ? "queen" : "two"} to answer with.`;
  }
  const who = names.name(view.turn);
  return answering ? `${who} must pick up ${pending.count} or answer.` : `${who} must pick up ${pending.count}.`;
}

/** 101: the bridge that may be declared now, `{seat, secs, mine}`, or null. */
export function bridgeWindow(m) {
  const bridge = m.view?.bridge;
  if (!bridge || m.view.hand_over || !m.room.bridge_deadline) return null;
  const secs = m.bridgeSecs ?? null;
  if (secs !== null && secs <= 0) return null;
  // A device holding every seat (pass and play) declares for whichever seat laid it.
  const mine = (m.held || [m.seat]).includes(bridge.seat) && !m.covered;
  return { seat: bridge.seat, secs, mine };
}

/**
 * Which way the play goes round the table: an arrow that turns when a king turns the
 * play. Clockwise (direction 1) is from you to the seat on your left, then across.
 */
export function directionArrow(m) {
  const { view, names } = m;
  if (!showsDirection(view)) return null;
  const clockwise = view.direction !== -1;
  const from = m.watching ? 0 : m.seat;
  const next = (from + (clockwise ? 1 : -1) + view.players) % view.players;
  const words = clockwise ? "clockwise" : "anticlockwise";
  return h("span", {
    class: `direction ${clockwise ? "cw" : "ccw"}${m.turned ? " turned" : ""}`,
    testid: "direction",
    role: "img",
    dataset: { direction: String(clockwise ? 1 : -1) },
    "aria-label": `Play goes ${words}: ${nameInSentence(names, next)} plays after ${m.room.mode === "local" || m.watching ? names.name(from) : "you"}.`,
    title: `Play goes ${words}`,
  }, h("span", { class: "dir-arrow", "aria-hidden": "true" }, clockwise ? "\u21bb" : "\u21ba"),
  h("span", { class: "dir-text", "aria-hidden": "true" }, words));
}

/** Whether the table shows which way the play goes: kings turn it, at three or more. */
function showsDirection(view) {
  return Boolean(view?.options?.reverse_kings) && view.players > 2;
}
