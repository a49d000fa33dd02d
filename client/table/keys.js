// The table's keyboard: arrows along the hand, letters for actions, 1-4 / C D H S for
// a suit while the picker the player opened is up (suitkeys.js: the order is the table's).
// Enter and Space are left to the focused button, except Space resumes a paused game, and
// on a dim card of the hand they play the lifted or drawn card (the prompt's Enter).
import { suitFromKey } from "./suitkeys.js";
import { settingsOpen } from "../settings.js";

/** Handle one keydown for the table `session` (a TableSession). */
export function tableKey(session, e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  if (settingsOpen()) return;
  const tag = e.target?.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (!session.container.isConnected) return;
  const k = e.key;
  if (k === "ArrowLeft" || k === "ArrowRight" || k === "Home" || k === "End") {
    if (moveFocus(session, k)) e.preventDefault();
    return;
  }
  if (k === "Escape") {
    if (session.lifted || session.picker) {
      e.preventDefault();
      session.drop();
    } else if (session.showHistory) {
      session.showHistory = false;
      session.render();
    }
    return;
  }
  if (k === "Enter" || k === " ") {
    // Buttons handle these themselves; with nothing focused, Enter plays the lifted card.
    const idle = !document.activeElement || document.activeElement === document.body;
    if (k === " " && session.room?.paused && resumesOnSpace(session, document.activeElement)) {
      e.preventDefault();
      session.resume();
      return;
    }
    // A dim card of the hand (one that cannot be played now) has nothing to do with Enter
    // or Space: the prompt's "Play it ⟨Enter⟩" takes them, as with nothing focused.
    const card = document.activeElement?.closest?.("[data-testid=hand] [data-card]");
    // Dim as shown: not playable, not lifted, not one that can go on the lifted ones.
    const dim = Boolean(card) && card.classList.contains("dim");
    if ((k === "Enter" ? idle || dim : dim) && session.playLiftedOrDrawn()) e.preventDefault();
    return;
  }
  if (session.picker) {
    const suit = suitFromKey(k, session.room?.variant);
    if (suit) {
      e.preventDefault();
      session.nameSuit(suit);
      return;
    }
  }
  const lower = k.length === 1 ? k.toLowerCase() : k;
  const handled = {
    d: () => session.simple("draw"),
    k: () => session.simple("keep"),
    p: () => session.simple("pass"),
    o: () => session.orderSuit(),
    t: () => session.simple("take"),
    b: () => session.declareBridge(),
    s: () => session.sort(),
    h: session.hintsOffered() ? () => session.hint() : null,
    n: () => session.agree(),
    u: () => session.undo(),
    m: () => session.toggleSound(),
  }[lower];
  if (handled) {
    e.preventDefault();
    handled();
  }
}

/** Move the focus along the hand (roving tabindex: one card is in the tab order). */
function moveFocus(session, key) {
  const hand = session.container.querySelector("[data-testid=hand]");
  if (!hand) return false;
  const cards = Array.from(hand.querySelectorAll("[data-card]"));
  if (!cards.length) return false;
  const active = document.activeElement;
  let index = cards.indexOf(active);
  if (index < 0) {
    // From the hand's own box, or with the focus on nothing at all: into the hand.
    if (active && active !== document.body && !hand.contains(active)) return false;
    const roving = cards.findIndex((c) => c.getAttribute("tabindex") === "0");
    cards[Math.max(0, roving)].focus();
    session.focus = cards[Math.max(0, roving)].dataset.card;
    return true;
  }
  if (key === "ArrowLeft") index = Math.max(0, index - 1);
  else if (key === "ArrowRight") index = Math.min(cards.length - 1, index + 1);
  else if (key === "Home") index = 0;
  else index = cards.length - 1;
  cards.forEach((c, i) => c.setAttribute("tabindex", i === index ? "0" : "-1"));
  cards[index].focus();
  session.focus = cards[index].dataset.card;
  return true;
}

/** Space resumes a paused game (as the Resume button says) unless another button than a
 * card of the hand has the focus: that button takes its Space itself. */
function resumesOnSpace(session, active) {
  if (!active || active === document.body) return true;
  if (!session.container.contains(active)) return false;
  return active.tagName !== "BUTTON" || Boolean(active.closest("[data-testid=hand]"));
}
