// Below the table: the scores and history (this hand move by move, the games so far with
// their seeds, freeing a friend's seat) and the fairness footer (the deal's fingerprint,
// the seed once revealed, the house rules).
import { h } from "../dom.js";
import { houseNotes } from "../house.js";
import { describeEvents } from "../narrate.js";
import { isOut, showScores } from "./seats.js";
import { nameInSentence } from "./words.js";

export function historyPanel(m, on) {
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
      ? h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": duo ? "Rounds played" : "Games played" },
        h("table", {}, h("thead", {}, head), h("tbody", {}, rows)))
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
  const what = duo(m) ? "This round" : "This hand";
  // Its own scrolling box, which the keyboard can reach and scroll (a phone's log is longer
  // than the box holds).
  return h("details", { class: "hand-log", open: true },
    h("summary", {}, what),
    h("div", { class: "hand-log-scroll", tabindex: "0", role: "region", "aria-label": `${what}: the moves` },
      h("ol", { testid: "hand-log" }, lines.map((line) => h("li", {}, line)))));
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

export function fairness(m) {
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
