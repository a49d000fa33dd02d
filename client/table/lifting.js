// Lifting and playing: a card tapped (lifted, laid on top of the lifted ones, or played),
// an eight's suit named, 101's ordered jack, Draw, Keep, Pass and Take, a bridge declared,
// and why a card or the stock cannot be played now. Every action sent is one the server
// listed as legal.
import { actionId } from "../api.js";
import { cardName } from "../cards.js";
import { seatNames } from "../narrate.js";
import { sound } from "../sound.js";
import { settings } from "../storage.js";
import { PENDING_MS } from "./connection.js";
import { addableCards, exactPlay, legalOf, needsSuit, playableCards, playsStarting } from "./legal.js";
import { hideNote, showNote } from "./messages.js";
import { RANK_WORDS } from "./words.js";

const ORDINAL = { 2: "second", 3: "third", 4: "fourth" };

/** Lifting, acting and explaining, mixed into TableSession (session.js). */
export const lifting = {
  current() {
    if (this.room?.closed) return null;
    const shown = this.display();
    if (!shown || shown.covered || !shown.state.view) return null;
    return shown;
  },

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
  },

  /** The cards lifted, in the order they go down (the last on top). */
  liftedCards() {
    return this.lifted ? [this.lifted, ...this.stacked] : [];
  },

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
      // Heard, not shown: the prompt says it (one place for the eye).
      this.say(`The ${cardName(code)} is lifted ${place}, on top${more ? `; another ${RANK_WORDS[code[0]] || "card"} may go on it` : ""}.`, { shown: false });
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
    else if (stacks) words = `The ${name} is lifted; another ${RANK_WORDS[code[0]]} may go on top of it.`;
    this.say(words, { shown: false }); // the prompt and the suit picker show it
    this.render();
  },

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
  },

  /** A bubble over a card that cannot be played, saying why (hover, focus, long press). */
  showReason(el, reason) {
    if (!reason || !el.isConnected) return;
    window.clearTimeout(this.reasonTimer);
    showNote(el, reason); // in the one message area, never over the hand (table/messages.js)
  },

  hideReason({ later = false } = {}) {
    window.clearTimeout(this.reasonTimer);
    if (later) this.reasonTimer = window.setTimeout(() => hideNote(this.container), 2600);
    else hideNote(this.container);
  },

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
  },

  /** Enter with nothing focused: play the lifted card, or the drawn one. */
  playLiftedOrDrawn() {
    const view = this.current()?.state.view;
    if (!view || this.picker) return false;
    const card = this.lifted || view.drawn;
    if (!card || !playableCards(view).has(card)) return false;
    this.playCard(card);
    return true;
  },

  /** The Play button while cards are lifted. */
  playLifted() {
    if (this.lifted) this.playCard(this.lifted);
  },

  playDrawn() {
    const view = this.current()?.state.view;
    if (view?.drawn) this.playCard(view.drawn);
  },

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
  },

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
  },

  drop() {
    if (!this.lifted && !this.picker) return;
    this.ordering = false;
    this.lifted = null;
    this.stacked = [];
    this.picker = null;
    this.render();
  },

  simple(type) {
    const view = this.current()?.state.view;
    const action = legalOf(view, type);
    if (!action) {
      if (view) this.say(notNowText(type, view));
      return;
    }
    this.act(action);
  },

  /** The stock tapped, held or D pressed while no draw is legal: the engine's reason. */
  explainStock() {
    const view = this.current()?.state.view;
    if (!view) return;
    sound("error");
    this.say(notNowText("draw", view), { quietToast: true });
  },

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
  },
};

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
