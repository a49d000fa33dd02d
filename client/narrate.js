// Sentences about the table: who is who, each move as it happens, how a hand ended.
import { cardName, theCard, suitName } from "./cards.js";

/** A seat's name nobody chose ("Player 3"): said as "Your friend" at a table with friends. */
export const DEFAULT_NAME = /^Player \d+$/;

/**
 * How to call each seat, seen from `me` (null on a shared device, where every seat is
 * called by its name). Returns {name(seat), subject(seat), possessive(seat)}.
 */
export function seatNames(room, me, mode) {
  const seats = room?.seats || [];
  const name = (seat) => {
    const s = seats[seat];
    if (!s) return `Player ${seat + 1}`;
    if (mode === "online" && seat !== me && DEFAULT_NAME.test(s.name)) return "Your friend";
    return s.name;
  };
  const isMe = (seat) => me !== null && me !== undefined && seat === me && mode !== "local";
  return {
    round: room?.variant === "duo" ? "round" : "hand",
    oneGameARound: room?.variant === "duo",
    name,
    isMe,
    subject: (seat) => (isMe(seat) ? "You" : name(seat)),
    /** Inside a sentence: "you", "your friend" (not "Your friend"), or the name. */
    object: (seat) => (isMe(seat) ? "you" : name(seat).replace(/^Your friend$/, "your friend")),
    possessive: (seat) => (isMe(seat) ? "Your" : `${name(seat)}’s`),
  };
}

/**
 * One sentence per event (draws in a row by one seat are counted together; a play and the
 * pickup it starts are one sentence). `options` are the table's (the view's `options`):
 * whether a pickup may be answered changes what the next seat is told.
 */
export function describeEvents(events, names, options = {}) {
  const out = [];
  let drawRun = null;
  const flush = () => {
    if (!drawRun) return;
    const { seat, n } = drawRun;
    out.push(`${names.subject(seat)} drew ${n === 1 ? "a card" : `${n} cards`}.`);
    drawRun = null;
  };
  for (let i = 0; i < events.length; i += 1) {
    const e = events[i];
    if (!e || typeof e !== "object") continue;
    if (e.type === "timed_out") {
      flush();
      const made = timedOutMoves(events, i + 1, e.seat);
      out.push(timedOutSentence(e.seat, made.moves, names));
      i = made.next - 1;
      continue;
    }
    if (e.type === "drew") {
      if (drawRun && drawRun.seat === e.seat) drawRun.n += 1;
      else {
        flush();
        drawRun = { seat: e.seat, n: 1 };
      }
      continue;
    }
    flush();
    if (e.type === "penalty") {
      // 101: the penalty's cards are dealt at once; its draws are said in this sentence.
      out.push(penaltySentence(e, names));
      const n = penaltyCount(e);
      let j = i + 1;
      while (j < events.length && j <= i + n && events[j]?.type === "drew" && events[j].seat === e.seat) j += 1;
      i = j - 1;
      continue;
    }
    const next = events[i + 1];
    if (e.type === "played" && next && next.type === "pickup") {
      out.push(`${playedWords(e, names, options)}: ${pickupWords(next, names, options)}.`);
      i += 1;
      continue;
    }
    const sentence = describeEvent(e, names, options);
    if (sentence) out.push(sentence);
  }
  flush();
  return out;
}

const TABLE_MOVES = new Set(["drew", "played", "kept", "passed", "took", "turn_ended", "reshuffled"]);

/** The moves the table made for `seat` after its clock ran out: the events from `start`
 * that belong to that turn. Returns {moves, next} (the index of the first event after). */
function timedOutMoves(events, start, seat) {
  const moves = [];
  let i = start;
  for (; i < events.length; i += 1) {
    const e = events[i];
    if (!e || !TABLE_MOVES.has(e.type) || (e.type !== "reshuffled" && e.seat !== seat)) break;
    moves.push(e);
    if (e.type !== "drew" && e.type !== "reshuffled") {
      i += 1;
      break;
    }
  }
  return { moves, next: i };
}

/** "Time ran out: the table played your three of diamonds." / "Time ran out for Bo: the
 * table drew 2 cards and passed." */
function timedOutSentence(seat, moves, names) {
  const mine = names.isMe(seat);
  const whose = mine ? "your" : "their";
  const drew = moves.filter((m) => m.type === "drew").length;
  const parts = [];
  if (drew) parts.push(`drew ${drew === 1 ? "a card" : `${drew} cards`}`);
  for (const m of moves) {
    if (m.type === "played") {
      const cards = (m.cards || []).map((c) => `${whose} ${cardName(c)}`).join(" and ");
      parts.push(`played ${cards || "a card"}${m.suit ? ` and named ${suitName(m.suit)}` : ""}`);
    } else if (m.type === "kept") {
      parts.push("kept it");
    } else if (m.type === "passed") {
      parts.push("passed");
    } else if (m.type === "took") {
      parts.push(`took the ${m.count} waiting`);
    }
  }
  const who = mine ? "Time ran out" : `Time ran out for ${names.object(seat)}`;
  const what = parts.length ? parts.join(" and ") : "ended the turn";
  return `${who}: the table ${what}.`;
}

const COUNT_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"];
const PLURALS = { 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights", 9: "nines", T: "tens", J: "jacks", Q: "queens", K: "kings", A: "aces" };

/** "Sam played the two of hearts" / "Sam laid two twos, the two of spades on top". */
function playedWords(e, names, options = {}) {
  const cards = e.cards || [];
  const verb = options?.wild_rank && options.wild_rank !== "8" ? "ordered" : "named";
  const named = e.suit ? ` and ${verb} ${suitName(e.suit)}` : "";
  if (cards.length > 1 && cards.every((c) => c[0] === cards[0][0])) {
    const many = `${COUNT_WORDS[cards.length] || cards.length} ${PLURALS[cards[0][0]] || "cards"}`;
    return `${names.subject(e.seat)} laid ${many}, ${theCard(cards[cards.length - 1])} on top${named}`;
  }
  const what = cards.length > 1 ? cards.map(theCard).join(" and ") : cards.length ? theCard(cards[0]) : "a card";
  return `${names.subject(e.seat)} played ${what}${named}`;
}

/** "Dana picks up 4 or answers" / "you pick up 2 or answer" (answering off: no answer). */
function pickupWords(e, names, options) {
  const me = names.isMe(e.seat);
  const who = me ? "you" : names.object(e.seat);
  const answers = options?.answering !== false;
  const verb = me ? "pick up" : "picks up";
  return answers ? `${who} ${verb} ${e.count} or ${me ? "answer" : "answers"}` : `${who} ${verb} ${e.count}`;
}

/** "Dana takes 4 and loses the turn." (and, to the taker, which cards). */
function tookSentence(e, names) {
  const me = names.isMe(e.seat);
  const taken = typeof e.taken === "number" ? e.taken : e.count;
  const short = taken < e.count ? ` (the stock held only ${taken})` : "";
  const count = taken < e.count ? e.count : taken;
  const head = me ? `You take ${count}${short} and lose the turn` : `${names.subject(e.seat)} takes ${count}${short} and loses the turn`;
  const cards = me && Array.isArray(e.cards) && e.cards.length ? `: ${listWords(e.cards.map(theCard))}` : "";
  return `${head}${cards}.`;
}

function listWords(items) {
  if (items.length <= 1) return items[0] || "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function penaltyCount(e) {
  if (typeof e.due === "number") return e.due;
  if (typeof e.count === "number") return e.count;
  if (typeof e.cards === "number") return e.cards;
  return Array.isArray(e.cards) ? e.cards.length : 0;
}

const CAUSES = {
  7: "a seven", 8: "an eight", Q: "the queen of spades", QS: "the queen of spades",
  seven: "a seven", sevens: "sevens", eight: "an eight", queen: "the queen of spades",
  queen_of_spades: "the queen of spades", cover: "covering a six", six: "covering a six",
};

/** 101: "Nutmeg draws 2 for an eight." / "You draw 5 for the queen of spades." */
function penaltySentence(e, names) {
  const n = penaltyCount(e);
  const me = names.isMe(e.seat);
  const cause = typeof e.cause === "string" ? (CAUSES[e.cause] || CAUSES[e.cause.toLowerCase()] || null) : null;
  const what = `${n} ${n === 1 ? "card" : "cards"}`;
  const got = typeof e.count === "number" && e.count < n ? ` (only ${e.count} left to draw)` : "";
  const cards = me && Array.isArray(e.cards) && e.cards.length ? `: ${e.cards.map((c) => theCard(c)).join(", ")}` : "";
  return `${names.subject(e.seat)} ${me ? "draw" : "draws"} ${what}${cause ? ` for ${cause}` : ""}${got}${cards}.`;
}

/** 101: the dice for the first deal, "Dice: you 7, Nutmeg 9 — Nutmeg deals." */
function diceSentence(e, names) {
  // Each roll is {round, seat, dice: [a, b]} (a later round: the tied seats again).
  const rolls = Array.isArray(e.rolls) ? e.rolls : [];
  const parts = [];
  let round = null;
  for (const r of rolls) {
    if (!r || typeof r.seat !== "number" || !Array.isArray(r.dice)) continue;
    const total = r.dice.reduce((a, b) => a + b, 0);
    const again = round !== null && r.round !== round ? "then " : "";
    round = r.round;
    parts.push(`${again}${names.object(r.seat)} ${total}`);
  }
  const dealer = typeof e.dealer === "number" ? `: ${names.subject(e.dealer)} ${names.isMe(e.dealer) ? "deal" : "deals"}` : "";
  return `Dice${parts.length ? ` — ${parts.join(", ")}` : " for the first deal"}${dealer}.`;
}

function describeEvent(e, names, options) {
  switch (e.type) {
    case "dice":
      return diceSentence(e, names);
    case "bank_renewed":
      return `The bank ran out: the table under its top card is the new bank, and this round’s points count ×${e.multiplier ?? 2}.`;
    case "bridge":
      return `${names.subject(e.seat)} ${names.isMe(e.seat) ? "declare" : "declares"} a bridge!`;
    case "total_reset":
      return `${names.possessive(e.seat)} total lands on ${e.total ?? e.landed ?? "the mark"} and goes back to 0.`;
    case "eliminated":
      return `${names.subject(e.seat)} ${names.isMe(e.seat) ? "are" : "is"} over the limit${typeof e.total === "number" ? ` (${e.total})` : ""} and out of the game.`;
    case "opened":
      return `The first card is ${theCard(e.card)}.`;
    case "played":
      return `${playedWords(e, names, options)}.`;
    case "pickup": {
      const words = pickupWords(e, names, options);
      return `${words[0].toUpperCase()}${words.slice(1)}.`;
    }
    case "took":
      return tookSentence(e, names);
    case "skipped":
      return names.isMe(e.seat) ? "You are skipped." : `${names.subject(e.seat)} is skipped.`;
    case "reversed":
      return "The play turns around.";
    case "kept":
      return `${names.subject(e.seat)} kept the card.`;
    case "passed":
      return `${names.subject(e.seat)} passed.`;
    case "ordered":
      return `${names.subject(e.seat)} ordered ${suitName(e.suit)} for the opening jack.`;
    case "turn_ended":
      return `${names.possessive(e.seat)} turn is over.`;
    case "reshuffled":
      return "The pile was shuffled into a new stock.";
    case "hand_over":
      return handOverSentence(e, names);
    case "game_over":
      return names.oneGameARound ? "" : gameOverSentence(e, names);
    default:
      return "";
  }
}

function list(seats, names) {
  const all = seats.map((s, i) => (i === 0 ? names.subject(s) : names.object(s)));
  if (all.length <= 1) return all[0] || "Nobody";
  return `${all.slice(0, -1).join(", ")} and ${all[all.length - 1]}`;
}

/** "Nutmeg went out and won the hand." / "Blocked: you win with the lower count." */
export function handOverSentence(result, names) {
  const winners = result.winners || [];
  const verb = winners.length === 1 && !names.isMe(winners[0]) ? "wins" : "win";
  if (result.reason === "went_out") {
    return `${names.subject(winners[0])} went out and ${verb} the ${names.round || "hand"}.`;
  }
  if (result.reason === "bridge") return `A bridge ends the ${names.round || "hand"}: everyone scores the cards in hand.`;
  if (result.reason === "finished") return "The host finished the game: this round is not scored.";
  const why = result.reason === "stock_limit" ? "The stock ran out too often" : "Nobody can move";
  if (winners.length === 0) return `${why}: the ${names.round || "hand"} is over.`;
  if (winners.length > 1) return `${why}: ${list(winners, names)} tie with the lowest count.`;
  return `${why}: ${names.subject(winners[0])} ${verb} with the lowest count.`;
}

export function gameOverSentence(result, names) {
  const winners = result.winners || [];
  if (winners.length > 1) return `Game over: ${list(winners, names)} share first place.`;
  if (winners.length === 1) {
    const who = names.subject(winners[0]);
    return `Game over: ${who} ${names.isMe(winners[0]) ? "win" : "wins"} the game.`;
  }
  return "Game over.";
}

/**
 * What changed about the seats and the table from `before` to `after` (two states' `room`),
 * in sentences for the live region: "Ann left the table; the computer plays
 * their seat", "Bob is away: the computer plays for them", "Bob is back", "Cleo took the
 * open seat", "Ann ended the game". `names` are the new room's (seatNames).
 */
export function roomChanges(before, after, names) {
  const out = [];
  const was = before?.seats || [];
  for (const [i, seat] of (after?.seats || []).entries()) {
    const old = was[i];
    if (!old) continue;
    if (seat.left && !old.left) {
      if (names.isMe(i)) continue; // this device's own seat: it is going home
      const who = DEFAULT_NAME.test(seat.left) ? "A friend" : seat.left;
      out.push(`${who} left the table; the computer plays their seat.`);
    } else if (old.open && old.kind === "bot" && seat.kind === "human" && seat.taken) {
      out.push(`${names.subject(i)} took the open seat.`);
    } else if (seat.away && !old.away) {
      out.push(names.isMe(i) ? "You were away: the computer plays for you until you move." : `${names.name(i)} is away: the computer plays for them.`);
    } else if (!seat.away && old.away && seat.kind === "human") {
      out.push(names.isMe(i) ? "You are back: your seat is yours again." : `${names.name(i)} is back.`);
    }
  }
  if (after?.closed && !before?.closed) out.push(`${names.subject(0)} ended the game.`);
  return out;
}
