// The board of tools below the table (beside it on a wide or short screen): sort, Hint,
// Undo, Pause and Menu.
import { h } from "../dom.js";

/**
 * A tool's inside: its name as a screen reader hears it ("Sort: by suit. Switch (S)"),
 * unseen, and what the board shows (the words, and the key on a screen with a keyboard),
 * unheard. The name is the tool's content, never an aria-label that the words and the key
 * shown ("By suitS") would have to be part of; it holds the words shown, so a voice that
 * says them finds the tool.
 */
function toolFace(name, words, key) {
  return [h("span", { class: "visually-hidden" }, name),
    h("span", { "aria-hidden": "true" }, words, key ? h("kbd", {}, key) : null)];
}

export function toolbar(m, on) {
  const { room, view } = m;
  const sorted = m.sort === "suit" ? "by suit" : "by rank";
  const items = [
    h("button", {
      type: "button", class: "tool", testid: "sort", onclick: on.sort,
    }, toolFace(`Sort: ${sorted}. Switch (S)`, m.sort === "suit" ? "By suit" : "By rank", "S")),
  ];
  if (room.mode === "computer" || room.mode === "local") {
    // No hint at a table with a friend: one player would get the computer's advice unseen.
    items.push(h("button", {
      type: "button", class: "tool", testid: "hint", onclick: on.hint,
      disabled: !(view && view.legal && view.legal.length) || m.covered,
    }, toolFace("Hint (H)", "Hint", "H")));
  }
  if (room.mode === "computer") {
    items.push(h("button", {
      type: "button", class: "tool", testid: "undo", onclick: on.undo,
      disabled: !room.can_undo,
    }, toolFace("Undo your last move (U)", "Undo", "U")));
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
