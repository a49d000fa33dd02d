// The end of a game by the host: 101's Finish the game asked once more, and a table the
// host closed (who ended it, the last scores, the way home).
import { h } from "../dom.js";
import { rematchButton } from "./results.js";
import { showScores, totalText } from "./seats.js";

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
