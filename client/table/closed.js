// The end of a game by the host: 101's Finish the game asked once more, and a table the
// host closed (who ended it, the last scores, the way home).
import { h } from "../dom.js";
import { rematchButton } from "./results.js";
import { isOut, showScores, totalText } from "./seats.js";
import { nameInSentence } from "./words.js";

/** The host's "finish the game" (101), asked once more before it is done. */
export function finishConfirm(m, on) {
  if (!m.confirmFinish || !m.canFinish) return null;
  return h("section", { class: "finish-box", testid: "finish-box", role: "group", "aria-label": "Finish the game" },
    h("p", {}, "Finish the game now? The round under way is not scored; the lowest total wins."),
    h("div", { class: "prompt-buttons" },
      h("button", { type: "button", class: "btn primary", testid: "finish-confirm", onclick: on.finish }, "Finish the game"),
      h("button", { type: "button", class: "btn ghost", testid: "finish-cancel", onclick: on.cancelFinish }, "Keep playing")));
}

/**
 * The host ended the game: who did, the last scores and games won, and the way
 * home. It sits above the table, which stays readable below with no move to make.
 */
export function closedPanel(m, on) {
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
  const standing = standingSentence(m);
  return h("section", {
    class: "closed-panel",
    testid: "table-closed",
    "aria-labelledby": "closed-title",
  },
    h("h2", { id: "closed-title" }, `${who} ended the game`),
    h("p", { class: "closed-sentence" }, "The game is over: no more moves at this table."),
    standing ? h("p", { class: "closed-winner", testid: "closed-winner" }, standing) : null,
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
 * Who won, or who led when the host ended it: the game's winners if it had ended; else
 * the best total (lowest or highest, as the table's game is won; a seat out of the game
 * does not lead); else, at a table with no running score, the most games won.
 */
export function standingSentence(m) {
  const { room, view, names } = m;
  const who = (seats) => seats.map((s) => (names.isMe(s) ? "you" : nameInSentence(names, s)));
  const list = (seats) => {
    const words = who(seats);
    const text = words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words[0];
    return text.charAt(0).toUpperCase() + text.slice(1);
  };
  const mine = (seats) => seats.length === 1 && names.isMe(seats[0]);
  if (view?.game_over?.winners?.length) {
    const winners = view.game_over.winners;
    return `${list(winners)} won the game.`;
  }
  if (view && showScores(view)) {
    const totals = view.totals || [];
    const lowest = view.options?.game_winner === "lowest" || Boolean(view.limit);
    const seats = room.seats.map((_, i) => i).filter((i) => !isOut(view, i));
    if (!seats.length) return null;
    const best = (lowest ? Math.min : Math.max)(...seats.map((i) => totals[i] ?? 0));
    const leaders = seats.filter((i) => (totals[i] ?? 0) === best);
    if (leaders.length === seats.length) return `Nobody was ahead: every total was ${best}.`;
    const rule = lowest ? "the lowest total" : "the highest total";
    return `${list(leaders)} ${mine(leaders) || leaders.length > 1 ? "were" : "was"} ahead when it ended, with ${rule} (${best}).`;
  }
  const wins = room.tally?.wins;
  if (Array.isArray(wins) && room.tally?.games) {
    const most = Math.max(...wins);
    const leaders = wins.map((w, i) => (w === most ? i : -1)).filter((i) => i >= 0);
    if (leaders.length === wins.length) return `Nobody was ahead: each won ${most}.`;
    const unit = room.variant === "duo" ? "rounds" : "games";
    return `${list(leaders)} won the most ${unit} (${most}).`;
  }
  return null;
}
