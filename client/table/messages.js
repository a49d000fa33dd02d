// The table's one message area: the latest sentence in the ticker, or what a pointed
// card or the pile is.
import { h, NOTE_AGAIN } from "../dom.js";

/**
 * The one message area of the table: the latest sentence (moves, hints, errors) in the
 * ticker, or, while a card or the pile is pointed at, why it is what it is. It sits in the
 * flow between the pile and the prompt, so it never covers the hand or a name plate.
 */
export function messageArea(m) {
  return h("div", { class: "messages", testid: "messages" },
    h("p", { class: "ticker", "aria-hidden": "true", testid: "ticker" }, m.ticker || ""),
    h("p", { class: "note", testid: "card-reason", id: "card-reason", role: "tooltip", hidden: true }));
}

/** Show `text` about `el` (a card, the pile) in the message area, in place of the ticker. */
export function showNote(el, text) {
  const table = el.closest?.("[data-testid=table]");
  const note = table?.querySelector("[data-testid=card-reason]");
  if (!note || !text) return;
  note.textContent = text;
  note.dataset.card = el.dataset.card || "";
  note.dataset.about = el.dataset.testid || "card";
  note.hidden = false;
  table.querySelector("[data-testid=ticker]")?.setAttribute("hidden", "");
  el.setAttribute("aria-describedby", "card-reason");
}

/** Back to the ticker; or, while the keyboard rests on something that explains itself,
 * to what that says: the pointer leaving a card or the pile does not take away what the
 * focus shows. (An element losing the focus is no longer the active one when its blur
 * calls this.) */
export function hideNote(root) {
  const table = root?.closest?.("[data-testid=table]") || root?.querySelector?.("[data-testid=table]");
  const note = table?.querySelector("[data-testid=card-reason]");
  if (!note) return;
  note.hidden = true;
  table.querySelector("[data-testid=ticker]")?.removeAttribute("hidden");
  const focused = document.activeElement;
  if (focused && table.contains(focused) && focused.matches(":focus-visible")) {
    focused.dispatchEvent(new Event(NOTE_AGAIN));
  }
}
