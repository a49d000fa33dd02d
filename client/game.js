// One table in this browser: the socket, the states of the seats held here, what the
// player has lifted, the keyboard, announcements, sounds and statistics. It renders
// with table/stage.js and never decides a rule: it sends the legal actions the server listed.
import { api, actionId, entropy, TableSocket } from "./api.js";
import { announce, fill, h, redrawOnResize, toast } from "./dom.js";
import { cardName, suitName } from "./cards.js";
import { DEFAULT_NAME, describeEvents, handOverSentence, roomChanges, seatNames } from "./narrate.js";
import { invitePanel } from "./table/invite.js";
import { sound } from "./sound.js";
import { countHand, forgetTable, saveSettings, saveTable, savedTable, settings, touchTable } from "./storage.js";
import { openSettings } from "./settings.js";
import { houseNotes } from "./house.js";
import { tableKey } from "./table/keys.js";
import { handMetrics } from "./table/hand.js";
import { addableCards, exactPlay, legalOf, needsSuit, playableCards, playsStarting } from "./table/legal.js";
import { hideNote, showNote } from "./table/messages.js";
import { renderTable } from "./table/stage.js";
import { menuCallbacks } from "./table/menu.js";
import { gonePage, lostSeatPage } from "./pages.js";
import { navigate } from "./nav.js";
import { BackgroundSignals } from "./signals.js";
import { BUBBLE_MS, muteReactions, reactionOf, reactionsMuted } from "./table/reactions.js";

const PENDING_MS = 8000;
const RANK_WORD = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
const ORDINAL = { 2: "second", 3: "third", 4: "fourth" };

export class TableSession {
  /**
   * `entry`: the saved table {token, mode, variant, credentials: {seat: cred}, link}.
   * `states`: state messages already in hand (from create or join), shown at once.
   */
  constructor(container, entry, states = []) {
    this.container = container;
    this.entry = entry;
    this.token = entry.token;
    this.held = Object.keys(entry.credentials || {}).map(Number).sort((a, b) => a - b);
    this.states = {};
    this.room = null;
    this.version = 0;
    this.connection = "connecting";
    this.lifted = null;
    this.stacked = [];
    this.picker = null;
    this.focus = null;
    this.pending = null;
    this.revealedKey = null;
    this.lastDisplayed = this.held[0] ?? 0;
    this.announcedVersion = 0;
    this.logKey = null;
    this.logLen = 0;
    this.ticker = "";
    this.showHistory = false;
    this.lastPileSize = null;
    this.deadlineSeen = null;
    this.deadlineOffset = 0;
    this.hintId = null;
    this.renderTimer = null;
    this.news = [];
    /** The title, favicon dot, sound and notification while the page is in the background. */
    this.signals = new BackgroundSignals();
    /** Requests sent by the Menu (leave, end, spectators): id -> {done(result), failed(error)}. */
    this.asked = new Map();
    this.leaving = null;
    /** Reactions shown now: seat -> {id, text, timer}; the menu open or not. */
    this.bubbles = {};
    this.reactOpen = false;
    this.answers = Boolean(settings().computerReactions);
    this.width = window.innerWidth;
    for (const st of states) this.takeState(st, { quiet: true });

    this.onKey = (e) => tableKey(this, e);
    this.onResize = redrawOnResize(this, () => JSON.stringify(handMetrics()));
    this.onSettings = () => {
      const answers = Boolean(settings().computerReactions);
      if (answers !== this.answers && this.room?.mode === "computer") {
        this.socket?.send({ type: "computer_reactions", on: answers });
      }
      this.answers = answers;
      this.render();
    };
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", this.onResize);
    document.addEventListener("eights:settings", this.onSettings);
    this.clock = window.setInterval(() => this.tick(), 250);
    this.render();
    this.socket = new TableSocket(this.token, Object.values(entry.credentials || {}), {
      message: (msg) => this.message(msg),
      status: (status, detail) => this.status(status, detail),
    }, { hello: () => ({ computer_reactions: Boolean(settings().computerReactions) }) });
  }

  destroy() {
    for (const shown of Object.values(this.bubbles)) window.clearTimeout(shown.timer);
    this.bubbles = {};
    this.socket?.close();
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    document.removeEventListener("eights:settings", this.onSettings);
    window.clearInterval(this.clock);
    window.clearTimeout(this.renderTimer);
    window.clearTimeout(this.pendingTimer);
    this.signals.destroy();
    document.title = "Eights";
    menuCallbacks(this).closeDialogs();
  }

  // ---- the socket ------------------------------------------------------------------
  status(status, detail) {
    // A socket that was open once and connects again is "reconnecting" to the player.
    if (status === "open") this.wasOpen = true;
    this.connection = status === "connecting" && this.wasOpen ? "reconnecting" : status;
    if (status === "open" && this.pending?.message) {
      // A move made while the connection was away (or lost with it) goes again, under its
      // own id: the server applies it once, or answers that it has already.
      this.pending.delayed = true;
      this.socket.send(this.pending.message);
      this.armPending();
    }
    if (status === "fatal") {
      const code = detail?.error || "bad_credential";
      if (this.leaving && code === "bad_credential") {
        // The seat is the computer's now: the server closes this device's socket.
        this.leftTable();
        return;
      }
      if (code === "room_expired" || code === "room_not_found") {
        forgetTable(this.token);
        this.destroy();
        fill(this.container, gonePage());
        return;
      }
      const mine = this.room?.seats?.[this.held[0]];
      if (code === "bad_credential" && mine?.left) {
        // Left from another device of theirs: this one forgets the seat too.
        forgetTable(this.token);
        this.destroy();
        fill(this.container, lostSeatPage(this.token, "You left this table from another device; the computer plays your seat now."));
        return;
      }
      this.destroy();
      fill(this.container, lostSeatPage(this.token, detail?.message));
      return;
    }
    this.scheduleRender();
  }

  message(msg) {
    switch (msg.type) {
      case "welcome":
        if (Array.isArray(msg.seats) && msg.seats.length) this.held = msg.seats;
        break;
      case "state":
        this.takeState(msg);
        break;
      case "result":
        if (msg.id && this.asked.has(msg.id)) {
          const asked = this.asked.get(msg.id);
          this.asked.delete(msg.id);
          asked.done(msg);
          break;
        }
        if (this.pending && msg.id === this.pending.id) {
          if (this.pending.delayed) this.say("Your move went through.");
          this.pending.message = null; // answered: never sent again
          // Stay pending until the state it made arrives, so the old one is not offered again.
          if (typeof msg.version === "number" && msg.version > this.version) this.pending.version = msg.version - 1;
          else this.clearPending();
        }
        break;
      case "hint":
        this.showHint(msg);
        break;
      case "reaction":
        this.reaction(msg);
        break;
      case "error":
        this.error(msg);
        break;
      default:
        break;
    }
  }

  error(msg) {
    if (msg.id && this.asked.has(msg.id)) {
      const asked = this.asked.get(msg.id);
      this.asked.delete(msg.id);
      asked.failed(msg);
      return;
    }
    const aboutHint = this.hintId && (msg.id === this.hintId || (!msg.id && msg.error === "bad_request"));
    if (aboutHint) {
      this.hintId = null;
      this.say("Hints are not available at this table yet.");
      return;
    }
    const delayed = Boolean(this.pending?.delayed) && msg.id === this.pending.id;
    if (this.pending && (!msg.id || msg.id === this.pending.id)) this.clearPending();
    if (msg.error === "stale_version") {
      this.say(delayed
        ? "Your move could not be made: the table moved on while you were away. Here it is now."
        : "The table moved on; here it is now.");
      return;
    }
    if (delayed) {
      sound("error");
      this.say(`Your move could not be made: ${REFUSALS[msg.error] || msg.message || "the table refused it."}`);
      return;
    }
    sound("error");
    this.say(REFUSALS[msg.error] || msg.message || "That did not work.");
  }

  /**
   * Send a Menu request (leave, end, spectators) with an id; `done` gets its result and
   * `failed` its refusal (the refusal is said unless `failed` returns true).
   */
  ask(message, { done, failed = () => false }) {
    const id = actionId();
    if (!this.send({ ...message, id })) return false;
    this.asked.set(id, {
      done,
      failed: (err) => {
        if (failed(err)) return;
        sound("error");
        this.say(REFUSALS[err.error] || err.message || "That did not work.");
      },
    });
    return true;
  }

  /** A friend leaves the table for good: the computer plays their seat from now on. */
  leave() {
    if (this.room?.mode !== "online" || this.held.includes(0)) return;
    const sent = this.ask({ type: "leave" }, {
      done: () => this.leftTable(),
      failed: () => {
        this.leaving = null;
        return false;
      },
    });
    if (sent) {
      this.leaving = { seat: this.held[0] };
      this.say("Leaving the table…");
    }
  }

  /** After leaving: this browser forgets the seat and goes home (once). */
  leftTable() {
    if (!this.leaving || this.leaving.done) return;
    this.leaving.done = true;
    forgetTable(this.token);
    this.destroy();
    navigate("/", { replace: true });
    const words = "You left the table; the computer plays your seat.";
    announce(words);
    toast(words);
  }

  /** A reaction heard: a bubble on the sender's plate for a few seconds, and
   * its words in the live region; nothing while this table's reactions are muted. */
  reaction(msg) {
    const shown = reactionOf(msg.reaction);
    if (!shown || typeof msg.seat !== "number" || !this.room || reactionsMuted(this.token)) return;
    window.clearTimeout(this.bubbles[msg.seat]?.timer);
    const timer = window.setTimeout(() => {
      delete this.bubbles[msg.seat];
      this.scheduleRender();
    }, BUBBLE_MS);
    this.bubbles[msg.seat] = { id: msg.reaction, text: shown.text, timer };
    const mode = this.room.mode;
    const names = seatNames(this.room, mode === "local" ? null : this.held[0], mode);
    const who = this.held.includes(msg.seat) && mode !== "local" ? "You" : names.name(msg.seat);
    announce(`${who}: ${shown.words}.`);
    this.scheduleRender();
  }

  /** Send a reaction from the menu (which closes). */
  react(id) {
    this.reactOpen = false;
    this.ask({ type: "react", reaction: id }, {
      done: () => {},
      failed: (err) => {
        if (err.error !== "too_many_reactions") return false;
        this.say("Too many reactions: wait a moment.");
        return true;
      },
    });
    this.render();
    this.container.querySelector("[data-testid=reactions-button]")?.focus();
  }

  toggleReactions() {
    this.reactOpen = !this.reactOpen;
    this.render();
    const target = this.reactOpen ? "[data-testid=reaction-menu] button" : "[data-testid=reactions-button]";
    this.container.querySelector(target)?.focus();
  }

  setReactionsMuted(muted) {
    muteReactions(this.token, muted);
    if (muted) {
      for (const shown of Object.values(this.bubbles)) window.clearTimeout(shown.timer);
      this.bubbles = {};
    }
    this.say(muted ? "Reactions muted at this table." : "Reactions on at this table.");
    this.render();
  }

  /** The host ends the game for everyone: the table is closed, no more moves. */
  endGame() {
    if (!this.held.includes(0) || this.room?.closed) return;
    if (this.ask({ type: "end" }, { done: () => {} })) this.say("Ending the game…");
  }

  /** The host lets people watch this public table, or stops them. */
  allowSpectators(allowed) {
    if (!this.held.includes(0) || !this.room?.public) return;
    this.ask({ type: "spectators", allowed }, {
      done: (result) => {
        const on = result.watchable ?? allowed;
        this.say(on ? "People may watch this table." : "Watching is off: nobody watches this table now.");
      },
    });
  }

  takeState(msg, { quiet = false } = {}) {
    if (typeof msg.seat !== "number") return;
    if (typeof msg.now === "number") this.serverSkew = Date.now() - msg.now;
    const before = this.states[msg.seat];
    if (before && before.version > msg.version) return;
    this.states[msg.seat] = msg;
    if (msg.version >= this.version) {
      if (this.room && msg.room && !quiet && msg.version > this.version) {
        const mode = msg.room.mode || this.entry.mode;
        const names = seatNames(msg.room, mode === "local" ? null : this.held[0], mode);
        this.news.push(...roomChanges(this.room, msg.room, names));
        this.signalRoom(this.room, msg.room, names, mode);
      }
      this.version = msg.version;
      this.room = msg.room;
    }
    if (this.pending && msg.version > this.pending.version) this.clearPending();
    if (!quiet) this.scheduleRender();
  }

  /** A friend joined, or agreed to the next round while this device has not: a signal when
   * the page is in the background (signals.js). */
  signalRoom(before, after, names, mode) {
    const was = before?.seats || [];
    for (const [i, seat] of (after?.seats || []).entries()) {
      const old = was[i];
      if (!old || this.held.includes(i) || seat.kind !== "human") continue;
      if (seat.taken && !old.taken) {
        this.signals.signal(`${names.name(i)} joined`, { mode, tag: this.token });
      } else if (seat.agreed && !old.agreed && after.hand_over && this.held.some((h) => !after.seats[h]?.agreed)) {
        this.signals.signal(`${names.name(i)} is ready for the next ${this.room?.variant === "duo" ? "round" : "hand"}`, { mode, tag: this.token });
      }
    }
  }

  clearPending() {
    this.pending = null;
    window.clearTimeout(this.pendingTimer);
    this.scheduleRender();
  }

  /** A move sent waits for its answer: given up after PENDING_MS with the connection open
   * (the table is shown as it is), kept while the connection is away (sent again on it). */
  armPending() {
    window.clearTimeout(this.pendingTimer);
    this.pendingTimer = window.setTimeout(() => {
      if (!this.pending) return;
      if (this.connection === "open") this.clearPending();
      else this.armPending();
    }, PENDING_MS);
  }

  send(message) {
    if (this.socket.send(message)) return true;
    this.say("Not connected. Reconnecting…");
    this.socket.reconnectNow();
    return false;
  }

  // ---- which seat this screen shows ------------------------------------------------
  newest() {
    let best = null;
    for (const st of Object.values(this.states)) if (!best || st.version > best.version) best = st;
    return best;
  }

  /** {state, seat, covered}: the state shown, for which seat, and whether it is covered. */
  display() {
    const newest = this.newest();
    if (!newest) return null;
    const mode = this.room?.mode || this.entry.mode;
    if (mode !== "local" || !newest.view) {
      const seat = this.held.find((s) => this.states[s]) ?? newest.seat;
      return { state: this.states[seat] || newest, seat, covered: false };
    }
    const view = newest.view;
    if (view.hand_over) {
      const seat = this.states[this.lastDisplayed] ? this.lastDisplayed : newest.seat;
      return { state: this.states[seat], seat, covered: false };
    }
    // 101: while a bridge may be declared, the device stays with the seat that laid it.
    const bridging = view.bridge && this.bridgeSecs() && this.held.includes(view.bridge.seat);
    const seat = bridging ? view.bridge.seat : view.turn;
    const own = this.states[seat];
    const key = `${newest.room.round}:${view.hand_no}:${seat}`;
    const fresh = own && own.version === newest.version;
    const covered = this.revealedKey !== key || !fresh;
    return { state: fresh ? own : newest, seat, covered, key };
  }

  // ---- rendering ---------------------------------------------------------------------
  scheduleRender() {
    window.clearTimeout(this.renderTimer);
    this.renderTimer = window.setTimeout(() => this.render(), 16);
  }

  render() {
    window.clearTimeout(this.renderTimer);
    const shown = this.display();
    if (!shown || !this.room) {
      // Nothing to show yet: the page may have opened from the service worker's cache with
      // the network gone (sw.js), and says so until the table comes.
      const away = this.connection !== "connecting" && this.connection !== "open";
      const offline = this.connection === "offline" || !navigator.onLine;
      fill(this.container, h("div", { class: "loading", testid: "loading" }, "Opening the table…",
        away || offline ? h("p", { class: "conn-note", testid: "connection", role: "status" }, offline
          ? "You're offline: the table will come back when the network does."
          : "Reconnecting…") : null));
      return;
    }
    const { state, seat, covered } = shown;
    const lost = this.held.some((s) => this.room.seats[s] && (!this.room.seats[s].taken || this.room.seats[s].left));
    if (this.room.mode === "online" && lost && this.leaving) {
      this.leftTable();
      return;
    }
    if (this.room.mode === "online" && this.held.some((s) => this.room.seats[s] && !this.room.seats[s].taken)) {
      // The host freed this seat: its credential no longer works.
      this.destroy();
      fill(this.container, lostSeatPage(this.token, "The host freed this seat, so this browser no longer holds it."));
      return;
    }
    if (!covered) this.lastDisplayed = seat;
    const mode = this.room.mode;
    const me = mode === "local" ? seat : this.held[0];
    const names = seatNames(this.room, me, mode);
    let view = state.view;
    if (view && covered) view = publicOnly(view);
    // The host ended the game: the hand stays in sight, with no move to make.
    if (view && this.room.closed) view = { ...view, legal: [], unplayable: {}, drawn: null };
    if (view) this.afterState(state, view, seat, names, covered);
    const news = this.takeNews();
    if (news.length) this.say(news.join(" "));
    if (!view || !view.legal || !view.legal.length) {
      this.lifted = null;
      this.stacked = [];
      this.picker = null;
    } else if (this.lifted && !playsStarting(view, this.liftedCards()).length) {
      this.lifted = null;
      this.stacked = [];
      this.picker = null;
    }
    const turned = Boolean(view && this.lastDirection !== undefined && view.direction !== this.lastDirection);
    this.lastDirection = view ? view.direction : undefined;
    const freshPile = view && this.lastPileSize !== null && view.pile_size !== this.lastPileSize
      && view.pile_size > this.lastPileSize;
    this.lastPileSize = view ? view.pile_size : null;
    const resultsKey = view && view.hand_over && !covered ? `${this.room.round}:${view.hand_no}` : null;
    const resultsFresh = Boolean(resultsKey) && resultsKey !== this.lastResultsKey;
    this.lastResultsKey = resultsKey;
    const model = {
      token: this.token,
      room: this.room,
      view,
      version: this.version,
      seat,
      covered,
      names,
      lifted: this.lifted,
      stack: this.liftedCards(),
      turned,
      picker: this.picker,
      pending: this.pending ? { action: this.pending.action || null, waiting: this.connection !== "open" } : null,
      settings: settings(),
      sort: settings().sort,
      focus: this.focus,
      connection: this.connection,
      showHistory: this.showHistory,
      ticker: this.ticker,
      width: this.width,
      freshPile,
      resultsFresh,
      timerText: this.timerText(),
      waitingPanel: view ? null : this.waitingPanel(),
      seatFree: view ? this.seatFreePanel() : null,
      confirmReset: this.confirmReset,
      bridgeSecs: this.bridgeSecs(),
      held: this.held,
      canFinish: Boolean(this.room.can_finish) && this.held.includes(0),
      confirmFinish: this.confirmFinish,
      bubbles: this.bubbles,
      reactOpen: this.reactOpen,
      reactionsMuted: reactionsMuted(this.token),
    };
    const signature = JSON.stringify([
      state.version, state.seat, state.room, view, covered, this.liftedCards(), this.picker,
      model.pending, model.settings, this.focus, this.connection, this.showHistory,
      this.confirmReset,
      this.width,
      this.layoutKey,
      model.bridgeSecs !== null && model.bridgeSecs > 0,
      this.confirmFinish,
      Object.entries(this.bubbles).map(([seat, b]) => `${seat}:${b.id}:${b.timer}`),
      this.reactOpen,
      model.reactionsMuted,
    ]);
    if (signature === this.lastSignature && this.container.querySelector("[data-testid=table]")) return;
    this.lastSignature = signature;
    const active = document.activeElement;
    const hadFocus = active && this.container.contains(active);
    const focusCard = hadFocus && active.dataset?.card && active.closest("[data-testid=hand]") ? active.dataset.card : null;
    const focusTestid = hadFocus ? active.getAttribute("data-testid") : null;
    const root = renderTable(model, this.callbacks());
    fill(this.container, root);
    this.restoreFocus(root, { hadFocus, focusCard, focusTestid, covered });
    this.signals.title(view && view.legal && view.legal.length && !covered ? "Your turn · Eights" : "Eights");
    const facts = {
      mode,
      variant: this.room.variant,
      players: this.room.players,
      round: this.room.round,
      names: this.room.seats.map((s) => s.name),
      waiting: !view,
      over: Boolean(this.room.game_over),
      closed: Boolean(this.room.closed),
    };
    const key = JSON.stringify(facts);
    if (key !== this.savedFacts) {
      this.savedFacts = key;
      touchTable(this.token, facts);
    }
  }

  restoreFocus(root, { hadFocus, focusCard, focusTestid, covered }) {
    if (covered) {
      root.querySelector("[data-testid=reveal]")?.focus();
      return;
    }
    if (!hadFocus) return;
    let target = null;
    if (focusCard) {
      target = root.querySelector(`[data-testid=hand] [data-card="${focusCard}"]`)
        || root.querySelector("[data-testid=hand] [tabindex='0']");
    } else if (focusTestid) {
      target = root.querySelector(`[data-testid="${focusTestid}"]`);
    }
    if (!target && root.querySelector("[data-testid=new-round]")) target = root.querySelector("[data-testid=new-round]");
    // What had the focus is gone (a suit picker closed, a card played): back to the hand,
    // so the arrows go on working rather than the focus falling to the page.
    if (!target) target = root.querySelector("[data-testid=hand] [tabindex='0']");
    target?.focus({ preventScroll: true });
  }

  waitingPanel() {
    const room = this.room;
    const link = this.entry.link || `${window.location.origin}/t/${this.token}`;
    if (room.mode === "online" && this.held.includes(0) && room.seats.some((s) => !s.taken)) {
      if (room.players > 2) return [invitePanel(link, { many: true }), this.seatsPanel(), houseNotes(room.house)];
      return [invitePanel(link), houseNotes(room.house)];
    }
    const leave = room.mode === "online" && this.held.length && !this.held.includes(0) && !room.closed
      ? h("p", { class: "small" }, h("button", {
        type: "button",
        class: "linkish",
        testid: "waiting-leave",
        onclick: () => this.callbacks().askLeave(),
      }, "Leave this table"))
      : null;
    // A guest who sat down at a larger table: who sits where, the seats still awaited and
    // the computer's, and that the host may start (issue 30), not an empty wait.
    const guest = room.mode === "online" && this.held.length && !this.held.includes(0) && room.players > 2;
    return [h("p", { class: "waiting-friend", role: "status" }, "Waiting for the table to start…"),
      guest && !room.closed ? this.seatsPanel({ host: false }) : null, leave, houseNotes(room.house)];
  }

  /** The list of seats at a larger table before the deal: who sat down, who is still
   * awaited and the computer's seats; for the host, Start now (the seats still free go to
   * the computer), for a guest, that the host may start. */
  seatsPanel({ host = true } = {}) {
    const room = this.room;
    const me = this.held[0] ?? 0;
    const names = seatNames(room, me, room.mode);
    const rows = room.seats.map((s) => h("li", { testid: "seat-row", dataset: { seat: String(s.seat), kind: s.kind, taken: s.taken ? "true" : "false" } },
      s.kind === "bot" ? `${names.name(s.seat)} (computer, ${s.level || "medium"})`
        : s.taken ? `${names.name(s.seat)}${s.seat === me ? " (you)" : s.seat === 0 ? " (host)" : ""}`
          : "Waiting for a friend…"));
    const free = room.seats.filter((s) => !s.taken).length;
    if (!host) {
      const hostName = DEFAULT_NAME.test(room.seats[0]?.name || "") ? "the host" : room.seats[0].name;
      const rest = free === 1 ? "the computer plays the free seat" : `the computer plays the ${free} free seats`;
      return h("section", { class: "seats-panel", "aria-label": "Seats", testid: "waiting-seats" },
        h("h2", {}, "Seats"),
        h("ol", { class: "seat-list" }, rows),
        h("p", { class: "small", testid: "waiting-start-note" },
          `The game starts when every seat is taken, or when ${hostName} starts it: then ${rest} until a friend comes.`));
    }
    return h("section", { class: "seats-panel", "aria-label": "Seats" },
      h("h2", {}, "Seats"),
      h("ol", { class: "seat-list" }, rows),
      h("button", {
        type: "button",
        class: "btn",
        testid: "start-now",
        onclick: () => {
          if (this.send({ type: "start", id: actionId() })) this.say("Starting the table…");
        },
      }, free === 1 ? "Start now: the computer takes the free seat" : `Start now: the computer takes the ${free} free seats`));
  }

  /** A game going on with the friend's seat free again: the invitation, over the table. */
  seatFreePanel() {
    const room = this.room;
    if (room.mode !== "online" || !this.held.includes(0) || !room.seats.some((s) => !s.taken)) return null;
    const link = this.entry.link || `${window.location.origin}/t/${this.token}`;
    return invitePanel(link, { again: true });
  }

  async resetSeat(seat) {
    this.confirmReset = false;
    try {
      await api.resetSeat(this.token, Object.values(this.entry.credentials || {}), seat);
      this.say("The seat is free. Send the invitation again.");
    } catch (err) {
      this.say(err.status === 404 ? "This server cannot free a seat yet." : err.message);
    }
    this.render();
  }

  callbacks() {
    return {
      react: (id) => this.react(id),
      toggleReactions: () => this.toggleReactions(),
      muteReactions: (muted) => this.setReactionsMuted(muted),
      card: (code) => this.tapCard(code),
      explain: (code) => this.explain(code),
      explainStock: () => this.explainStock(),
      order: () => this.orderSuit(),
      playLifted: () => this.playLifted(),
      playDrawn: () => this.playDrawn(),
      suit: (s) => this.nameSuit(s),
      drop: () => this.drop(),
      draw: () => this.simple("draw"),
      keep: () => this.simple("keep"),
      pass: () => this.simple("pass"),
      take: () => this.simple("take"),
      bridge: () => this.declareBridge(),
      askFinish: () => this.askFinish(),
      cancelFinish: () => {
        this.confirmFinish = false;
        this.render();
      },
      finish: () => this.finish(),
      agree: () => this.agree(),
      reveal: () => this.reveal(),
      sort: () => this.sort(),
      hint: () => this.hint(),
      undo: () => this.undo(),
      pause: () => this.pause(),
      fullscreen: () => this.fullscreen(),
      toggleSound: () => this.toggleSound(),
      openSettings: () => openSettings({ variant: this.room?.variant }),
      toggleHistory: () => {
        this.showHistory = !this.showHistory;
        this.render();
        if (this.showHistory) this.container.querySelector("#history-panel")?.scrollIntoView({ block: "nearest" });
      },
      saveRecord: () => this.saveRecord(),
      rematch: () => this.rematch(),
      askReset: () => {
        this.confirmReset = true;
        this.render();
        this.container.querySelector("[data-testid=reset-seat-confirm]")?.focus();
      },
      cancelReset: () => {
        this.confirmReset = false;
        this.render();
      },
      resetSeat: (seat) => this.resetSeat(seat),
      showReason: (code, el, reason) => this.showReason(el, reason),
      hideReason: () => this.hideReason(),
      ...menuCallbacks(this),
    };
  }

  // ---- what a new state means: words, sounds, statistics ------------------------------
  afterState(state, view, seat, names, covered) {
    if (state.version <= this.announcedVersion) return;
    const first = this.announcedVersion === 0;
    this.announcedVersion = state.version;
    const key = `${state.room.round}:${view.hand_no}`;
    const log = Array.isArray(view.log) ? view.log : [];
    const wasMine = this.wasMyTurn;
    const mine = Boolean(view.legal && view.legal.length) && !covered;
    this.wasMyTurn = mine;
    this.noteDeadline();
    if (first) {
      this.logKey = key;
      this.logLen = log.length;
      if (mine) this.say(this.room.mode === "local" ? `${names.name(seat)}, your turn.` : "Your turn.", { quietToast: true });
      else if (view.hand_over) this.say(handOverSentence(view.hand_over, names), { quietToast: true });
      this.countStats(state, view, seat);
      return;
    }
    let fresh;
    const sentences = this.takeNews();
    if (key !== this.logKey) {
      fresh = log;
      sentences.push(this.room.variant === "duo" || view.hand_no === 0 ? "A new round is dealt." : "The next hand is dealt.");
    } else if (log.length < this.logLen) {
      fresh = [];
      sentences.push("Moves were taken back.");
    } else {
      fresh = log.slice(this.logLen);
    }
    this.logKey = key;
    this.logLen = log.length;
    sentences.push(...describeEvents(fresh, names, view.options || {}));
    this.playSounds(fresh, view, seat);
    if (mine && !wasMine && !view.hand_over) {
      this.signals.signal("Your turn", { mode: this.room.mode, tag: this.token });
      sentences.push(this.room.mode === "local" ? `${names.name(seat)}, your turn.` : "Your turn.");
      if (this.room.mode !== "local" && fresh.some((e) => e.seat !== seat)) sound("turn");
    }
    const bridgeKey = view.bridge && !view.hand_over ? `${key}:${log.length}:${view.bridge.seat}` : null;
    if (bridgeKey && bridgeKey !== this.bridgeSaid && this.room.bridge_deadline) {
      this.bridgeSaid = bridgeKey;
      sentences.push(this.held.includes(view.bridge.seat)
        ? "A bridge! Declare it within 10 seconds with Bridge (B)."
        : `${names.name(view.bridge.seat)} may declare a bridge.`);
    }
    if (covered) sentences.push(`Pass the device to ${names.name(view.turn)}.`);
    if (sentences.length) this.say(sentences.join(" "), { quietToast: true });
    if (view.hand_over) this.countStats(state, view, seat);
  }

  /** What changed at the table since the last state (who left, who is away or back, who
   * took an open seat, the game ended), said once. */
  takeNews() {
    const news = this.news;
    this.news = [];
    return news;
  }

  playSounds(events, view, seat) {
    const mode = this.room.mode;
    for (const e of events) {
      if (e.type === "played") {
        sound(e.suit ? "eight" : "play");
        break;
      }
      if (e.type === "drew" || e.type === "took") {
        sound("draw");
        break;
      }
    }
    const over = events.find((e) => e.type === "hand_over");
    if (over) {
      const won = mode !== "local" && (over.winners || []).length === 1 && over.winners[0] === seat;
      window.setTimeout(() => sound(won || mode === "local" ? "win" : "lose"), 250);
    }
  }

  countStats(state, view, seat) {
    if (!view.hand_over) return;
    const mode = this.room.mode;
    const result = view.hand_over;
    const single = mode !== "local";
    countHand(`${this.token}:${state.room.round}:${view.hand_no}`, {
      mode,
      variant: this.room.variant,
      won: single ? result.winners.length === 1 && result.winners[0] === seat : null,
      gameOver: Boolean(view.game_over),
      gameWon: single && view.game_over ? view.game_over.winners.includes(seat) : false,
    });
  }

  /** The table's one message area (table/messages.js) and the live region; no toast over the hand. */
  say(text) {
    this.ticker = text;
    announce(text);
    const ticker = this.container.querySelector("[data-testid=ticker]");
    if (ticker) ticker.textContent = text;
  }

  // ---- the turn clock ---------------------------------------------------------------
  noteDeadline() {
    const deadline = this.room?.deadline;
    if (!deadline || deadline === this.deadlineSeen) return;
    this.deadlineSeen = deadline;
    const full = (this.room.timer || 0) * 1000;
    const raw = deadline - Date.now();
    // A clock that disagrees with the server's: count the whole turn from now.
    this.deadlineOffset = raw > full + 1500 || raw < -1500 ? Date.now() + full - deadline : 0;
  }

  timerLeft() {
    const deadline = this.room?.deadline;
    if (!deadline) return null;
    return Math.max(0, deadline + this.deadlineOffset - Date.now());
  }

  timerText() {
    const left = this.timerLeft();
    if (left === null) return "";
    return `${Math.ceil(left / 1000)}s`;
  }

  /** 101: whole seconds left to declare the bridge on the table, or null (no window). */
  bridgeSecs() {
    const deadline = this.room?.bridge_deadline;
    if (!deadline) return null;
    const left = deadline - (Date.now() - (this.serverSkew || 0));
    return Math.max(0, Math.ceil(left / 1000));
  }

  tickBridge() {
    const secs = this.bridgeSecs();
    if (secs === null) return;
    const text = `(${secs} s)`;
    for (const el of this.container.querySelectorAll("[data-testid=bridge-secs]")) {
      if (el.textContent !== text) el.textContent = text;
    }
    if (secs <= 0 && this.container.querySelector("[data-testid=bridge-secs]")) this.scheduleRender();
  }

  tick() {
    this.tickBridge();
    const left = this.timerLeft();
    if (left === null) return;
    const text = this.timerText();
    for (const el of this.container.querySelectorAll("[data-testid=timer]")) {
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("low", left < 6000);
    }
    const secs = Math.ceil(left / 1000);
    if (this.wasMyTurn && secs <= 5 && secs > 0 && secs !== this.lastTick) {
      this.lastTick = secs;
      sound("tick");
    }
  }

  // ---- playing ---------------------------------------------------------------------
  current() {
    if (this.room?.closed) return null;
    const shown = this.display();
    if (!shown || shown.covered || !shown.state.view) return null;
    return shown;
  }

  act(action) {
    const shown = this.current();
    if (!shown) return;
    if (this.pending) return;
    const bridge = shown.state.view.bridge;
    if (bridge && !this.held.includes(bridge.seat) && this.bridgeSecs()) {
      // The server would refuse it (bridge_pending): say so instead.
      this.say(`Wait: ${seatNames(this.room, shown.seat, this.room.mode).name(bridge.seat)} may declare a bridge.`);
      return;
    }
    const id = actionId();
    const message = { type: "act", seat: shown.seat, version: shown.state.version, id, action };
    this.pending = { id, version: shown.state.version, message, action, delayed: false };
    if (!this.socket.send(message)) {
      // Not connected: the move is kept, shown as waiting, and sent once the table is back.
      this.pending.delayed = true;
      this.say("Not connected: your move waits and goes as soon as the table is back.");
      this.socket.reconnectNow();
    }
    this.armPending();
    this.lifted = null;
    this.stacked = [];
    this.picker = null;
    if (action.type === "play") sound(action.suit ? "eight" : "play");
    else if (action.type === "draw") sound("draw");
    this.render();
  }

  /** The cards lifted, in the order they go down (the last on top). */
  liftedCards() {
    return this.lifted ? [this.lifted, ...this.stacked] : [];
  }

  tapCard(code) {
    const shown = this.current();
    if (!shown || this.pending) return;
    const view = shown.state.view;
    this.focus = code;
    const stack = this.liftedCards();
    if (stack.includes(code)) {
      // A lifted card tapped again: down they go, in the order lifted.
      this.playCard(code);
      return;
    }
    if (stack.length && addableCards(view, stack).has(code)) {
      this.stacked = [...this.stacked, code];
      const more = addableCards(view, this.liftedCards()).size;
      const place = ORDINAL[stack.length + 1] || "next";
      this.say(`The ${cardName(code)} is lifted ${place}, on top${more ? `; another ${RANK_WORD[code[0]] || "card"} may go on it` : ""}.`, { quietToast: true });
      this.render();
      return;
    }
    if (!playableCards(view).has(code)) {
      this.explain(code);
      return;
    }
    // A card that may take others on top waits to be lifted, even with one-tap play.
    const stacks = addableCards(view, [code]).size > 0;
    if (!stacks && (settings().oneTap || view.drawn === code)) {
      this.playCard(code);
      return;
    }
    this.lifted = code;
    this.stacked = [];
    this.picker = needsSuit(view, code) && !stacks ? code : null;
    const name = cardName(code);
    let words = `The ${name} is lifted. Tap it again to play.`;
    if (this.picker) words = `The ${name} is lifted: name a suit.`;
    else if (stacks) words = `The ${name} is lifted; another ${RANK_WORD[code[0]]} may go on top of it.`;
    this.say(words, { quietToast: true });
    this.render();
  }

  explain(code) {
    const shown = this.current();
    const view = shown?.state.view;
    const reason = view?.unplayable?.[code];
    if (reason) {
      sound("error");
      this.say(reason, { quietToast: true });
      const el = this.container.querySelector(`[data-testid=hand] [data-card="${code}"]`);
      if (el) {
        this.showReason(el, reason);
        this.hideReason({ later: true });
      }
    } else if (view && playableCards(view).has(code)) {
      this.say(`The ${cardName(code)} can be played.`);
    }
  }

  /** A bubble over a card that cannot be played, saying why (hover, focus, long press). */
  showReason(el, reason) {
    if (!reason || !el.isConnected) return;
    window.clearTimeout(this.reasonTimer);
    showNote(el, reason); // in the one message area, never over the hand (table/messages.js)
  }

  hideReason({ later = false } = {}) {
    window.clearTimeout(this.reasonTimer);
    if (later) this.reasonTimer = window.setTimeout(() => hideNote(this.container), 2600);
    else hideNote(this.container);
  }

  /** Play `code`, or the cards lifted with it (in the order lifted); an eight on top asks
   * for a suit first. */
  playCard(code) {
    const shown = this.current();
    if (!shown) return;
    const view = shown.state.view;
    const stack = this.liftedCards();
    const cards = stack.includes(code) ? stack : [code];
    const plays = playsStarting(view, cards).filter((a) => a.cards.length === cards.length);
    if (!plays.length) return;
    if (plays.some((a) => a.suit)) {
      if (cards.length === 1) {
        this.lifted = code;
        this.stacked = [];
      }
      this.picker = cards[cards.length - 1];
      this.say(`Name a suit for the ${cardName(this.picker)}.`, { quietToast: true });
      this.render();
      this.container.querySelector("[data-testid=suit-picker] button")?.focus();
      return;
    }
    this.act(plays[0]);
  }

  /** Enter with nothing focused: play the lifted card, or the drawn one. */
  playLiftedOrDrawn() {
    const view = this.current()?.state.view;
    if (!view || this.picker) return false;
    const card = this.lifted || view.drawn;
    if (!card || !playableCards(view).has(card)) return false;
    this.playCard(card);
    return true;
  }

  /** The Play button while cards are lifted. */
  playLifted() {
    if (this.lifted) this.playCard(this.lifted);
  }

  playDrawn() {
    const view = this.current()?.state.view;
    if (view?.drawn) this.playCard(view.drawn);
  }

  /** 101: the dealer orders a suit for its opening jack: the picker, over the jack. */
  orderSuit() {
    const view = this.current()?.state.view;
    if (!view || !legalOf(view, "order")) {
      if (view) this.say("Only the dealer's opening jack is ordered this way: a jack you lay orders its suit as it goes down.");
      return;
    }
    this.lifted = null;
    this.stacked = [];
    this.ordering = true;
    this.picker = view.pile[view.pile.length - 1];
    this.say(`Order a suit for the ${cardName(this.picker)}.`, { quietToast: true });
    this.render();
    this.container.querySelector("[data-testid=suit-picker] button")?.focus();
  }

  nameSuit(suit) {
    const shown = this.current();
    if (!shown || !this.picker) return;
    if (this.ordering) {
      const order = (shown.state.view.legal || []).find((a) => a.type === "order" && a.suit === suit);
      this.ordering = false;
      this.picker = null;
      if (order) this.act(order);
      else this.render();
      return;
    }
    const cards = this.lifted ? this.liftedCards() : [this.picker];
    const play = exactPlay(shown.state.view, cards, suit);
    if (!play) return;
    this.focus = null;
    this.act(play);
  }

  drop() {
    if (!this.lifted && !this.picker) return;
    this.ordering = false;
    this.lifted = null;
    this.stacked = [];
    this.picker = null;
    this.render();
  }

  simple(type) {
    const view = this.current()?.state.view;
    const action = legalOf(view, type);
    if (!action) {
      if (view) this.say(notNowText(type, view));
      return;
    }
    this.act(action);
  }

  /** The stock tapped, held or D pressed while no draw is legal: the engine's reason. */
  explainStock() {
    const view = this.current()?.state.view;
    if (!view) return;
    sound("error");
    this.say(notNowText("draw", view), { quietToast: true });
  }

  /** 101: declare the bridge this seat just laid, within its ten seconds. */
  declareBridge() {
    const shown = this.current();
    const bridge = shown?.state.view.bridge;
    if (!shown || !bridge || !this.held.includes(bridge.seat) || !this.bridgeSecs() || this.pending) {
      if (shown) this.say(notNowText("bridge"));
      return;
    }
    const id = actionId();
    const version = this.version;
    if (!this.send({ type: "act", seat: bridge.seat, version, id, action: { type: "bridge" } })) return;
    this.pending = { id, version };
    window.clearTimeout(this.pendingTimer);
    this.pendingTimer = window.setTimeout(() => this.clearPending(), PENDING_MS);
    this.render();
  }

  /** The host's Finish the game (Menu): asked once more, at the table. */
  askFinish() {
    this.confirmFinish = true;
    this.render();
    const yes = this.container.querySelector("[data-testid=finish-confirm]");
    yes?.scrollIntoView({ block: "center" });
    yes?.focus({ preventScroll: true });
  }

  /** The host finishes the game (101): the round under way is not scored. */
  finish() {
    this.confirmFinish = false;
    if (!this.room?.can_finish) return;
    if (this.send({ type: "finish", id: actionId() })) this.say("Finishing the game…");
    this.render();
  }

  agree() {
    const room = this.room;
    if (!room || !room.hand_over || room.closed) return;
    const me = this.held[0];
    if (room.mode !== "local" && room.seats[me]?.agreed) return;
    if (this.send({ type: "agree", entropy: entropy() })) {
      this.revealedKey = null;
      this.say("Ready for the next round.", { quietToast: true });
    }
  }

  reveal() {
    const shown = this.display();
    if (!shown || !shown.covered || !shown.key) return;
    this.revealedKey = shown.key;
    this.focus = null;
    this.wasMyTurn = true;
    this.render();
    const hand = this.container.querySelector("[data-testid=hand] [tabindex='0']");
    hand?.focus({ preventScroll: true });
    this.say(`${seatNames(this.room, shown.seat, "local").name(shown.seat)}, your turn.`, { quietToast: true });
  }

  sort() {
    const next = settings().sort === "suit" ? "rank" : "suit";
    saveSettings({ sort: next });
    this.say(next === "suit" ? "Sorted by suit." : "Sorted by rank.", { quietToast: true });
  }

  /** Hints only against the computer and in pass and play: at a table with a friend one
   * player would get the computer's advice unseen (docs/rooms.md). */
  hintsOffered() {
    const mode = this.room?.mode || this.entry.mode;
    return mode === "computer" || mode === "local";
  }

  hint() {
    if (!this.hintsOffered()) return;
    const shown = this.current();
    if (!shown || !shown.state.view.legal?.length) {
      this.say("A hint is for your turn.");
      return;
    }
    this.hintId = actionId();
    this.send({ type: "hint", seat: shown.seat, id: this.hintId });
  }

  showHint(msg) {
    this.hintId = null;
    const action = msg.action || msg.hint?.action;
    const reason = msg.reason || msg.hint?.reason || "";
    if (!action) {
      this.say("No hint now.");
      return;
    }
    if (action.type === "play" && action.cards?.length) {
      // The hint lifts the card; it never opens the suit picker: the letters that name a
      // suit there (H, D, S) would otherwise play an eight the player never chose.
      this.lifted = action.cards[0];
      this.stacked = action.cards.slice(1);
      this.picker = null;
      this.render();
      const what = action.cards.length > 1 ? action.cards.map((c) => `the ${cardName(c)}`).join(", then ") : `the ${cardName(action.cards[0])}`;
      this.say(reason ? `Hint: ${reason}` : `Hint: play ${what}${action.suit ? ` and name ${suitName(action.suit)}` : ""}.`);
    } else {
      this.say(`Hint: ${action.type}. ${reason}`.trim());
    }
  }

  undo() {
    if (this.room?.mode !== "computer") return;
    if (!this.room.can_undo) {
      this.say("There is nothing to take back.");
      return;
    }
    this.send({ type: "undo" });
  }

  /** Against the computer: hold (or release) the computer's next move. */
  pause() {
    if (this.room?.mode !== "computer") return;
    const paused = !this.room.paused;
    this.send({ type: "pause", paused });
    this.say(paused ? "Paused: the computer waits for you." : "Resumed.");
  }

  /** Space while paused: let the computer move again. */
  resume() {
    if (this.room?.mode === "computer" && this.room.paused) this.pause();
  }

  fullscreen() {
    const done = () => this.render();
    if (document.fullscreenElement) document.exitFullscreen().then(done, done);
    else document.documentElement.requestFullscreen().then(done, done);
  }

  toggleSound() {
    const on = !settings().sound;
    saveSettings({ sound: on });
    if (on) sound("turn");
    this.say(on ? "Sound on." : "Sound off.");
  }

  /** Rematch: this device's seat at a new table for the same people (made by the first to
   * ask, joined by the others with one tap), saved here, and the table opened. */
  async rematch() {
    const token = this.room?.rematch;
    const saved = token ? savedTable(token) : null;
    if (saved) {
      navigate(`/t/${token}`);
      return;
    }
    if (this.rematching) return;
    this.rematching = true;
    this.say("Opening the rematch…", { quietToast: true });
    try {
      const made = await api.rematch(this.token, Object.values(this.entry.credentials || {}));
      saveTable({
        token: made.token,
        mode: "online",
        variant: this.room.variant,
        players: this.room.players,
        credentials: { [made.seat]: made.credential },
        link: made.link,
        created: Date.now(),
      });
      navigate(`/t/${made.token}`, { states: made.states || [] });
    } catch (err) {
      this.say(err.message || "The rematch could not be opened.");
    } finally {
      this.rematching = false;
    }
  }

  async saveRecord() {
    try {
      const record = await api.record(this.token, Object.values(this.entry.credentials || {}));
      const blob = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      const a = h("a", { href: url, download: `eights-${this.token}-round-${this.room.round}.json` });
      document.body.append(a);
      a.click();
      a.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 5000);
      this.say("The game’s record is saved.");
    } catch (err) {
      this.say(err.message || "The record could not be fetched.");
    }
  }
}

/** Refusals said in the table's words rather than the server's. */
const REFUSALS = {
  table_closed: "The host ended the game: no more moves at this table.",
  host_stays: "The host cannot leave: end the game from the Menu instead.",
};

/** A view with only what anyone at the table may see: no hand, no legal moves. */
function publicOnly(view) {
  const out = { ...view };
  out.hand = null;
  out.drawn = null;
  out.legal = [];
  out.unplayable = {};
  out.cannot_draw = null; // it may name a card of the covered hand
  return out;
}

function notNowText(type, view) {
  // The engine's own sentence where the view carries one (why this seat may not draw now).
  if (type === "draw" && view?.cannot_draw) return view.cannot_draw;
  if (type === "draw" && view && view.turn !== view.seat) return "It is not your turn: you draw on your turn.";
  return {
    draw: "You cannot draw now.",
    keep: "There is no drawn card to keep.",
    pass: "You can pass only when you can neither play nor draw.",
    take: "There is nothing to take.",
    bridge: "No bridge now.",
  }[type] || "Not now.";
}
