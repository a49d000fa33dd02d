// Names at a table: the guest is asked for one before taking the seat (prefilled with this
// browser's name), and a name changed later in Settings follows this browser's seats.
import { api } from "./api.js";
import { h } from "./dom.js";
import { houseNotes } from "./house.js";
import { saveSettings, savedTables, settings } from "./storage.js";
import { variantTitle } from "./variants.js";

const DEFAULT_NAME = /^Player \d+$/;
const RENAME_TABLES = 8;
/** At most this many other saved tables are renamed over HTTP when the name changes. */

/**
 * The invitation before the seat is taken: who invites, the table, the house rules and
 * "Your name". Calls `onJoin(name)` (the name trimmed, or "" for none) once.
 */
export function joinPage(lobby, onJoin) {
  const host = lobby.seats?.[0]?.name;
  const named = host && !DEFAULT_NAME.test(host);
  const who = named ? `${host} invites you` : "You are invited";
  // A public table found in the lobby: no one invited this guest by name.
  const title = lobby.public
    ? `${named ? `${host}’s` : "A"} public table: a game of Crazy Eights`
    : `${who} to a game of Crazy Eights`;
  const under = lobby.started
    ? "The game is under way: you take a seat the computer has kept for a friend, with its hand."
    : "Each of you sees only your own hand.";
  const input = h("input", {
    id: "join-name",
    type: "text",
    maxlength: "400",
    value: settings().name || "",
    placeholder: "Your name",
    autocomplete: "nickname",
    testid: "join-name",
  });
  const button = h("button", { type: "submit", class: "btn primary", testid: "join-submit" }, "Take the seat");
  const form = h("form", {
    testid: "join",
    onsubmit: (e) => {
      e.preventDefault();
      if (button.disabled) return;
      button.disabled = true;
      const name = input.value.trim();
      if (name) saveSettings({ name });
      onJoin(name);
    },
  },
    h("div", { class: "name-field" }, h("label", { for: "join-name" }, "Your name"), input),
    h("p", { class: "small muted" }, "Your friend sees this name at the table."),
    h("div", { class: "page-actions" }, button));
  window.setTimeout(() => {
    if (input.isConnected) {
      input.focus();
      input.select();
    }
  }, 0);
  return h("main", { class: "page narrow", testid: "join-page" },
    h("div", { class: "page-icon", "aria-hidden": "true" }, "\u2663"),
    h("h1", {}, title),
    h("p", {}, `${variantTitle(lobby.variant)}. ${under}`),
    houseNotes(lobby.house),
    form);
}

/**
 * This browser's name changed: rename its seat at the table open now (over its socket,
 * `send`) and at its other saved tables with a friend or the computer (over HTTP, best
 * effort). Pass-and-play seats keep the names given to each player.
 */
export function renameSeats(name, open) {
  const clean = (name || "").trim();
  if (!clean) return;
  const here = open?.token;
  if (open && open.room && open.room.mode !== "local") {
    const seat = open.held[0];
    if (open.room.seats[seat] && open.room.seats[seat].name !== clean) {
      open.send({ type: "rename", name: clean, seat });
    }
  }
  const others = Object.values(savedTables())
    .filter((t) => t.token !== here && t.mode !== "local" && !t.over && t.credentials)
    .sort((a, b) => (b.seen || b.created || 0) - (a.seen || a.created || 0))
    .slice(0, RENAME_TABLES);
  for (const t of others) {
    const credentials = Object.values(t.credentials);
    if (credentials.length !== 1) continue;
    api.rename(t.token, credentials, clean).catch(() => {});
  }
}
