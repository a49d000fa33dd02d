// What a watcher's table has that a player's has not: the banner (who watches, the way
// back to the lobby), seat 0's plate where a hand would be, and the history as its only tool.
import { h } from "../dom.js";
import { opponentPlate } from "./seats.js";

/** "You are watching" (or that the host ended the game), how many watch, and the way
 * back to the lobby. */
export function watchBanner(m) {
  const n = m.room.spectators;
  const count = typeof n === "number" && n > 0 ? `${n} watching` : "";
  return h("div", { class: "watch-banner", testid: "watch-banner", role: "note" },
    h("span", { class: "watch-eye", "aria-hidden": "true" }, "\u25c9"),
    h("strong", {}, m.room.closed ? "The host ended this game" : "You are watching"),
    count ? h("span", { class: "watch-count", testid: "spectators", dataset: { count: String(n) } }, count) : null,
    h("a", { class: "watch-back", href: "/lobby", "data-link": "", testid: "back-to-lobby" }, "Open tables"));
}

/** Seat 0 where a player's own hand would be: its plate and its cards face down. */
export function watchedArea(m) {
  return h("div", { class: "my-area watched-seat" }, opponentPlate(m, 0, "bottom"));
}

/** A watcher's tools: the moves and scores (the history), nothing that acts. */
export function watchToolbar(m, on) {
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
