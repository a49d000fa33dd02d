// The table's keyboard: arrows along the hand, letters for actions, 1-4 / C D H S for
// a suit while the picker is open. Enter and Space are left to the focused button.
import { suitFromKey } from "./cards.js";
import { settingsOpen } from "./settings.js";

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
    if (k === "Enter" && idle && session.playLiftedOrDrawn()) e.preventDefault();
    return;
  }
  if (session.picker) {
    const suit = suitFromKey(k);
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
    t: () => session.simple("take"),
    s: () => session.sort(),
    h: () => session.hint(),
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
  let index = cards.indexOf(document.activeElement);
  if (index < 0) {
    if (!hand.contains(document.activeElement)) return false;
    index = 0;
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
