// The end of a hand: who won, every hand's cards and points (101: the sum in words), Next
// hand or Play again, and Rematch after a game with friends.
import { sortHand } from "../cards.js";
import { faceCard } from "../cardview.js";
import { h } from "../dom.js";
import { gameOverSentence, handOverSentence } from "../narrate.js";
import { canRestart } from "./bar.js";
import { isOut, showScores } from "./seats.js";
import { nameInSentence, RANK_PLURALS, RANK_WORDS } from "./words.js";

export function resultsPanel(m, on) {
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
    "aria-modal": "true",
    "aria-labelledby": "results-title",
    tabindex: "-1",
    onkeydown: keepTab,
  },
    h("h2", { id: "results-title" }, title),
    h("p", { class: "result-sentence" }, sentence),
    h("ol", { class: "result-list" }, rows),
    view.seed && !m.watching ? h("p", { class: "small muted result-seed" }, "This game’s seed, now revealed: ",
      h("code", { class: "mono break", testid: "results-seed" }, view.seed), ". ",
      h("a", { href: `/verify?token=${encodeURIComponent(room.token)}`, "data-link": "", testid: "verify-link" }, "Verify this game"),
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

/**
 * The results take the focus while they are up (a dialog keeps it until it closes): back
 * to the control of the panel that had it, or its Next hand, or the panel itself. Returns
 * false when there is no panel. The table's letters (N deals) work wherever the focus is.
 */
export function focusResults(root, focusTestid) {
  const panel = root.querySelector("[data-testid=results]");
  if (!panel) return false;
  const again = focusTestid ? panel.querySelector(`[data-testid="${focusTestid}"]`) : null;
  const target = again || panel.querySelector("[data-testid=new-round]:not([disabled])") || panel;
  target.focus({ preventScroll: true });
  return true;
}

/** Tab and Shift+Tab go round the panel's own controls, never behind it. */
function keepTab(e) {
  if (e.key !== "Tab") return;
  const panel = e.currentTarget;
  const items = Array.from(panel.querySelectorAll("a[href], button:not([disabled]), [tabindex='0']"))
    .filter((el) => el.getClientRects().length);
  e.preventDefault();
  if (!items.length) return panel.focus();
  const at = items.indexOf(document.activeElement);
  const next = at < 0 ? (e.shiftKey ? items.length - 1 : 0) : (at + (e.shiftKey ? -1 : 1) + items.length) % items.length;
  items[next].focus();
}

/** "New game": Restart's new table, offered to a player out of the game (101). */
export function newGameButton(on) {
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

/**
 * Rematch, after a game with friends (over, or ended by the host): a new table for the same
 * people, one tap each. The first tap makes it; the others see that it waits for them.
 */
export function rematchButton(m, on) {
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
