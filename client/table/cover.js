// Pass and play's cover: the hand hidden until the next player reveals it.
import { cardBack } from "../cardview.js";
import { h } from "../dom.js";

export function coverPanel(m, on) {
  const name = m.names.name(m.view.turn);
  return h("section", {
    class: "cover",
    testid: "cover",
    role: "dialog",
    "aria-modal": "true",
    "aria-labelledby": "cover-title",
    dataset: { seat: String(m.view.turn) },
  },
    h("div", { class: "cover-card" },
      h("div", { class: "cover-backs", "aria-hidden": "true" }, cardBack(), cardBack(), cardBack()),
      h("h2", { id: "cover-title" }, `Pass the device to ${name}`),
      h("p", {}, `${name}: when only you can see the screen, reveal your hand.`),
      h("button", { type: "button", class: "btn primary big", testid: "reveal", onclick: on.reveal, autofocus: true },
        "Reveal my hand")));
}
