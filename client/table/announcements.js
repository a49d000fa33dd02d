// What a new state means, once: the moves in words (the live region and the ticker), the
// turn that became this device's, the sounds, and the statistics counted when a hand ends.
import { announce } from "../dom.js";
import { describeEvents, handOverSentence } from "../narrate.js";
import { sound } from "../sound.js";
import { countHand } from "../storage.js";

/** Announcements, sounds and statistics, mixed into TableSession (session.js). */
export const announcements = {
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
  },

  /** What changed at the table since the last state (who left, who is away or back, who
   * took an open seat, the game ended), said once. */
  takeNews() {
    const news = this.news;
    this.news = [];
    return news;
  },

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
  },

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
  },

  /** The table's one message area (table/messages.js) and the live region; no toast over
   * the hand. `shown: false`: the live region alone, for what the prompt already shows
   * (cards lifted): the ticker keeps saying what the table last did. */
  say(text, { shown = true } = {}) {
    announce(text);
    if (!shown) return;
    this.ticker = text;
    const ticker = this.container.querySelector("[data-testid=ticker]");
    if (ticker) ticker.textContent = text;
  },
};
