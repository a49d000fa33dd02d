// The middle of the felt: the stock (or 101's bank and its multiplier), the pile and the
// suit an eight named, with the turn line above and the message area below. What the
// stock and the pile are is said when pointed at, focused or held.
import { cardName, suitName } from "../cards.js";
import { attachLongPress, cardBack, faceCard, suitToken } from "../cardview.js";
import { h, NOTE_AGAIN } from "../dom.js";
import { legalOf } from "./legal.js";
import { hideNote, messageArea, showNote } from "./messages.js";
import { directionArrow, pickupText, turnIndicator } from "./turn.js";
import { RANK_PLURALS } from "./words.js";

export function centre(m, on) {
  const { view } = m;
  const canDraw = !m.covered && Boolean(legalOf(view, "draw"));
  const turns = newStockWords(view);
  const stockWords = `Stock, ${view.stock_size} ${view.stock_size === 1 ? "card" : "cards"}.${turns ? ` ${turns.sentence}` : ""}`;
  const stock = h("button", {
    type: "button",
    class: `stock${canDraw ? " can-draw" : ""}${turns ? " turns-pile" : ""}`,
    testid: "stock",
    dataset: { count: String(view.stock_size) },
    "aria-disabled": canDraw ? "false" : "true",
    "aria-label": `${stockWords}${canDraw ? " Draw a card (D)" : ""}`,
    title: canDraw ? `${turns ? `${turns.sentence} ` : ""}Draw a card (D)` : stockWords,
    // Not drawable now: the tap says why, in the engine's words (view.cannot_draw).
    onclick: () => (canDraw ? on.draw() : on.explainStock?.()),
  },
    view.stock_size > 0 ? [cardBack(), view.stock_size > 1 ? cardBack() : null]
      : h("span", { class: "card empty" }, turns ? h("span", {
        class: "new-stock",
        testid: "new-stock",
        dataset: { count: turns.count === null ? "" : String(turns.count) },
        "aria-hidden": "true",
      }, h("span", { class: "new-stock-icon" }, "\u21bb"), h("span", {}, turns.short)) : null),
    // An empty stock that a draw turns into a new one says so inside it: no bare "0".
    turns ? null : h("span", { class: "stock-count" }, String(view.stock_size)));
  explains(stock, stockText(view, stockWords, canDraw));
  const pile = view.pile || [];
  const top = pile[pile.length - 1];
  const under = pile.slice(-3, -1);
  const about = pileText(view);
  const pileEl = h("div", {
    class: "pile",
    testid: "pile",
    tabindex: "0",
    role: "img",
    "aria-label": `${about} ${view.pile_size} ${view.pile_size === 1 ? "card" : "cards"} in the pile.`,
    title: about,
  },
    under.map((c, i) => faceCard(c, { extraClass: `under u${under.length - i}` })),
    top ? faceCard(top, { testid: "pile-top", extraClass: `top${m.freshPile ? " landed" : ""}` }) : null,
    pickupChip(m));
  explains(pileEl, about);
  const token = view.suit
    ? h("div", { class: "named" }, suitToken(view.suit, { big: true }),
      h("span", { class: "named-text" }, `${suitName(view.suit)}`))
    : null;
  // 101: the bank's multiplier, where renewing the bank multiplies the round's points:
  // beside the bank, with its label in words (a phone shows no title).
  const multiplier = view.options?.bank_multiplier && typeof view.multiplier === "number"
    ? h("div", {
      class: "bank-multiplier",
      title: "The bank’s multiplier: every score of this round is times this",
    },
    h("span", {
      class: `multiplier${view.multiplier > 1 ? " raised" : ""}`,
      testid: "multiplier",
      dataset: { multiplier: String(view.multiplier) },
      "aria-label": `Points this round times ${view.multiplier}`,
    }, `\u00d7${view.multiplier}`),
    h("span", { class: "multiplier-label", testid: "multiplier-label", "aria-hidden": "true" }, "points"))
    : null;
  const bank = multiplier ? h("div", { class: "bank" }, multiplier, stock) : stock;
  return h("div", { class: "centre" },
    h("div", { class: "turn-line" }, directionArrow(m), turnIndicator(m)),
    h("div", { class: "middle" }, bank, pileEl, token),
    messageArea(m));
}

/**
 * An empty stock that a draw turns into a new one (the view's `new_stock`: the pile under
 * its top card): `{count, short, sentence}`, or null. Without the count (an older server)
 * it says only that drawing turns the pile.
 */
export function newStockWords(view) {
  if (!view || view.stock_size > 0 || view.hand_over) return null;
  const bank = Boolean(view.options?.bank_multiplier);
  const count = typeof view.new_stock === "number" && view.new_stock > 0 ? view.new_stock : null;
  if (count === null && !(view.new_stock === undefined && view.can_draw)) return null;
  const stock = bank ? "bank" : "stock";
  const what = bank ? "the table under its top card" : "the pile under its top card";
  const cards = count === null ? "" : ` of ${count} ${count === 1 ? "card" : "cards"}`;
  return {
    count,
    short: count === null ? "drawing turns the pile" : `new ${stock}: ${count}`,
    sentence: `The ${stock} is empty: a draw turns ${what} into a new ${stock}${cards}.`,
  };
}

/** The pickup waiting, on the pile: "+6", its sentence for screen readers and a pointer. */
function pickupChip(m) {
  const pending = m.view.pending;
  if (!pending || m.view.hand_over) return null;
  const text = pickupText(m);
  return h("span", {
    class: `pickup-chip kind-${pending.kind}`,
    testid: "pickup",
    dataset: { count: String(pending.count), kind: pending.kind, seat: String(m.view.turn) },
    title: text,
  }, `+${pending.count}`);
}

/**
 * What the pile is and what is in force, from the view alone (its top card, the suit in
 * force and the suit an eight named): "Discard pile: follow hearts — the eight of clubs
 * named them".
 */
export function pileText(view) {
  const pile = view.pile || [];
  const top = pile[pile.length - 1];
  if (!top) return "Discard pile: empty.";
  const named = view.suit || null;
  const verb = view.options?.wild_rank && view.options.wild_rank !== "8" ? "ordered" : "named";
  if (named) return `Discard pile: follow ${suitName(named)} — the ${cardName(top)} ${verb} them.`;
  const suit = view.suit_in_force || top[1];
  return `Discard pile: the ${cardName(top)} — follow ${suitName(suit)} or ${RANK_PLURALS[top[0]] || "its rank"}.`;
}

/** What the stock says when pointed at, focused or held: its size, and on this seat's turn
 * whether it may draw and why (000: "nothing fits, draw" / "you may draw while a card fits"). */
function stockText(view, words, canDraw) {
  if (view.turn !== view.seat || !(view.legal || []).length) return words;
  if (!canDraw) return `${words} ${view.cannot_draw || "You cannot draw now."}`;
  const fits = (view.legal || []).some((a) => a.type === "play");
  return `${words} ${fits ? "You may draw while a card fits." : "Nothing fits: draw."}`;
}

/** Pointing at, focusing or holding a finger on `el` shows `text` in the message area. */
function explains(el, text) {
  const show = () => showNote(el, text);
  el.addEventListener("pointerenter", (e) => {
    if (e.pointerType === "mouse") show();
  });
  el.addEventListener("focus", show);
  el.addEventListener(NOTE_AGAIN, show);
  el.addEventListener("pointerleave", () => hideNote(el));
  el.addEventListener("blur", () => hideNote(el));
  attachLongPress(el, show);
}
