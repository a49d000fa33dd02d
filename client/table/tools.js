// What the tools, the bar and the results do: Next hand, Reveal (pass and play), sort,
// Hint, Undo, Pause, full screen, sound, 101's Finish the game, and the game's record saved.
import { actionId, api, entropy } from "../api.js";
import { cardName, suitName } from "../cards.js";
import { h } from "../dom.js";
import { seatNames } from "../narrate.js";
import { sound } from "../sound.js";
import { saveSettings, settings } from "../storage.js";

/** The tools' actions, mixed into TableSession (session.js). */
export const tools = {
  agree() {
    const room = this.room;
    if (!room || !room.hand_over || room.closed) return;
    const me = this.held[0];
    if (room.mode !== "local" && room.seats[me]?.agreed) return;
    if (this.send({ type: "agree", entropy: entropy() })) {
      this.revealedKey = null;
      this.say("Ready for the next round.", { quietToast: true });
    }
  },

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
  },

  sort() {
    const next = settings().sort === "suit" ? "rank" : "suit";
    saveSettings({ sort: next });
    this.say(next === "suit" ? "Sorted by suit." : "Sorted by rank.", { quietToast: true });
  },

  /** Hints only against the computer and in pass and play: at a table with a friend one
   * player would get the computer's advice unseen (docs/rooms.md). */
  hintsOffered() {
    const mode = this.room?.mode || this.entry.mode;
    return mode === "computer" || mode === "local";
  },

  hint() {
    if (!this.hintsOffered()) return;
    const shown = this.current();
    if (!shown || !shown.state.view.legal?.length) {
      this.say("A hint is for your turn.");
      return;
    }
    this.hintId = actionId();
    this.send({ type: "hint", seat: shown.seat, id: this.hintId });
  },

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
  },

  undo() {
    if (this.room?.mode !== "computer") return;
    if (!this.room.can_undo) {
      this.say("There is nothing to take back.");
      return;
    }
    this.send({ type: "undo" });
  },

  /** Against the computer: hold (or release) the computer's next move. */
  pause() {
    if (this.room?.mode !== "computer") return;
    const paused = !this.room.paused;
    this.send({ type: "pause", paused });
    this.say(paused ? "Paused: the computer waits for you." : "Resumed.");
  },

  /** Space while paused: let the computer move again. */
  resume() {
    if (this.room?.mode === "computer" && this.room.paused) this.pause();
  },

  fullscreen() {
    const done = () => this.render();
    if (document.fullscreenElement) document.exitFullscreen().then(done, done);
    else document.documentElement.requestFullscreen().then(done, done);
  },

  toggleSound() {
    const on = !settings().sound;
    saveSettings({ sound: on });
    if (on) sound("turn");
    this.say(on ? "Sound on." : "Sound off.");
  },

  /** The host's Finish the game (Menu): asked once more, at the table. */
  askFinish() {
    this.confirmFinish = true;
    this.render();
    const yes = this.container.querySelector("[data-testid=finish-confirm]");
    yes?.scrollIntoView({ block: "center" });
    yes?.focus({ preventScroll: true });
  },

  /** The host finishes the game (101): the round under way is not scored. */
  finish() {
    this.confirmFinish = false;
    if (!this.room?.can_finish) return;
    if (this.send({ type: "finish", id: actionId() })) this.say("Finishing the game…");
    this.render();
  },

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
  },
};
