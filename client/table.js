// Rendering the table from a model the session (game.js) builds from the server's state.
// Nothing here decides a rule: playable cards are those some legal action lays first.
import { bubble, reactionsControl } from "./table/reactions.js";
import { h } from "./dom.js";
import { cardName, sortHand, suitName } from "./cards.js";
import { attachLongPress, cardBack, faceCard, fan, handCard, suitPick, suitToken } from "./cardview.js";
import { suitDigit, suitOrder } from "./table/suitkeys.js";
import { DEFAULT_NAME, describeEvents, gameOverSentence, handOverSentence } from "./narrate.js";
import { icon } from "./icons.js";
import { houseNotes } from "./house.js";

const VARIANT_TITLES = {
  duo: "Duo", classic: "Classic", newfoundland: "Newfoundland", "ember-ridge": "Ember Ridge", "hundred-and-one": "101",
};

export function variantTitle(variant) {
  return VARIANT_TITLES[variant] || variant;
}

/** The cards that some legal play lays first. */
export function playableCards(view) {
  const out = new Set();
  for (const a of view?.legal || []) {
    if (a.type === "play" && a.cards && a.cards.length) out.add(a.cards[0]);
  }
  return out;
}

export function legalOf(view, type) {
  return (view?.legal || []).find((a) => a.type === type) || null;
}

/** The legal plays of `card` (one per suit for an eight). */
export function playsOf(view, card) {
  return (view?.legal || []).filter(
    (a) => a.type === "play" && a.cards && a.cards[0] === card,
  );
}

/** True when playing `card` needs a suit to be named. */
export function needsSuit(view, card) {
  return playsOf(view, card).some((a) => a.suit);
}

/** The legal plays that lay `cards` first, in that order (the whole play or its start). */
export function playsStarting(view, cards) {
  return (view?.legal || []).filter(
    (a) => a.type === "play" && a.cards && a.cards.length >= cards.length && cards.every((c, i) => a.cards[i] === c),
  );
}

/** The cards that may go down on top of `cards` in the same move (twos laid together). */
export function addableCards(view, cards) {
  const out = new Set();
  if (!cards.length) return out;
  for (const a of playsStarting(view, cards)) if (a.cards.length > cards.length) out.add(a.cards[cards.length]);
  return out;
}

/** The play that lays exactly `cards` (and names `suit`, for an eight), or null. */
export function exactPlay(view, cards, suit = null) {
  return playsStarting(view, cards).find((a) => a.cards.length === cards.length && (suit === null || a.suit === suit)) || null;
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

/** Seats out of the game (101: over the limit). */
export function isOut(view, seat) {
  return Array.isArray(view?.out) && view.out.includes(seat);
}

/** A seat's total as shown on its plate: "37", or "37/101" against a limit. */
function totalText(view, seat) {
  const total = (view.totals || [])[seat] ?? 0;
  return view.limit ? `${total}/${view.limit}` : String(total);
}

/** A plate's score: "37", or "37/101" against a limit (a crowded plate shows the "37"). */
function scoreChip(view, seat) {
  const total = (view.totals || [])[seat] ?? 0;
  return h("span", { class: "score", testid: "total", title: view.limit ? `Total, out over ${view.limit}` : "Score" },
    String(total), view.limit ? h("span", { class: "of-limit" }, `/${view.limit}`) : null);
}

/** Whether the table shows which way the play goes: kings turn it, at three or more. */
function showsDirection(view) {
  return Boolean(view?.options?.reverse_kings) && view.players > 2;
}

/**
 * The whole table as one element. `m` is the model, `on` the callbacks. A watcher's model
 * (`m.watching`, watch.js) has no seat (`m.seat` -1) and a view of the public table only:
 * every seat is drawn as a plate, seat 0 at the bottom, with no hand and no actions.
 */
export function renderTable(m, on) {
  const { room, view } = m;
  const myTurn = Boolean(view && view.legal && view.legal.length && !m.covered) || Boolean(view && bridgeWindow(m)?.mine);
  const root = h("section", {
    class: `table mode-${room.mode}${m.covered ? " is-covered" : ""}${view?.hand_over ? " is-over" : ""}`,
    testid: "table",
    "aria-label": `${variantTitle(room.variant)} table`,
    dataset: {
      version: String(m.version),
      turn: myTurn ? "me" : "other",
      seat: String(m.seat),
      mode: room.mode,
      over: view?.game_over ? "game" : view?.hand_over ? "hand" : "",
      covered: m.covered ? "true" : "false",
      watching: m.watching ? "true" : "",
    },
  });
  // The stage is what a player needs at once: the bar, the felt with the hand pinned to
  // its bottom, and the tools. While a game is on it is one screen high (history and the
  // fairness notes come below it), so the hand, the prompt and the plates stay in sight.
  const stage = h("div", { class: `stage${view ? " fits" : ""}` });
  root.append(stage);
  stage.append(topBar(m, on));
  if (m.watching) stage.append(watchBanner(m));
  if (room.closed && !m.watching) {
    root.dataset.closed = "true";
    root.classList.add("is-closed");
    stage.append(closedPanel(m, on));
  }
  if (!view) {
    if (!room.closed) stage.append(h("div", { class: "felt felt-waiting" }, m.waitingPanel || ""));
    return root;
  }
  const felt = h("div", { class: "felt" });
  felt.append(opponentsRow(m));
  felt.append(centre(m, on));
  felt.append(promptRow(m, on));
  if (m.picker && !m.covered) felt.append(suitPicker(m, on));
  felt.append(m.watching ? watchedArea(m) : myArea(m, on));
  stage.append(felt);
  stage.append(m.watching ? watchToolbar(m, on) : toolbar(m, on));
  const confirmBox = finishConfirm(m, on);
  if (confirmBox) stage.append(confirmBox);
  root.append(historyPanel(m, on));
  root.append(fairness(m));
  if (room.closed) {
    // The host ended the game: the closed panel above says so; no invitation, no next hand.
  } else if (m.seatFree) root.append(h("section", { class: "results seat-free", testid: "seat-free" }, m.seatFree));
  else if (view.hand_over && !m.covered) root.append(resultsPanel(m, on));
  if (m.covered) root.append(coverPanel(m, on));
  return root;
}

// ---- the bar at the top --------------------------------------------------------------
function topBar(m, on) {
  const { room, view } = m;
  const round = room.round ? `Round ${room.round}` : "";
  const o = view?.options;
  const handNo = o && (o.target || o.limit || o.game_end === "host") ? `Hand ${view.hand_no + 1}` : "";
  const where = [round, handNo].filter(Boolean).join(" · ");
  const conn = m.connection === "open" ? null : h("span", {
    class: "conn-note",
    testid: "connection",
    role: "status",
  }, m.connection === "fatal" ? "Disconnected"
    : m.connection === "connecting" ? "Connecting…"
    : m.connection === "offline" ? "Offline: reconnecting when the network is back…"
    : "Reconnecting…");
  return h("header", { class: "table-bar" },
    h("a", { class: "bar-btn", href: "/", "data-link": "", "aria-label": "Home", testid: "home" }, icon("home")),
    h("div", { class: "bar-title" },
      h("strong", {}, variantTitle(room.variant)),
      h("span", { class: "bar-sub" },
        h("span", { class: "bar-mode" }, m.watching ? "Watching" : modeTitle(room.mode)),
        m.watching ? null : watchingNote(room),
        where ? h("span", { class: "bar-round" }, where) : null)),
    conn,
    canRestart(room) ? h("button", {
      type: "button",
      class: "bar-btn",
      testid: "restart",
      "aria-label": "Restart: a new game with the same players",
      title: "Restart",
      onclick: on.restart,
    }, icon("restart")) : null,
    h("button", {
      type: "button",
      class: "bar-btn",
      testid: "help",
      "aria-label": `Help: the rules of ${variantTitle(room.variant)}`,
      title: "Help",
      onclick: on.help,
    }, icon("help")),
    h("button", {
      type: "button",
      class: "bar-btn",
      testid: "sound",
      "aria-label": m.settings.sound ? "Sound is on. Turn sound off (M)" : "Sound is off. Turn sound on (M)",
      "aria-pressed": m.settings.sound ? "true" : "false",
      onclick: on.toggleSound,
    }, icon(m.settings.sound ? "soundOn" : "soundOff")),
    h("button", {
      type: "button",
      class: "bar-btn",
      testid: "open-settings",
      "aria-label": "Settings",
      onclick: on.openSettings,
    }, icon("settings")),
  );
}

/** "2 watching": spectators at a public table, when there are any (issue 15). */
function watchingNote(room) {
  const n = room.spectators;
  if (!(typeof n === "number" && n > 0)) return null;
  return h("span", {
    class: "bar-watching",
    testid: "spectators",
    dataset: { count: String(n) },
    title: n === 1 ? "One person is watching this table" : `${n} people are watching this table`,
  }, `${n} watching`);
}

/** Restart deals a new game at once: only where this device holds every human seat. */
export function canRestart(room) {
  return room.mode === "computer" || room.mode === "local";
}

/** A seat's name inside a sentence: "your friend", not "Your friend". */
export function nameInSentence(names, seat) {
  const name = names.name(seat);
  return name === "Your friend" ? "your friend" : name;
}

function modeTitle(mode) {
  return { online: "With a friend", local: "Pass and play", computer: "Against the computer" }[mode] || mode;
}

// ---- the other seats -----------------------------------------------------------------
function opponentsRow(m) {
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

function opponentPlate(m, seat, place) {
  const { room, view, names } = m;
  const info = room.seats[seat] || {};
  const count = view.counts[seat] ?? 0;
  const turn = !view.hand_over && !room.closed && view.turn === seat;
  // While this device's own connection is away, nobody else's presence is known.
  const unknown = info.kind !== "bot" && Boolean(m.connection) && m.connection !== "open" && !m.watching;
  const connected = info.kind === "bot" || (!unknown && info.connected !== false);
  const name = names.name(seat);
  const bot = info.kind === "bot";
  const note = seatNote(info, connected);
  const status = (bot ? `computer, ${info.level || ""}`.replace(/, $/, "") : unknown ? "not known while reconnecting" : connected ? "connected" : "away")
    + (note?.words ? `, ${note.words}` : "");
  const skipped = !view.hand_over && skippedSeat(view) === seat;
  const pickup = turn && view.pending ? view.pending.count : null;
  const answers = view.options?.answering !== false ? " or answer" : "";
  const out = isOut(view, seat);
  const doing = out ? ", out of the game" : pickup ? `, to pick up ${pickup}${answers}` : turn ? ", to play" : skipped ? ", skipped" : "";
  const scoreWords = showScores(view) ? `, total ${totalText(view, seat)}` : "";
  return h("div", {
    class: `plate opponent${bot ? " bot" : ""}${turn ? " to-act" : ""}${connected ? "" : " away"}${place ? ` at-${place}` : ""}${skipped ? " skipped" : ""}${out ? " out" : ""}${note ? ` has-note note-${note.kind}` : ""}`,
    testid: "opponent",
    dataset: {
      seat: String(seat), connected: unknown ? "unknown" : connected ? "true" : "false", count: String(count), place, skipped: skipped ? "true" : "", out: out ? "true" : "",
      open: info.open ? "true" : "", left: info.left || "", computerPlays: info.away ? "true" : "",
    },
    "aria-label": `${name}, ${status}, ${count} ${count === 1 ? "card" : "cards"}${scoreWords}${doing}`,
    role: "group",
  },
    h("div", { class: "plate-head" },
      h("span", { class: `dot ${unknown ? "unknown" : connected ? "on" : "off"}`, "aria-hidden": "true", title: unknown ? "Not known while reconnecting" : connected ? "Connected" : "Away" }),
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
 * What a plate says under the cards about who plays the seat (issue 15): a friend's seat
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
function seatMarks(skipped, pickup) {
  if (pickup) return h("span", { class: "seat-mark pickup-mark", testid: "pickup-mark", title: `Picks up ${pickup} or answers` }, `+${pickup}`);
  if (skipped) return h("span", { class: "seat-mark skipped-mark", testid: "skipped-mark", title: "Skipped a turn" }, "skipped");
  return null;
}

function showScores(view) {
  return Boolean(view.options && view.options.target) || ["limit", "host"].includes(view.options?.game_end);
}

function timerBadge(m, seat) {
  if (!m.room.deadline) return null;
  return h("span", {
    class: "timer",
    testid: "timer",
    dataset: { seat: String(seat), deadline: String(m.room.deadline) },
    "aria-label": "Time left for this turn",
  }, m.timerText || "");
}

// ---- stock, pile and suit token -------------------------------------------------------
function centre(m, on) {
  const { view } = m;
  const canDraw = !m.covered && Boolean(legalOf(view, "draw"));
  const turns = newStockWords(view);
  const stockWords = `Stock, ${view.stock_size} ${view.stock_size === 1 ? "card" : "cards"}.${turns ? ` ${turns.sentence}` : ""}`;
  const stock = h("button", {
    type: "button",
    class: `stock${canDraw ? " can-draw" : ""}${turns ? " turns-pile" : ""}`,
    testid: "stock",
    dataset: { count: String(view.stock_size) },
    "aria-disabled": canDraw ? "false" : "true",
    "aria-label": `${stockWords}${canDraw ? " Draw a card (D)" : ""}`,
    title: canDraw ? `${turns ? `${turns.sentence} ` : ""}Draw a card (D)` : stockWords,
    // Not drawable now: the tap says why, in the engine's words (view.cannot_draw).
    onclick: () => (canDraw ? on.draw() : on.explainStock?.()),
  },
    view.stock_size > 0 ? [cardBack(), view.stock_size > 1 ? cardBack() : null]
      : h("span", { class: "card empty" }, turns ? h("span", {
        class: "new-stock",
        testid: "new-stock",
        dataset: { count: turns.count === null ? "" : String(turns.count) },
        "aria-hidden": "true",
      }, h("span", { class: "new-stock-icon" }, "\u21bb"), h("span", {}, turns.short)) : null),
    // An empty stock that a draw turns into a new one says so inside it: no bare "0".
    turns ? null : h("span", { class: "stock-count" }, String(view.stock_size)));
  explains(stock, stockText(view, stockWords, canDraw));
  const pile = view.pile || [];
  const top = pile[pile.length - 1];
  const under = pile.slice(-3, -1);
  const about = pileText(view);
  const pileEl = h("div", {
    class: "pile",
    testid: "pile",
    tabindex: "0",
    role: "img",
    "aria-label": `${about} ${view.pile_size} ${view.pile_size === 1 ? "card" : "cards"} in the pile.`,
    title: about,
  },
    under.map((c, i) => faceCard(c, { extraClass: `under u${under.length - i}` })),
    top ? faceCard(top, { testid: "pile-top", extraClass: `top${m.freshPile ? " landed" : ""}` }) : null,
    pickupChip(m));
  explains(pileEl, about);
  const token = view.suit
    ? h("div", { class: "named" }, suitToken(view.suit, { big: true }),
      h("span", { class: "named-text" }, `${suitName(view.suit)}`))
    : null;
  // 101: the bank's multiplier, where renewing the bank multiplies the round's points:
  // beside the bank, with its label in words (a phone shows no title).
  const multiplier = view.options?.bank_multiplier && typeof view.multiplier === "number"
    ? h("div", {
      class: "bank-multiplier",
      title: "The bank’s multiplier: every score of this round is times this",
    },
    h("span", {
      class: `multiplier${view.multiplier > 1 ? " raised" : ""}`,
      testid: "multiplier",
      dataset: { multiplier: String(view.multiplier) },
      "aria-label": `Points this round times ${view.multiplier}`,
    }, `\u00d7${view.multiplier}`),
    h("span", { class: "multiplier-label", testid: "multiplier-label", "aria-hidden": "true" }, "points"))
    : null;
  const bank = multiplier ? h("div", { class: "bank" }, multiplier, stock) : stock;
  return h("div", { class: "centre" },
    h("div", { class: "turn-line" }, directionArrow(m), turnIndicator(m)),
    h("div", { class: "middle" }, bank, pileEl, token),
    messageArea(m));
}

/**
 * An empty stock that a draw turns into a new one (the view's `new_stock`: the pile under
 * its top card): `{count, short, sentence}`, or null. Without the count (an older server)
 * it says only that drawing turns the pile.
 */
export function newStockWords(view) {
  if (!view || view.stock_size > 0 || view.hand_over) return null;
  const bank = Boolean(view.options?.bank_multiplier);
  const count = typeof view.new_stock === "number" && view.new_stock > 0 ? view.new_stock : null;
  if (count === null && !(view.new_stock === undefined && view.can_draw)) return null;
  const stock = bank ? "bank" : "stock";
  const what = bank ? "the table under its top card" : "the pile under its top card";
  const cards = count === null ? "" : ` of ${count} ${count === 1 ? "card" : "cards"}`;
  return {
    count,
    short: count === null ? "drawing turns the pile" : `new ${stock}: ${count}`,
    sentence: `The ${stock} is empty: a draw turns ${what} into a new ${stock}${cards}.`,
  };
}

/** The pickup waiting, on the pile: "+6", its sentence for screen readers and a pointer. */
function pickupChip(m) {
  const pending = m.view.pending;
  if (!pending || m.view.hand_over) return null;
  const text = pickupText(m);
  return h("span", {
    class: `pickup-chip kind-${pending.kind}`,
    testid: "pickup",
    dataset: { count: String(pending.count), kind: pending.kind, seat: String(m.view.turn) },
    title: text,
  }, `+${pending.count}`);
}

/**
 * Which way the play goes round the table: an arrow that turns when a king turns the
 * play. Clockwise (direction 1) is from you to the seat on your left, then across.
 */
function directionArrow(m) {
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

const COUNT_WORDS = ["", "one", "two", "three", "four", "five", "six", "seven", "eight"];
const RANK_WORDS = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

const RANK_PLURALS = {
  2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights",
  9: "nines", T: "tens", J: "jacks", Q: "queens", K: "kings", A: "aces",
};

/**
 * What the pile is and what is in force, from the view alone (its top card, the suit in
 * force and the suit an eight named): "Discard pile: follow hearts — the eight of clubs
 * named them".
 */
export function pileText(view) {
  const pile = view.pile || [];
  const top = pile[pile.length - 1];
  if (!top) return "Discard pile: empty.";
  const named = view.suit || null;
  const verb = view.options?.wild_rank && view.options.wild_rank !== "8" ? "ordered" : "named";
  if (named) return `Discard pile: follow ${suitName(named)} — the ${cardName(top)} ${verb} them.`;
  const suit = view.suit_in_force || top[1];
  return `Discard pile: the ${cardName(top)} — follow ${suitName(suit)} or ${RANK_PLURALS[top[0]] || "its rank"}.`;
}

/** What the stock says when pointed at, focused or held: its size, and on this seat's turn
 * whether it may draw and why (000: "nothing fits, draw" / "you may draw while a card fits"). */
function stockText(view, words, canDraw) {
  if (view.turn !== view.seat || !(view.legal || []).length) return words;
  if (!canDraw) return `${words} ${view.cannot_draw || "You cannot draw now."}`;
  const fits = (view.legal || []).some((a) => a.type === "play");
  return `${words} ${fits ? "You may draw while a card fits." : "Nothing fits: draw."}`;
}

/** Pointing at, focusing or holding a finger on `el` shows `text` in the message area. */
function explains(el, text) {
  const show = () => showNote(el, text);
  el.addEventListener("pointerenter", (e) => {
    if (e.pointerType === "mouse") show();
  });
  el.addEventListener("focus", show);
  el.addEventListener("pointerleave", () => hideNote(el));
  el.addEventListener("blur", () => hideNote(el));
  attachLongPress(el, show);
}

/**
 * The one message area of the table: the latest sentence (moves, hints, errors) in the
 * ticker, or, while a card or the pile is pointed at, why it is what it is. It sits in the
 * flow between the pile and the prompt, so it never covers the hand or a name plate.
 */
function messageArea(m) {
  return h("div", { class: "messages", testid: "messages" },
    h("p", { class: "ticker", "aria-hidden": "true", testid: "ticker" }, m.ticker || ""),
    h("p", { class: "note", testid: "card-reason", id: "card-reason", role: "tooltip", hidden: true }));
}

/** Show `text` about `el` (a card, the pile) in the message area, in place of the ticker. */
export function showNote(el, text) {
  const table = el.closest?.("[data-testid=table]");
  const note = table?.querySelector("[data-testid=card-reason]");
  if (!note || !text) return;
  note.textContent = text;
  note.dataset.card = el.dataset.card || "";
  note.dataset.about = el.dataset.testid || "card";
  note.hidden = false;
  table.querySelector("[data-testid=ticker]")?.setAttribute("hidden", "");
  el.setAttribute("aria-describedby", "card-reason");
}

/** Back to the ticker. */
export function hideNote(root) {
  const table = root?.closest?.("[data-testid=table]") || root?.querySelector?.("[data-testid=table]");
  const note = table?.querySelector("[data-testid=card-reason]");
  if (!note) return;
  note.hidden = true;
  table.querySelector("[data-testid=ticker]")?.removeAttribute("hidden");
}

function turnIndicator(m) {
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
function awaySeat(m) {
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

/** Seconds in words: "30 s", "1 min", "1 min 30 s", "1 hour". */
export function durationWords(seconds) {
  const secs = Math.max(0, Math.round(seconds));
  if (secs < 60) return `${secs} s`;
  if (secs % 3600 === 0) return secs === 3600 ? "1 hour" : `${secs / 3600} hours`;
  const min = Math.floor(secs / 60);
  const rest = secs % 60;
  return rest ? `${min} min ${rest} s` : `${min} min`;
}

// ---- what you may do now ------------------------------------------------------------
/** A move being sent, in a few words ("Playing the nine of hearts"). */
function pendingWords(action) {
  if (!action) return "Your move";
  if (action.type === "play") {
    const cards = action.cards || [];
    return cards.length === 1 ? `Playing the ${cardName(cards[0])}` : `Playing ${cards.length} cards`;
  }
  return { draw: "Drawing", keep: "Keeping the card", pass: "Passing", take: "Taking the pickup", bridge: "Declaring the bridge" }[action.type] || "Your move";
}

function promptRow(m, on) {
  const { view } = m;
  const buttons = [];
  let text = "";
  let tip = false; // the general instruction, which a short screen leaves out
  if (m.pending && !view.hand_over) {
    // A move sent and not yet answered; while the connection is away it waits, in words.
    const what = pendingWords(m.pending.action);
    const text = m.pending.waiting
      ? `${what}: waiting for the connection…`
      : m.pending.action ? `${what}…` : "…";
    return h("div", { class: "prompt", testid: "prompt", dataset: { pending: m.pending.waiting ? "waiting" : "true" } },
      h("p", { class: `prompt-text${m.pending.waiting ? "" : " muted"}` }, text));
  }
  const bridging = !m.covered && !view.hand_over ? bridgeWindow(m) : null;
  if (bridging && !bridging.mine) {
    return h("div", { class: "prompt", testid: "prompt", dataset: { bridge: "other" } },
      h("p", { class: "prompt-text" }, `${m.names.name(bridging.seat)} may declare a bridge: moves wait `,
        bridgeSecs(bridging), "."));
  }
  if (!m.covered && !view.hand_over && !m.watching && m.room.mode !== "local" && isOut(view, m.seat)) {
    // 101: over the limit, the player is dealt nothing and the others play on.
    return h("div", { class: "prompt", testid: "prompt", dataset: { out: "true" } },
      h("p", { class: "prompt-text", testid: "out-note" },
        `You are out of the game: your total went over ${view.limit}. The others play on; watch them, or start a new game.`),
      canRestart(m.room) ? h("div", { class: "prompt-buttons" }, newGameButton(on)) : null);
  }
  if (!m.covered && !view.hand_over) {
    const keep = legalOf(view, "keep");
    const pass = legalOf(view, "pass");
    const take = legalOf(view, "take");
    const draw = legalOf(view, "draw");
    const mine = view.turn === m.seat;
    const playable = playableCards(view);
    const stack = m.stack || [];
    const lifting = stack.length > 0 && playsStarting(view, stack).length > 0;
    if (lifting) {
      const more = addableCards(view, stack);
      const last = stack[stack.length - 1];
      const rank = RANK_WORDS[last[0]] || "card";
      if (stack.length > 1) {
        const many = `${COUNT_WORDS[stack.length] || stack.length} ${RANK_PLURALS[last[0]] || "cards"}`;
        text = `${capital(many)} lifted, the ${cardName(last)} on top${more.size ? `: tap another ${rank} to add it, or lay them.` : "."}`;
        buttons.push(button("play", `Lay ${many}`, () => on.playLifted(), { primary: true, key: "Enter" }));
        buttons.push(button("drop", "Put back", on.drop, { key: "Esc" }));
      } else if (!needsSuit(view, last)) {
        if (more.size) text = `The ${cardName(last)} is lifted: tap another ${rank} to lay it on top, or play it alone.`;
        buttons.push(button("play", `Play the ${cardName(last)}`, () => on.playLifted(), { primary: true, key: "Enter" }));
        buttons.push(button("drop", "Put back", on.drop, { key: "Esc" }));
      } else if (more.size) {
        text = `The ${cardName(last)} is lifted: tap another ${rank} to lay it on top, or tap it again to name a suit.`;
        buttons.push(button("play", `Play the ${cardName(last)}`, () => on.playLifted(), { primary: true, key: "Enter" }));
        buttons.push(button("drop", "Put back", on.drop, { key: "Esc" }));
      }
    } else if (view.drawn && playable.has(view.drawn)) {
      text = keep
        ? `You drew the ${cardName(view.drawn)}. Play it or keep it.`
        : `You drew the ${cardName(view.drawn)}. Play it.`;
      buttons.push(button("play", "Play it", () => on.playDrawn(), { primary: true, key: "Enter" }));
      if (keep && !besidePlate(m)) buttons.push(button("keep", "Keep it", on.keep, { key: "K" }));
    } else if (view.pending && take) {
      text = pickupText(m) || "";
    } else if (view.legal && view.legal.length) {
      if (awaySeat(m) !== null) text = "";
      else if (view.cover && mine) text = playable.size ? "Cover your six: play a card on it, or draw until one fits." : "Cover your six: draw until a card fits.";
      else if (view.opening && mine && legalOf(view, "order")) text = "Your opening jack: order a suit for it, lay more jacks on it, or leave it its own suit (Pass).";
      else if (view.opening && mine) text = "Your opening card: lay more of its rank on it, or leave it (Pass).";
      else if (playable.size) {
        text = "Tap a bright card to lift it, then tap it again to play.";
        tip = true;
      }
      else if (draw && newStockWords(view)) text = `Nothing fits: draw. ${newStockWords(view).sentence}`;
      else if (draw) text = "Nothing fits: draw from the stock.";
      else if (pass) text = "Nothing fits and nothing to draw: pass.";
      if (keep && !besidePlate(m)) buttons.push(button("keep", "Keep it", on.keep, { key: "K" }));
    }
    // 101: an opening jack: the dealer may order its suit (or Pass to keep the jack's own).
    if (legalOf(view, "order") && !m.picker) buttons.push(button("order", "Order a suit", on.order, { key: "O" }));
    if (pass && !besidePlate(m)) buttons.push(button("pass", "Pass", on.pass, { key: "P" }));
    if (take) {
      const count = view.pending?.count;
      buttons.push(button("take", count ? `Take ${count}` : "Take", on.take, { primary: !lifting, key: "T" }));
    }
    if (bridging && bridging.mine) {
      text = text || "A bridge! Declare it to end the round: everyone scores the cards in hand.";
      buttons.unshift(h("button", {
        type: "button", class: "btn primary bridge-btn", testid: "bridge", onclick: on.bridge, "aria-keyshortcuts": "B",
      }, "Bridge ", bridgeSecs(bridging), h("kbd", { "aria-hidden": "true" }, "B")));
    }
    const counted = typeof view.draws_left === "number";
    // 101: drawing is offered even with a card that fits (up to three; a six to cover).
    const always = counted || view.cover || view.opening;
    if (draw && counted) buttons.push(button("draw", `Draw (${view.draws_left} of 3 left)`, on.draw, { key: "D" }));
    else if (draw && (always || !playable.size)) buttons.push(button("draw", "Draw", on.draw, { key: "D" }));
  }
  return h("div", { class: "prompt", testid: "prompt" },
    text ? h("p", { class: `prompt-text${tip ? " prompt-tip" : ""}` }, text) : null,
    buttons.length ? h("div", { class: "prompt-buttons" }, buttons) : null);
}

/** The seconds left to declare a bridge, "(7 s)", ticking (game.js updates it). */
function bridgeSecs(bridging) {
  return h("span", { class: "bridge-secs", testid: "bridge-secs" }, bridging.secs === null ? "" : `(${bridging.secs} s)`);
}

function button(testid, label, onclick, { primary = false, key } = {}) {
  return h("button", {
    type: "button",
    class: `btn${primary ? " primary" : ""}`,
    testid,
    onclick,
    "aria-keyshortcuts": key && key.length === 1 ? key : null,
  }, label, key ? h("kbd", { "aria-hidden": "true" }, key) : null);
}

/** The picker's words: duo's text says "press Choose suit"; 101 orders a suit with a jack. */
function pickerTitle(variant) {
  if (variant === "duo") return "Choose suit";
  if (variant === "hundred-and-one") return "Order a suit";
  return "Name a suit";
}

function suitPicker(m, on) {
  const variant = m.room.variant;
  return h("div", {
    class: "suit-picker",
    testid: "suit-picker",
    role: "group",
    "aria-label": `${pickerTitle(variant)} for ${cardName(m.picker)}`,
  },
    h("p", { class: "picker-title", testid: "picker-title" }, pickerTitle(variant)),
    h("div", { class: "picker-tokens" },
      suitOrder(variant).map((s) => suitPick(s, suitDigit(s, variant), on.suit))),
    h("button", { type: "button", class: "btn small ghost", onclick: on.drop, testid: "picker-cancel" },
      "Put back", h("kbd", { "aria-hidden": "true" }, "Esc")));
}

// ---- your hand ------------------------------------------------------------------------
function myArea(m, on) {
  const { view, names, room } = m;
  const name = names.name(m.seat);
  const count = view.counts[m.seat] ?? (view.hand ? view.hand.length : 0);
  const turn = !view.hand_over && !room.closed && view.turn === m.seat;
  const skipped = !view.hand_over && skippedSeat(view) === m.seat;
  const out = isOut(view, m.seat);
  const plate = h("div", { class: `plate mine${turn ? " to-act" : ""}${skipped ? " skipped" : ""}${out ? " out" : ""}`, testid: "my-plate", dataset: { skipped: skipped ? "true" : "", out: out ? "true" : "" } },
    h("span", { class: "plate-name" }, room.mode === "local" ? name : `${name} (you)`),
    showScores(view) ? scoreChip(view, m.seat) : null,
    out ? h("span", { class: "seat-mark out-mark", testid: "out-mark" }, "out") : seatMarks(skipped, turn && view.pending ? view.pending.count : null),
    bubble(m, m.seat),
    room.mode !== "local" && on.react ? reactionsControl(m, on) : null);
  const row = besidePlate(m) ? plateRow(m, on, plate) : plate;
  if (m.covered || !view.hand) {
    return h("div", { class: "my-area" }, row,
      h("div", { class: "hand hidden-hand", testid: "hand-hidden" }, fan(count, { label: `${name}'s ${count} cards, face down` })));
  }
  return h("div", { class: "my-area" }, row, handEl(m, on));
}

/** 004: "Pass, Keep it, Next hand and Scores appear beside your name plate when they
 * apply" (Next hand is also the results' own button). Other tables keep them in the prompt. */
function besidePlate(m) {
  return m.room.variant === "ember-ridge" && !m.watching;
}

function plateRow(m, on, plate) {
  const { view } = m;
  const mine = !m.pending && !m.covered && view.turn === m.seat && !view.hand_over;
  const buttons = [];
  if (mine && legalOf(view, "pass")) buttons.push(button("pass", "Pass", on.pass, { key: "P" }));
  if (mine && legalOf(view, "keep")) buttons.push(button("keep", "Keep it", on.keep, { key: "K" }));
  if (view.hand_over && !view.game_over) {
    buttons.push(h("button", { type: "button", class: "btn primary", testid: "plate-next-hand", onclick: on.agree, "aria-keyshortcuts": "N" },
      "Next hand", h("kbd", { "aria-hidden": "true" }, "N")));
  }
  if (showScores(view)) {
    buttons.push(h("button", {
      type: "button", class: "btn", testid: "plate-scores", onclick: on.toggleHistory,
      "aria-expanded": m.showHistory ? "true" : "false", "aria-controls": "history-panel",
    }, m.showHistory ? "Hide scores" : "Scores"));
  }
  return h("div", { class: "plate-row", testid: "plate-row" }, plate,
    h("div", { class: "plate-actions", testid: "plate-actions" }, buttons));
}

function handEl(m, on) {
  const { view } = m;
  const playable = playableCards(view);
  const stack = m.stack || [];
  const addable = addableCards(view, stack);
  const cards = sortHand(view.hand, m.sort);
  const focusCard = cards.includes(m.focus) ? m.focus : cards.find((c) => playable.has(c)) || cards[0];
  const widths = handLayout(cards.length, m.width, handMetrics());
  const rows = [];
  for (let r = 0; r < widths.rows; r++) {
    const slice = cards.slice(r * widths.perRow, (r + 1) * widths.perRow);
    rows.push(h("div", { class: "hand-row", style: { "--step": `${widths.step}px` } },
      slice.map((code) => handCard(code, {
        playable: playable.has(code),
        addable: addable.has(code),
        order: stack.length > 1 && stack.includes(code) ? stack.indexOf(code) + 1 : null,
        lifted: stack.includes(code) || (view.drawn === code && playable.has(code)),
        reason: (view.unplayable || {})[code],
        focusable: code === focusCard,
        onClick: on.card,
        onLongPress: on.explain,
        onHover: on.showReason,
        onLeave: on.hideReason,
      }))));
  }
  return h("div", {
    class: `hand${view.legal && view.legal.length ? " my-turn" : ""}`,
    testid: "hand",
    role: "group",
    "aria-label": `Your hand, ${cards.length} ${cards.length === 1 ? "card" : "cards"}. Arrow keys move, Enter lifts and plays.`,
    dataset: { count: String(cards.length) },
  }, rows);
}

/**
 * The hand's card width and the part of the window's width that is not the hand's, as the
 * style sheet sets them for this screen (`--card-w`, `--hand-gutter`): the sheet decides
 * the layout, and the rows below follow it.
 */
export function handMetrics() {
  const style = getComputedStyle(document.documentElement);
  const cardW = parseFloat(style.getPropertyValue("--card-w"));
  const gutter = parseFloat(style.getPropertyValue("--hand-gutter"));
  return { cardW: cardW > 0 ? cardW : null, gutter: gutter >= 0 ? gutter : null };
}

/** How many cards a row holds and how far apart they sit, for the screen's width. */
export function handLayout(n, width, { cardW = null, gutter = null } = {}) {
  const wide = width >= 720;
  const w = cardW || (wide ? 92 : 64);
  const room = Math.min(width, 1100);
  const avail = Math.max(160, room - (gutter ?? (wide ? 120 : 28)));
  // A card's middle stays uncovered (a tap there, or a test's click, lands on it):
  // past that, the hand goes on in another row.
  const minStep = Math.ceil(w * 0.56);
  const maxPerRow = Math.max(1, Math.floor((avail - w) / minStep) + 1);
  const rows = Math.max(1, Math.ceil(n / maxPerRow));
  const perRow = Math.ceil(n / rows);
  const step = perRow <= 1 ? w : Math.min(w + 8, (avail - w) / (perRow - 1));
  return { rows, perRow, step: Math.floor(step), cardW: w };
}

// ---- below the table ------------------------------------------------------------------
function toolbar(m, on) {
  const { room, view } = m;
  const items = [
    h("button", {
      type: "button", class: "tool", testid: "sort", onclick: on.sort,
      "aria-label": `Sort: ${m.sort === "suit" ? "by suit" : "by rank"}. Switch (S)`,
    }, m.sort === "suit" ? "By suit" : "By rank", h("kbd", { "aria-hidden": "true" }, "S")),
  ];
  if (room.mode === "computer" || room.mode === "local") {
    // No hint at a table with a friend: one player would get the computer's advice unseen.
    items.push(h("button", {
      type: "button", class: "tool", testid: "hint", onclick: on.hint,
      disabled: !(view && view.legal && view.legal.length) || m.covered,
      "aria-label": "Hint (H)",
    }, "Hint", h("kbd", { "aria-hidden": "true" }, "H")));
  }
  if (room.mode === "computer") {
    items.push(h("button", {
      type: "button", class: "tool", testid: "undo", onclick: on.undo,
      disabled: !room.can_undo, "aria-label": "Undo your last move (U)",
    }, "Undo", h("kbd", { "aria-hidden": "true" }, "U")));
    items.push(h("button", {
      type: "button", class: "tool", testid: "pause", onclick: on.pause,
      "aria-pressed": room.paused ? "true" : "false",
      "aria-label": room.paused ? "Resume the computer (Space when paused)" : "Pause the computer",
    }, room.paused ? "Resume" : "Pause"));
  }
  // 004: Undo, Hint, the sort button and Menu on a board below the table (beside it on
  // wide screens); Scores, full screen, settings and the rules are in the Menu.
  items.push(h("button", {
    type: "button", class: "tool", testid: "menu", onclick: on.menu,
    "aria-haspopup": "dialog",
  }, "Menu"));
  return h("nav", { class: "toolbar", "aria-label": "Table tools" }, items);
}

/** The host's "finish the game" (101), asked once more before it is done. */
function finishConfirm(m, on) {
  if (!m.confirmFinish || !m.canFinish) return null;
  return h("section", { class: "finish-box", testid: "finish-box", role: "group", "aria-label": "Finish the game" },
    h("p", {}, "Finish the game now? The round under way is not scored; the lowest total wins."),
    h("div", { class: "prompt-buttons" },
      h("button", { type: "button", class: "btn primary", testid: "finish-confirm", onclick: on.finish }, "Finish the game"),
      h("button", { type: "button", class: "btn ghost", testid: "finish-cancel", onclick: on.cancelFinish }, "Keep playing")));
}

function historyPanel(m, on) {
  const { room, view, names } = m;
  const players = room.players;
  const head = h("tr", {}, h("th", { scope: "col" }, room.variant === "duo" ? "Round" : "Game"),
    Array.from({ length: players }, (_, s) => h("th", { scope: "col" }, names.name(s))),
    h("th", { scope: "col" }, "Seed"));
  const duo = room.variant === "duo";
  const rows = (room.history || []).map((g) => h("tr", {},
    h("th", { scope: "row" }, String(g.round)),
    Array.from({ length: players }, (_, s) => h("td", { class: (g.winners || []).includes(s) ? "won" : "" },
      duo ? roundCell(g, s) : `${(g.scores || [])[s] ?? 0}${(g.winners || []).includes(s) ? " \u2605" : ""}`)),
    h("td", { class: "mono", title: g.seed || "" }, g.seed ? `${g.seed.slice(0, 10)}…` : "")));
  const current = view && showScores(view)
    ? h("p", { class: "totals", testid: "game-totals" }, `This game: ${(view.totals || []).map((t, s) => `${nameInSentence(names, s)} ${t}${isOut(view, s) ? " (out)" : ""}`).join(", ")}`
      + (view.options?.target ? ` (to ${targetOf(view)})` : view.limit ? ` (out over ${view.limit}; lowest wins)` : " (lowest wins)"))
    : null;
  return h("section", {
    class: "history",
    id: "history-panel",
    testid: "history",
    hidden: !m.showHistory,
    "aria-label": "Scores and history",
  },
    h("div", { class: "history-head" }, h("h2", {}, duo ? "Rounds" : "Scores"),
      h("button", { type: "button", class: "btn small ghost", onclick: on.toggleHistory, "aria-label": "Close scores" }, "\u2715")),
    current,
    handLog(m),
    tallyLine(m),
    rows.length
      ? h("div", { class: "table-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, rows)))
      : h("p", { class: "muted" }, "No finished games yet."),
    h("p", { class: "muted small" }, "Each game’s seed is revealed when it ends, so every deal can be checked. ",
      h("a", { href: `/verify?token=${encodeURIComponent(room.token)}`, "data-link": "" }, "Verify a game")),
    resetControl(m, on));
}

/** Every game since the table opened, when the list below shows only the newest. */
function tallyLine(m) {
  const { room, names } = m;
  const tally = room.tally;
  if (!tally || !(tally.games > (room.history || []).length)) return null;
  const shown = (room.history || []).length;
  // Duo keeps no tally of rounds won (002: each round stands alone): only how many.
  if (room.variant === "duo") {
    return h("p", { class: "muted small", testid: "tally" }, `${tally.games} rounds played; the newest ${shown} are below.`);
  }
  const wins = (tally.wins || []).map((w, s) => `${nameInSentence(names, s)} ${w}`).join(", ");
  return h("p", { class: "muted small", testid: "tally" },
    `${tally.games} games played; won: ${wins}. The newest ${shown} are below.`);
}

/** This hand move by move, in the words the live region used (the newest last). */
function handLog(m) {
  const { view, names } = m;
  if (!view || m.covered) return null;
  const lines = describeEvents(Array.isArray(view.log) ? view.log : [], names, view.options || {});
  if (!lines.length) return null;
  return h("details", { class: "hand-log", open: true },
    h("summary", {}, duo(m) ? "This round" : "This hand"),
    h("ol", { testid: "hand-log" }, lines.map((line) => h("li", {}, line))));
}

function duo(m) {
  return m.room.variant === "duo";
}

/** The host of a table with a friend may free the friend's seat (a lost phone). */
function resetControl(m, on) {
  const { room, names } = m;
  if (room.mode !== "online" || m.seat !== 0) return null;
  const friend = room.seats.find((s) => s.seat !== 0 && s.kind === "human" && s.taken);
  if (!friend) return null;
  const name = names.name(friend.seat);
  if (m.confirmReset) {
    return h("div", { class: "reset-box", role: "group", "aria-label": "Free your friend’s seat" },
      h("p", {}, `Free ${nameInSentence(names, friend.seat)}’s seat? Their link and this browser’s copy of it stop working, and the next person to open the invitation sits down in the same game.`),
      h("div", { class: "prompt-buttons" },
        h("button", { type: "button", class: "btn", testid: "reset-seat-confirm", onclick: () => on.resetSeat(friend.seat) }, "Free the seat"),
        h("button", { type: "button", class: "btn ghost", testid: "reset-seat-cancel", onclick: on.cancelReset }, "Keep it")));
  }
  return h("p", { class: "small" },
    h("button", { type: "button", class: "linkish", testid: "reset-seat", onclick: on.askReset },
      `${name} lost their device? Free the seat`));
}

/**
 * A duo round in the history: who won, and the cards each hand still held (002: each
 * round stands alone, so no points are carried).
 */
function roundCell(g, seat) {
  const won = (g.winners || []).includes(seat);
  const left = ((g.remaining || [])[seat] || []).length;
  const cards = `${left} ${left === 1 ? "card" : "cards"} left`;
  if (!won) return cards;
  return (g.winners || []).length > 1 ? `tie · ${cards}` : `won · ${cards}`;
}

function targetOf(view) {
  const t = view.options?.target;
  if (t && typeof t === "object") return t[String(view.players)] ?? Object.values(t)[0];
  return t;
}

function fairness(m) {
  const { view, room } = m;
  const fp = view?.fingerprint || room.fingerprint;
  return h("footer", { class: "fairness" },
    houseNotes(room.house),
    fp ? h("details", { class: "fp" },
      h("summary", {}, "Deal fingerprint ", h("code", { testid: "fingerprint", dataset: { fingerprint: fp }, title: fp }, `${fp.slice(0, 12)}…`)),
      h("p", { class: "mono small break" }, fp),
      h("p", { class: "muted small" }, "The fingerprint of the secret seed that shuffles this game. The seed itself is shown when the game ends.")) : null,
    view?.seed ? h("p", { class: "seed-line" }, "Seed ", h("code", { testid: "seed", class: "mono break" }, view.seed)) : null);
}

// ---- a table the host closed -------------------------------------------------------------

/**
 * The host ended the game (issue 15): who did, the last scores and games won, and the way
 * home. It sits above the table, which stays readable below with no move to make.
 */
function closedPanel(m, on) {
  const { room, view, names } = m;
  const who = names.isMe(0) ? "You" : names.name(0);
  const rows = room.seats.map((s, i) => {
    const facts = [];
    if (view && showScores(view)) facts.push(`total ${totalText(view, i)}`);
    const won = room.tally?.wins?.[i];
    // Duo's rounds stand alone (each a game of its own): it counts rounds, the others games.
    const unit = room.variant === "duo" ? "round" : "game";
    const games = room.tally?.games;
    if (games && typeof won === "number") facts.push(`won ${won} of ${games} ${unit}${games === 1 ? "" : "s"}`);
    if (view && !facts.length) facts.push(`${view.counts?.[i] ?? 0} ${view.counts?.[i] === 1 ? "card" : "cards"} in hand`);
    return h("li", { class: "closed-row", dataset: { seat: String(i) } },
      h("strong", { class: "closed-name" }, names.isMe(i) ? "You" : names.name(i)),
      facts.length ? h("span", { class: "closed-facts" }, facts.join(" · ")) : null);
  });
  return h("section", {
    class: "closed-panel",
    testid: "table-closed",
    "aria-labelledby": "closed-title",
  },
    h("h2", { id: "closed-title" }, `${who} ended the game`),
    h("p", { class: "closed-sentence" }, "The game is over: no more moves at this table."),
    h("ol", { class: "closed-list", testid: "closed-scores" }, rows),
    h("div", { class: "prompt-buttons" },
      view ? h("button", {
        type: "button", class: "btn", testid: "closed-history", onclick: on.toggleHistory,
        "aria-expanded": m.showHistory ? "true" : "false", "aria-controls": "history-panel",
      }, m.showHistory ? "Hide scores" : "Scores and history") : null,
      h("a", { class: "btn primary", href: "/", "data-link": "", testid: "closed-home" }, "Home")),
    rematchButton(m, on));
}

/**
 * Rematch, after a game with friends (over, or ended by the host): a new table for the same
 * people, one tap each. The first tap makes it; the others see that it waits for them.
 */
function rematchButton(m, on) {
  const { room } = m;
  if (room.mode !== "online" || m.watching || !m.held?.length) return null;
  // At duo every round is a game, and New round already deals the same people again: there
  // a rematch is for a table the host ended.
  if (!(room.closed || (m.view?.game_over && room.variant !== "duo"))) return null;
  const waiting = Boolean(room.rematch);
  return h("div", { class: "rematch", testid: "rematch-line" },
    waiting ? h("p", { class: "small", testid: "rematch-waiting" }, "A rematch waits for you at a new table.") : null,
    h("button", {
      type: "button",
      class: `btn${waiting ? " primary" : ""}`,
      testid: "rematch",
      onclick: on.rematch,
    }, waiting ? "Join the rematch" : "Rematch at a new table"));
}

// ---- the end of a hand ---------------------------------------------------------------
function resultsPanel(m, on) {
  const { view, room, names } = m;
  const result = view.hand_over;
  const game = view.game_over;
  const me = m.seat;
  const single = room.mode !== "local";
  let title;
  if (single && result.winners.length === 1 && result.winners[0] === me) title = room.variant === "duo" ? "You won the round!" : "You won the hand!";
  else if (single && result.winners.length > 1 && result.winners.includes(me)) title = "A tie";
  else if (result.winners.length === 1) title = `${names.name(result.winners[0])} won${single ? "" : "!"}`;
  else title = "A tie";
  if (game && room.variant !== "duo") {
    title = single && game.winners.includes(me) ? "You won the game!" : `${game.winners.map(names.name).join(" and ")} won the game`;
  }
  // 101: this hand put the player out of the game (over the limit), or it was out already:
  // say so, and offer to watch on or (where a new game is one tap) start a new one.
  const wentOut = single && !m.watching && eliminatedBy(view, me);
  const watchingOn = single && !m.watching && !game && (wentOut || isOut(view, me));
  if (wentOut && !game) title = "You are out of the game";
  const hands = result.hands || [];
  const rows = [];
  for (let s = 0; s < view.players; s++) {
    const cards = sortHand(hands[s] || [], "suit");
    rows.push(h("li", { class: `result-row${result.winners.includes(s) ? " winner" : ""}`, dataset: { seat: String(s) } },
      h("div", { class: "result-who" },
        h("strong", {}, single && s === me ? "You" : names.name(s)),
        h("span", { class: "muted" }, ` ${pointsText(result.remaining[s] ?? 0)} in hand`),
        // Duo (002) keeps no score: the round's result is who won and what was left.
        showScores(view) && !ownCards(view)
          ? h("span", { class: "pts" }, h("span", {}, signed(result.points[s] ?? 0)), " ",
            h("span", { class: "tot" }, `= ${(view.totals || [])[s] ?? 0}`))
          : null),
      // 101: every seat scores its own cards, times the bank's multiplier: the sum in words.
      ownCards(view) ? scoreBreakdown(view, s) : null,
      h("div", { class: "result-cards" },
        cards.length ? cards.map((c) => faceCard(c, { small: true })) : h("span", { class: "muted" }, "no cards left"))));
  }
  const agreed = room.seats.map((s) => s.agreed);
  const mine = room.mode === "local" ? agreed.every(Boolean) : agreed[me];
  const waitingFor = room.seats.filter((s, i) => !s.agreed && s.kind === "human" && i !== me).map((s) => nameInSentence(names, s.seat));
  const label = game ? (room.variant === "duo" ? "New round" : "Play again") : watchingOn ? "Watch on" : "Next hand";
  let sentence = game && room.variant !== "duo"
    ? (["finished", "bridge"].includes(result.reason) ? `${handOverSentence(result, names)} ${gameOverSentence(game, names)}` : gameOverSentence(game, names))
    : handOverSentence(result, names);
  if (wentOut && !game) {
    sentence = `${sentence} Your total went over ${view.limit}: you are out, and the others play on. Watch them, or start a new game.`;
  }
  return h("section", {
    class: `results${m.resultsFresh ? " enter" : ""}`,
    testid: "results",
    role: "dialog",
    "aria-modal": "false",
    "aria-labelledby": "results-title",
  },
    h("h2", { id: "results-title" }, title),
    h("p", { class: "result-sentence" }, sentence),
    h("ol", { class: "result-list" }, rows),
    view.seed && !m.watching ? h("p", { class: "small muted" }, "This game’s seed is revealed below: ",
      h("a", { href: `/verify?token=${encodeURIComponent(room.token)}`, "data-link": "", testid: "verify-link" }, "verify this game"),
      " · ",
      h("button", { type: "button", class: "linkish", testid: "save-record", onclick: on.saveRecord }, "save record")) : null,
    m.watching ? h("div", { class: "result-actions" }, h("p", { class: "waiting", testid: "waiting" }, waitingFor.length
      ? `Waiting for ${waitingFor.join(" and ")} to agree to the next ${game ? "game" : "hand"}…`
      : "The next hand is about to be dealt…")) : h("div", { class: "result-actions" },
      mine && room.mode !== "local" && waitingFor.length
        ? h("p", { class: "waiting", testid: "waiting" }, `Waiting for ${waitingFor.join(" and ")} to agree…`)
        : h("button", {
          type: "button",
          class: "btn primary big",
          testid: "new-round",
          onclick: on.agree,
          disabled: mine && room.mode !== "local",
          "aria-keyshortcuts": "N",
        }, label, h("kbd", { "aria-hidden": "true" }, "N")),
      watchingOn && canRestart(room) ? newGameButton(on) : null,
      readyLine(room, me, mine, names)),
    game ? rematchButton(m, on) : null);
}

/** "New game": Restart's new table, offered to a player out of the game (101). */
function newGameButton(on) {
  return h("button", { type: "button", class: "btn", testid: "new-game", onclick: on.restart }, "New game");
}

/** 101: whether this hand's log put `seat` out of the game (over the limit). */
function eliminatedBy(view, seat) {
  return (Array.isArray(view?.log) ? view.log : []).some((e) => e && e.type === "eliminated" && e.seat === seat);
}

/** A table where every seat scores the cards it holds (101), so the sum is shown. */
function ownCards(view) {
  return view?.options?.win_points === "own_cards";
}

/** "+140", "−40", "0": a score with its sign (a true minus sign). */
function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return "0";
}

/** A number as written in a sum: "−20" for a negative one. */
function num(n) {
  return n < 0 ? `\u2212${-n}` : String(n);
}

/**
 * 101: how a seat's score of the hand was made, in words, from the result the server sent
 * (`hand_over.remaining`, `bonus`, `wilds`, `multiplier`, `points`) and the hand's log
 * (`total_reset`, `eliminated`): `{sum, total}`, two sentences. Nothing is worked out here
 * but the way it is written.
 */
export function scoreWords(view, seat) {
  const result = view.hand_over;
  const points = (result.points || [])[seat] ?? 0;
  const before = (view.scores || [])[seat] ?? 0;
  const after = (view.totals || [])[seat] ?? 0;
  if (isOut(view, seat)) return { sum: "Out of the game: no score.", total: `Total ${num(after)}` };
  if (result.reason === "finished") return { sum: "Not scored: the host finished the game.", total: `Total ${num(after)}` };
  const held = pointsText((result.remaining || [])[seat] ?? 0);
  const multiplier = result.multiplier ?? view.multiplier ?? 1;
  const bonus = (result.bonus || [])[seat] ?? 0;
  const wilds = (result.wilds || [])[seat] ?? 0;
  const wild = view.options?.wild_rank || "8";
  const each = view.options?.wild_out_points;
  let sum = `${held} in hand`;
  if (bonus && wilds) {
    const cards = wilds === 1 ? `the ${RANK_WORDS[wild] || "wild card"}` : `${wilds} ${RANK_PLURALS[wild] || "wild cards"}`;
    sum += ` ${bonus < 0 ? "\u2212" : "+"} ${Math.abs(bonus)} for ${cards} of the last move${wilds > 1 && typeof each === "number" ? ` (${num(each)} each)` : ""}`;
    if (multiplier !== 1) sum = `(${sum})`;
  }
  if (multiplier !== 1) sum += ` \u00d7 ${multiplier} (the bank\u2019s multiplier)`;
  sum += ` = ${signed(points)}`;
  const log = Array.isArray(view.log) ? view.log : [];
  const reset = log.find((e) => e && e.type === "total_reset" && e.seat === seat);
  const out = log.find((e) => e && e.type === "eliminated" && e.seat === seat);
  const landed = reset?.total ?? out?.total ?? after;
  let total = `Total ${num(before)} ${points < 0 ? "\u2212" : "+"} ${Math.abs(points)} = ${num(landed)}`;
  if (reset) {
    const mark = view.limit && reset.total === view.limit ? "exactly the limit" : "exactly half the limit";
    total += `: ${mark}, so it goes back to ${after}`;
  } else if (out) {
    total += `: over ${view.limit}, out of the game`;
  }
  return { sum, total };
}

/** The sum of one seat's score in the results (101). */
function scoreBreakdown(view, seat) {
  const words = scoreWords(view, seat);
  return h("div", { class: "score-breakdown", testid: "score-breakdown", dataset: { seat: String(seat) } },
    h("span", { class: "score-sum" }, words.sum),
    h("span", { class: "score-total" }, `${words.total}.`));
}

/** What a hand still held, in points: "1 point", "31 points". */
function pointsText(n) {
  return `${n} ${n === 1 ? "point" : "points"}`;
}

function readyLine(room, me, mine, names) {
  if (mine || room.mode === "local") return null;
  const ready = room.seats.filter((s, i) => i !== me && s.agreed && s.kind === "human");
  if (!ready.length) return null;
  const who = ready.map((s) => names.name(s.seat)).join(" and ");
  return h("p", { class: "muted small", testid: "ready" }, `${who} ${ready.length === 1 ? "is" : "are"} ready.`);
}

// ---- pass and play -------------------------------------------------------------------
function coverPanel(m, on) {
  const name = m.names.name(m.view.turn);
  return h("section", {
    class: "cover",
    testid: "cover",
    role: "dialog",
    "aria-modal": "true",
    "aria-labelledby": "cover-title",
    dataset: { seat: String(m.view.turn) },
  },
    h("div", { class: "cover-card" },
      h("div", { class: "cover-backs", "aria-hidden": "true" }, cardBack(), cardBack(), cardBack()),
      h("h2", { id: "cover-title" }, `Pass the device to ${name}`),
      h("p", {}, `${name}: when only you can see the screen, reveal your hand.`),
      h("button", { type: "button", class: "btn primary big", testid: "reveal", onclick: on.reveal, autofocus: true },
        "Reveal my hand")));
}

// ---- watching ------------------------------------------------------------------------
/** "You are watching" (or that the host ended the game), how many watch, and the way
 * back to the lobby. */
function watchBanner(m) {
  const n = m.room.spectators;
  const count = typeof n === "number" && n > 0 ? `${n} watching` : "";
  return h("div", { class: "watch-banner", testid: "watch-banner", role: "note" },
    h("span", { class: "watch-eye", "aria-hidden": "true" }, "\u25c9"),
    h("strong", {}, m.room.closed ? "The host ended this game" : "You are watching"),
    count ? h("span", { class: "watch-count", testid: "spectators", dataset: { count: String(n) } }, count) : null,
    h("a", { class: "watch-back", href: "/lobby", "data-link": "", testid: "back-to-lobby" }, "Open tables"));
}

/** Seat 0 where a player's own hand would be: its plate and its cards face down. */
function watchedArea(m) {
  return h("div", { class: "my-area watched-seat" }, opponentPlate(m, 0, "bottom"));
}

/** A watcher's tools: the moves and scores (the history), nothing that acts. */
function watchToolbar(m, on) {
  return h("nav", { class: "toolbar", "aria-label": "Table tools" },
    h("button", {
      type: "button",
      class: "tool",
      testid: "watch-history",
      "aria-expanded": m.showHistory ? "true" : "false",
      "aria-controls": "history-panel",
      onclick: on.toggleHistory,
    }, "History"));
}
