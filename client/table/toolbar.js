// The board of tools below the table (beside it on a wide or short screen): sort, Hint,
// Undo, Pause and Menu.
import { h } from "../dom.js";

export function toolbar(m, on) {
  const { room, view } = m;
  const items = [
    h("button", {
      type: "button", class: "tool", testid: "sort", onclick: on.sort,
      "aria-label": `Sort: ${m.sort === "suit" ? "by suit" : "by rank"}. Switch (S)`,
    }, m.sort === "suit" ? "By suit" : "By rank", h("kbd", { "aria-hidden": "true" }, "S")),
  ];
  if (room.mode === "computer" || room.mode === "local") {
    // No hint at a table with a friend: one player would get the computer's advice unseen.
    items.push(h("button", {
      type: "button", class: "tool", testid: "hint", onclick: on.hint,
      disabled: !(view && view.legal && view.legal.length) || m.covered,
      "aria-label": "Hint (H)",
    }, "Hint", h("kbd", { "aria-hidden": "true" }, "H")));
  }
  if (room.mode === "computer") {
    items.push(h("button", {
      type: "button", class: "tool", testid: "undo", onclick: on.undo,
      disabled: !room.can_undo, "aria-label": "Undo your last move (U)",
    }, "Undo", h("kbd", { "aria-hidden": "true" }, "U")));
    items.push(h("button", {
      type: "button", class: "tool", testid: "pause", onclick: on.pause,
      "aria-pressed": room.paused ? "true" : "false",
      "aria-label": room.paused ? "Resume the computer (Space when paused)" : "Pause the computer",
    }, room.paused ? "Resume" : "Pause"));
  }
  // 004: Undo, Hint, the sort button and Menu on a board below the table (beside it on
  // wide screens); Scores, full screen, settings and the rules are in the Menu.
  items.push(h("button", {
    type: "button", class: "tool", testid: "menu", onclick: on.menu,
    "aria-haspopup": "dialog",
  }, "Menu"));
  return h("nav", { class: "toolbar", "aria-label": "Table tools" }, items);
}
