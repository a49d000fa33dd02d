// The suit picker: the four suits in the order of the keys 1 to 4, and Put back.
import { cardName } from "../cards.js";
import { suitPick } from "../cardview.js";
import { h } from "../dom.js";
import { suitDigit, suitOrder } from "./suitkeys.js";

/** The picker's words: duo's text says "press Choose suit"; 101 orders a suit with a jack. */
function pickerTitle(variant) {
  if (variant === "duo") return "Choose suit";
  if (variant === "hundred-and-one") return "Order a suit";
  return "Name a suit";
}

export function suitPicker(m, on) {
  const variant = m.room.variant;
  return h("div", {
    class: "suit-picker",
    testid: "suit-picker",
    role: "group",
    "aria-label": `${pickerTitle(variant)} for ${cardName(m.picker)}`,
  },
    h("p", { class: "picker-title", testid: "picker-title" }, pickerTitle(variant)),
    h("div", { class: "picker-tokens" },
      suitOrder(variant).map((s) => suitPick(s, suitDigit(s, variant), on.suit))),
    h("button", { type: "button", class: "btn small ghost", onclick: on.drop, testid: "picker-cancel" },
      "Put back", h("kbd", { "aria-hidden": "true" }, "Esc")));
}
