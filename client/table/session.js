// One table in this browser (TableSession): the states of the seats held here, which seat
// the screen shows (pass and play covers it between players), and the table drawn again
// from them with stage.js. Its other parts are the files beside it: the socket
// (connection.js), lifting and playing (lifting.js), words, sounds and statistics
// (announcements.js), the turn clock (clock.js), the tools (tools.js), tables with friends
// (friends.js), the panels before the deal (waiting.js) and reactions (reactions.js). It
// never decides a rule: it sends the legal actions the server listed.
import { TableSocket } from "../api.js";
import { fill, h, redrawOnResize } from "../dom.js";
import { seatNames } from "../narrate.js";
import { loadingPage, lostSeatPage } from "../pages.js";
import { openSettings, settingsOpen } from "../settings.js";
import { BackgroundSignals } from "../signals.js";
import { settings, touchTable } from "../storage.js";
import { announcements } from "./announcements.js";
import { clock } from "./clock.js";
import { connection } from "./connection.js";
import { tableDialogOpen } from "./dialogs.js";
import { friends } from "./friends.js";
import { handMetrics } from "./hand.js";
import { tableKey } from "./keys.js";
import { playsStarting } from "./legal.js";
import { lifting } from "./lifting.js";
import { menuCallbacks } from "./menu.js";
import { reacting, reactionsMuted } from "./reactions.js";
import { focusResults } from "./results.js";
import { renderTable } from "./stage.js";
import { tools } from "./tools.js";
import { waiting } from "./waiting.js";

/** How long a press on the table holds back the redraws news would make. */
const PRESS_MS = 5000;

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
    /**
     * A press on the table not yet let go ({held, timer}): the redraws that news would make
     * (a move, a reaction, a seat's presence) wait for its release, so that the card or
     * button pressed is the one let go over and the tap is not lost to a redraw between the
     * two. A press held past PRESS_MS (a release the page never heard of) lets them
     * through.
     */
    this.press = null;
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
    this.onPress = (e) => {
      if (!this.container.contains(e.target)) return;
      window.clearTimeout(this.press?.timer);
      this.press = { held: Boolean(this.press?.held), timer: window.setTimeout(() => this.letGo(), PRESS_MS) };
    };
    // After the release's own click (dispatched after pointerup) has run.
    this.onLetGo = () => {
      if (this.press) window.setTimeout(() => this.letGo(), 0);
    };
    document.addEventListener("keydown", this.onKey);
    document.addEventListener("pointerdown", this.onPress, true);
    document.addEventListener("pointerup", this.onLetGo, true);
    document.addEventListener("pointercancel", this.onLetGo, true);
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
    document.removeEventListener("pointerdown", this.onPress, true);
    document.removeEventListener("pointerup", this.onLetGo, true);
    document.removeEventListener("pointercancel", this.onLetGo, true);
    window.clearTimeout(this.press?.timer);
    this.press = null;
    window.removeEventListener("resize", this.onResize);
    document.removeEventListener("eights:settings", this.onSettings);
    window.clearInterval(this.clock);
    window.clearTimeout(this.renderTimer);
    window.clearTimeout(this.pendingTimer);
    this.signals.destroy();
    document.title = "Eights";
    menuCallbacks(this).closeDialogs();
  }

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

  scheduleRender() {
    window.clearTimeout(this.renderTimer);
    this.renderTimer = window.setTimeout(() => {
      if (!this.press) {
        this.render();
        return;
      }
      this.press.held = true;
      this.container.dataset.redrawHeld = "true";
    }, 16);
  }

  /** The press is over: the redraw it held back, if any. */
  letGo() {
    const press = this.press;
    if (!press) return;
    window.clearTimeout(press.timer);
    this.press = null;
    delete this.container.dataset.redrawHeld;
    if (press.held) this.render();
  }

  render() {
    window.clearTimeout(this.renderTimer);
    const shown = this.display();
    if (!shown || !this.room) {
      // Nothing to show yet: the page may have opened from the service worker's cache with
      // the network gone (sw.js), and says so until the table comes.
      const away = this.connection !== "connecting" && this.connection !== "open";
      const offline = this.connection === "offline" || !navigator.onLine;
      fill(this.container, loadingPage("Opening the table…",
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
    // The results are a dialog: they take the focus (unless a dialog of the Menu is up).
    if (!tableDialogOpen() && !settingsOpen() && focusResults(root, hadFocus ? focusTestid : null)) return;
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
}

// The session's other parts, each in the file named for it.
Object.assign(TableSession.prototype, connection, lifting, announcements, clock, tools, friends, waiting, reacting);

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
