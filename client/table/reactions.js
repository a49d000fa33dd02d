// Quick reactions: the fixed set, the button and its small menu beside the
// player's own plate, the bubble on a sender's plate, and the per-table mute (kept with
// the saved table in this browser); the session's side: a reaction heard, one sent, the
// menu opened, the table muted. Never free text. The faces are drawn (reactionicons.js):
// an emoji is only the text alternative's source, never drawn as a character.
import { announce, h } from "../dom.js";
import { seatNames } from "../narrate.js";
import { hasIcon, reactionIcon } from "./reactionicons.js";
import { saveTable, savedTable } from "../storage.js";

export const REACTIONS = [
  ["thumbs_up", "\u{1F44D}", "Thumbs up"],
  ["laugh", "\u{1F602}", "Laughing"],
  ["wow", "\u{1F62E}", "Wow"],
  ["grimace", "\u{1F62C}", "Grimace"],
  ["party", "\u{1F389}", "Party"],
  ["good_game", "Good game", "Good game"],
  ["your_turn", "Your turn!", "Your turn!"],
  ["one_moment", "One moment", "One moment"],
];
export const BUBBLE_MS = 4000;

/** What a bubble shows, and the words the live region says, for a reaction id. */
export function reactionOf(id) {
  const found = REACTIONS.find(([key]) => key === id);
  return found ? { text: found[1], words: found[2] } : null;
}

/** A reaction as drawn: its picture (named by its words) where it has one, else its words. */
function drawn(id, text, words) {
  return hasIcon(id) ? reactionIcon(id, words) : text;
}

export function reactionsMuted(token) {
  return Boolean(savedTable(token)?.muteReactions);
}

export function muteReactions(token, muted) {
  if (savedTable(token)) saveTable({ token, muteReactions: muted });
}

/** The bubble on a seat's plate while its reaction shows (m.bubbles: seat -> {text}). */
export function bubble(m, seat) {
  const shown = m.bubbles?.[seat];
  if (!shown) return null;
  return h("span", { class: "reaction-bubble", testid: "reaction-bubble", dataset: { seat: String(seat), reaction: shown.id }, "aria-hidden": "true" }, drawn(shown.id, shown.text, reactionOf(shown.id)?.words || shown.text));
}

/** The reactions button beside the player's plate, and its menu when open. */
export function reactionsControl(m, on) {
  const open = Boolean(m.reactOpen);
  const menu = open ? h("div", {
    class: "reaction-menu",
    role: "group",
    "aria-label": "Reactions",
    testid: "reaction-menu",
    onkeydown: (e) => {
      if (e.key === "Escape") {
        e.stopPropagation();
        on.toggleReactions();
      }
    },
  },
    h("div", { class: "reaction-choices" },
      REACTIONS.map(([id, text, words]) => h("button", {
        type: "button",
        class: `reaction-choice${hasIcon(id) ? "" : " phrase"}`,
        testid: `react-${id}`,
        "aria-label": hasIcon(id) ? words : null,
        title: words,
        onclick: () => on.react(id),
      }, drawn(id, text, words)))),
    h("label", { class: "reaction-mute" },
      h("input", { type: "checkbox", testid: "reactions-mute", checked: m.reactionsMuted, onchange: (e) => on.muteReactions(e.target.checked) }),
      h("span", {}, "Mute reactions at this table"))) : null;
  return h("span", { class: "reactions" },
    h("button", {
      type: "button",
      class: "btn small ghost reaction-toggle",
      testid: "reactions-button",
      "aria-label": "Reactions",
      "aria-expanded": open ? "true" : "false",
      title: "Reactions",
      onclick: on.toggleReactions,
    }, reactionIcon("smile", "Reactions", "reaction-icon toggle-icon")),
    menu);
}

/** Reactions heard and sent, mixed into TableSession (session.js). */
export const reacting = {
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
  },

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
  },

  toggleReactions() {
    this.reactOpen = !this.reactOpen;
    this.render();
    const target = this.reactOpen ? "[data-testid=reaction-menu] button" : "[data-testid=reactions-button]";
    this.container.querySelector(target)?.focus();
  },

  setReactionsMuted(muted) {
    muteReactions(this.token, muted);
    if (muted) {
      for (const shown of Object.values(this.bubbles)) window.clearTimeout(shown.timer);
      this.bubbles = {};
    }
    this.say(muted ? "Reactions muted at this table." : "Reactions on at this table.");
    this.render();
  },
};
