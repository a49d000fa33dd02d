// Plain pages: a table that is gone, a table that is full, a table whose game the host
// ended, a seat that is lost.
import { h } from "./dom.js";
import { forgetTable } from "./storage.js";
import { navigate } from "./nav.js";
import { DEFAULT_NAME } from "./narrate.js";

/** While a page is on its way ("Finding the table…"): the page's main landmark and its
 * heading (unseen: the sentence says what it is), as every page has (client/first/). */
export function loadingPage(text, ...more) {
  return h("main", { class: "loading", testid: "loading" },
    h("h1", { class: "visually-hidden" }, "Eights"), text, more);
}

export function gonePage() {
  return h("main", { class: "page narrow", testid: "table-gone" },
    h("div", { class: "page-icon", "aria-hidden": "true" }, "\u2660"),
    h("h1", {}, "This table is gone"),
    h("p", {}, "The invitation is not for a table we know. Tables close after a week without play; ask your friend for a new link, or open a table of your own."),
    h("div", { class: "page-actions" }, h("a", { class: "btn primary", href: "/", "data-link": "" }, "Open a new table")));
}

/** A game to watch that we do not know (a stale or mistyped /watch/ link). */
export function goneGamePage() {
  return h("main", { class: "page narrow", testid: "table-gone" },
    h("div", { class: "page-icon", "aria-hidden": "true" }, "\u2660"),
    h("h1", {}, "This game is gone"),
    h("p", {}, "The link is not for a table we know: tables close after a week without play. Other games may be open to watch."),
    h("div", { class: "page-actions" },
      h("a", { class: "btn primary", href: "/lobby", "data-link": "", testid: "to-lobby" }, "Open tables"),
      h("a", { class: "btn", href: "/", "data-link": "" }, "Home")));
}

/** Every seat taken; `watch`: the token of a public game that may be watched instead. */
export function fullPage(watch = null) {
  return h("main", { class: "page narrow", testid: "table-full" },
    h("div", { class: "page-icon", "aria-hidden": "true" }, "\u2665"),
    h("h1", {}, "This table is full"),
    h("p", {}, watch
      ? "Every seat is taken. The game is public: you may watch it, or find another table."
      : "Every seat is taken. If one of them is yours, open the link in the browser you played in; otherwise ask your friend for a new invitation."),
    h("div", { class: "page-actions" },
      watch ? h("a", { class: "btn primary", href: `/watch/${encodeURIComponent(watch)}`, "data-link": "", testid: "watch-instead" }, "Watch the game") : null,
      watch ? h("a", { class: "btn", href: "/lobby", "data-link": "" }, "Open tables") : null,
      h("a", { class: `btn${watch ? "" : " primary"}`, href: "/", "data-link": "" }, "Open a table of your own")));
}

/**
 * The host ended the game at this table (room `closed`): its invitation has no seat to
 * offer, and a join is refused with `table_closed`. `host`: the host's name, if known.
 */
export function endedPage(host = null) {
  const who = host && !DEFAULT_NAME.test(host) ? host : "The host";
  return h("main", { class: "page narrow", testid: "table-ended" },
    h("div", { class: "page-icon", "aria-hidden": "true" }, "\u2663"),
    h("h1", {}, "This game has ended"),
    h("p", {}, `${who} ended the game at this table: there is no seat to take any more. Ask for a new invitation, or open a table of your own.`),
    h("div", { class: "page-actions" },
      h("a", { class: "btn primary", href: "/", "data-link": "", testid: "ended-home" }, "Open a table of your own"),
      h("a", { class: "btn", href: "/lobby", "data-link": "" }, "Open tables")));
}

export function errorPage(title, message) {
  return h("main", { class: "page narrow", testid: "error-page" },
    h("h1", {}, title),
    h("p", {}, message),
    h("div", { class: "page-actions" },
      h("button", { type: "button", class: "btn", onclick: () => window.location.reload() }, "Try again"),
      h("a", { class: "btn primary", href: "/", "data-link": "" }, "Home")));
}

export function lostSeatPage(token, message) {
  return h("main", { class: "page narrow", testid: "seat-lost" },
    h("h1", {}, "This seat is no longer yours"),
    h("p", {}, message || "The table did not recognise this browser’s seat."),
    h("div", { class: "page-actions" },
      h("button", {
        type: "button",
        class: "btn",
        onclick: () => {
          forgetTable(token);
          navigate("/");
        },
      }, "Forget this table"),
      h("a", { class: "btn primary", href: "/", "data-link": "" }, "Open a new table")));
}
