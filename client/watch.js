// Watching a public table: a socket without credentials (hello with
// `watch: true`), whole states of the public table only, drawn read-only by table/stage.js
// (its watcher mode). Moves are told in the live region as they are to players.
import { api, TableSocket } from "./api.js";
import { announce, fill, h, redrawOnResize } from "./dom.js";
import { describeEvents, handOverSentence, seatNames } from "./narrate.js";
import { houseNotes } from "./house.js";
import { openSettings } from "./settings.js";
import { sound } from "./sound.js";
import { saveSettings, settings } from "./storage.js";
import { openHelp, closeTableDialog } from "./table/dialogs.js";
import { renderTable } from "./table/stage.js";
import { variantTitle } from "./variants.js";
import { BUBBLE_MS, reactionOf } from "./table/reactions.js";
import { goneGamePage, loadingPage } from "./pages.js";

export class WatchSession {
  constructor(container, token) {
    this.container = container;
    this.token = token;
    this.state = null;
    this.version = 0;
    this.connection = "connecting";
    this.showHistory = true;
    this.ticker = "";
    this.logKey = null;
    this.logLen = 0;
    this.lastPileSize = null;
    this.deadlineSeen = null;
    this.deadlineOffset = 0;
    this.onResize = redrawOnResize(this);
    this.onSettings = () => this.render();
    window.addEventListener("resize", this.onResize);
    document.addEventListener("eights:settings", this.onSettings);
    this.clock = window.setInterval(() => this.tick(), 250);
    this.render();
    this.socket = new TableSocket(token, [], {
      message: (msg) => this.message(msg),
      status: (status, detail) => this.status(status, detail),
    }, { watch: true });
    // A link to a table we do not know (a mistyped or stale link) says so at once: the
    // socket of a token that cannot be one is never opened, and would only try again.
    api.lobby(token).catch((err) => {
      if (this.destroyed || !(err.status === 404 || err.status === 410)) return;
      this.destroy();
      fill(this.container, goneGamePage());
    });
  }

  destroy() {
    this.destroyed = true;
    this.socket?.close();
    window.removeEventListener("resize", this.onResize);
    document.removeEventListener("eights:settings", this.onSettings);
    window.clearInterval(this.clock);
    window.clearTimeout(this.renderTimer);
    window.clearTimeout(this.resizeTimer);
    closeTableDialog();
    document.title = "Eights";
  }

  status(status, detail) {
    if (status === "open") this.wasOpen = true;
    this.connection = status === "connecting" && this.wasOpen ? "reconnecting" : status;
    if (status === "fatal") {
      this.destroy();
      const code = detail?.error;
      if (code === "no_spectators") fill(this.container, notWatchablePage());
      else if (code === "room_expired" || code === "room_not_found") fill(this.container, goneGamePage());
      else fill(this.container, notWatchablePage());
      return;
    }
    this.scheduleRender();
  }

  message(msg) {
    if (msg.type === "state") {
      if (msg.version < this.version) return;
      this.version = msg.version;
      this.state = msg;
      this.scheduleRender();
    } else if (msg.type === "reaction") {
      this.reaction(msg);
    } else if (msg.type === "error" && msg.message && msg.error !== "watching_only") {
      this.say(msg.message);
    }
  }

  /** A player's reaction: a bubble on their plate for a few seconds, said aloud. */
  reaction(msg) {
    const shown = reactionOf(msg.reaction);
    const room = this.state?.room;
    if (!shown || typeof msg.seat !== "number" || !room) return;
    this.bubbles = this.bubbles || {};
    window.clearTimeout(this.bubbles[msg.seat]?.timer);
    const timer = window.setTimeout(() => {
      delete this.bubbles[msg.seat];
      if (!this.destroyed) this.scheduleRender();
    }, BUBBLE_MS);
    this.bubbles[msg.seat] = { id: msg.reaction, text: shown.text, timer };
    announce(`${seatNames(room, null, "watch").name(msg.seat)}: ${shown.words}.`);
    this.scheduleRender();
  }

  scheduleRender() {
    window.clearTimeout(this.renderTimer);
    this.renderTimer = window.setTimeout(() => this.render(), 16);
  }

  render() {
    window.clearTimeout(this.renderTimer);
    const state = this.state;
    if (!state || !state.room) {
      fill(this.container, loadingPage("Finding the game…"));
      return;
    }
    const room = state.room;
    const view = state.view || null;
    const names = seatNames(room, null, "watch");
    if (view) this.tell(room, view, names);
    this.noteDeadline(room);
    const freshPile = Boolean(view) && this.lastPileSize !== null && view.pile_size > this.lastPileSize;
    this.lastPileSize = view ? view.pile_size : null;
    const model = {
      token: this.token,
      room,
      view,
      version: state.version,
      seat: -1,
      watching: true,
      covered: false,
      names,
      lifted: null,
      stack: [],
      turned: false,
      picker: null,
      pending: false,
      settings: settings(),
      sort: settings().sort,
      focus: null,
      connection: this.connection,
      showHistory: this.showHistory,
      ticker: this.ticker,
      width: this.width,
      freshPile,
      resultsFresh: false,
      timerText: this.timerText(),
      waitingPanel: view ? null : [
        h("p", { class: "waiting-friend", role: "status" }, "The game has not started yet. It shows here once it does."),
        houseNotes(room.house)],
      seatFree: null,
      confirmReset: false,
      bridgeSecs: null,
      held: [],
      canFinish: false,
      confirmFinish: false,
      bubbles: this.bubbles || {},
    };
    const active = document.activeElement;
    const focusTestid = active && this.container.contains(active) ? active.getAttribute("data-testid") : null;
    fill(this.container, renderTable(model, this.callbacks()));
    if (focusTestid) this.container.querySelector(`[data-testid="${focusTestid}"]`)?.focus({ preventScroll: true });
    document.title = `Watching ${variantTitle(room.variant)} · Eights`;
  }

  /** The moves since the last state, in words: the ticker and the live region. */
  tell(room, view, names) {
    const key = `${room.round}:${view.hand_no}`;
    const log = Array.isArray(view.log) ? view.log : [];
    if (this.logKey === null) {
      this.logKey = key;
      this.logLen = log.length;
      this.say(view.hand_over ? handOverSentence(view.hand_over, names) : "You are watching this game.");
      return;
    }
    let fresh = [];
    const sentences = [];
    if (key !== this.logKey) {
      fresh = log;
      sentences.push(room.variant === "duo" || view.hand_no === 0 ? "A new round is dealt." : "The next hand is dealt.");
    } else if (log.length >= this.logLen) {
      fresh = log.slice(this.logLen);
    }
    this.logKey = key;
    this.logLen = log.length;
    sentences.push(...describeEvents(fresh, names, view.options || {}));
    if (fresh.some((e) => e.type === "played")) sound("play");
    if (sentences.length) this.say(sentences.join(" "));
  }

  say(text) {
    this.ticker = text;
    announce(text);
    const ticker = this.container.querySelector("[data-testid=ticker]");
    if (ticker) ticker.textContent = text;
  }

  noteDeadline(room) {
    const deadline = room.deadline;
    if (!deadline || deadline === this.deadlineSeen) return;
    this.deadlineSeen = deadline;
    const full = (room.timer || 0) * 1000;
    const raw = deadline - Date.now();
    this.deadlineOffset = raw > full + 1500 || raw < -1500 ? Date.now() + full - deadline : 0;
  }

  timerText() {
    const deadline = this.state?.room?.deadline;
    if (!deadline) return "";
    return `${Math.ceil(Math.max(0, deadline + this.deadlineOffset - Date.now()) / 1000)}s`;
  }

  tick() {
    const text = this.timerText();
    if (!text) return;
    for (const el of this.container.querySelectorAll("[data-testid=timer]")) {
      if (el.textContent !== text) el.textContent = text;
    }
  }

  callbacks() {
    const room = () => this.state?.room;
    return {
      help: () => {
        const variant = room()?.variant;
        if (variant) openHelp(variant, variantTitle(variant));
      },
      toggleSound: () => {
        const on = !settings().sound;
        saveSettings({ sound: on });
        this.say(on ? "Sound on." : "Sound off.");
      },
      openSettings: () => openSettings({ variant: room()?.variant }),
      toggleHistory: () => {
        this.showHistory = !this.showHistory;
        this.render();
        if (this.showHistory) this.container.querySelector("#history-panel")?.scrollIntoView({ block: "nearest" });
      },
      restart: () => {},
      saveRecord: () => {},
    };
  }
}

/** Watching is not possible: a private table, or the host switched watching off. */
export function notWatchablePage() {
  return h("main", { class: "page narrow", testid: "no-spectators" },
    h("div", { class: "page-icon", "aria-hidden": "true" }, "\u25c9"),
    h("h1", {}, "This game cannot be watched"),
    h("p", {}, "The table is not public, or its host has switched watching off. Other games may be open to watch."),
    h("div", { class: "page-actions" },
      h("a", { class: "btn primary", href: "/lobby", "data-link": "", testid: "to-lobby" }, "Open tables"),
      h("a", { class: "btn", href: "/", "data-link": "" }, "Home")));
}

