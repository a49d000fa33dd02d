// The bar at the top of the table: Home, the variant and the mode, the round, the
// connection's note, Restart, Help, Sound and Settings.
import { h } from "../dom.js";
import { icon } from "../icons.js";
import { variantTitle } from "../variants.js";

export function topBar(m, on) {
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
    : m.connection === "offline" ? "You're offline: reconnecting when the network is back…"
    : "Reconnecting…");
  return h("header", { class: "table-bar" },
    h("a", { class: "bar-btn", href: "/", "data-link": "", "aria-label": "Home", testid: "home" }, icon("home")),
    h("div", { class: "bar-title" },
      h("h1", { class: "bar-name" }, variantTitle(room.variant)),
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

/** "2 watching": spectators at a public table, when there are any. */
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

function modeTitle(mode) {
  return { online: "With a friend", local: "Pass and play", computer: "Against the computer" }[mode] || mode;
}
