// The table's own dialogs (004): Help, the rules of the table being played, and the Menu.
// Both open over the table without leaving it, and keep the table's keys to themselves.
import { focusOpener, h } from "../dom.js";
import { atTheTableList, rulesText } from "../rules.js";

let open = null;

export function closeTableDialog() {
  if (!open) return;
  const { overlay, opener, onKey } = open;
  overlay.remove();
  document.removeEventListener("keydown", onKey, true);
  open = null;
  focusOpener(opener);
}

export function tableDialogOpen() {
  return Boolean(open);
}

/** A modal dialog over the table: `title`, `testid`, the body's children. */
function openDialog(title, testid, body) {
  closeTableDialog();
  const opener = document.activeElement;
  const titleId = `${testid}-title`;
  const dialog = h("div", {
    class: "dialog table-dialog",
    role: "dialog",
    "aria-modal": "true",
    "aria-labelledby": titleId,
    testid,
  },
    h("div", { class: "dialog-head" },
      h("h2", { id: titleId }, title),
      h("button", {
        type: "button",
        class: "btn small ghost",
        "aria-label": `Close ${title.toLowerCase()}`,
        testid: `${testid}-close`,
        onclick: closeTableDialog,
      }, "\u2715")),
    body);
  const overlay = h("div", {
    class: "overlay",
    onclick: (e) => { if (e.target === overlay) closeTableDialog(); },
  }, dialog);
  // The table listens on the document: while the dialog is open, its letters must not act
  // behind it, wherever the focus is. Escape closes the dialog.
  const onKey = (e) => {
    e.stopPropagation();
    if (e.key === "Escape") {
      e.preventDefault();
      closeTableDialog();
    } else if (e.key === "Tab") {
      // The focus stays in the dialog until it closes: Tab goes round its controls.
      const items = Array.from(dialog.querySelectorAll("a[href], button:not([disabled]), input, select, [tabindex='0']"))
        .filter((el) => el.getClientRects().length);
      if (!items.length) return;
      e.preventDefault();
      const at = items.indexOf(document.activeElement);
      const next = at < 0 ? 0 : (at + (e.shiftKey ? -1 : 1) + items.length) % items.length;
      items[next].focus();
    }
  };
  document.addEventListener("keydown", onKey, true);
  document.body.append(overlay);
  open = { overlay, opener, onKey };
  dialog.querySelector("button")?.focus();
  return dialog;
}

/** Help: the rules of `variant`, read without leaving the table. */
export function openHelp(variant, title) {
  const text = rulesText(variant, { level: "h3" });
  openDialog("Help", "help-dialog", h("div", { class: "help-body", dataset: { variant } },
    text || h("p", {}, `The rules of ${title} are not written down here yet.`),
    // What this table's screen and keys do: the same list as its Rules page.
    text ? h("h3", {}, "At the table") : null,
    atTheTableList(variant)));
}

/**
 * The Menu: `items` are [testid, label, action, {pressed}] rows (a new game, scores, full
 * screen, settings, help, leaving...); each closes the menu before it acts. A row that is
 * a string is a line of words (the away limit), not a button.
 */
export function openMenu(items) {
  openDialog("Menu", "menu-dialog", h("div", { class: "menu-list" },
    items.map((item) => {
      if (typeof item === "string") return h("p", { class: "menu-note small muted", testid: "menu-note" }, item);
      const [testid, label, action, { pressed } = {}] = item;
      return h("button", {
        type: "button",
        class: "btn menu-item",
        testid,
        "aria-pressed": pressed === undefined ? null : String(pressed),
        onclick: () => {
          closeTableDialog();
          action();
        },
      }, label);
    })));
}

/** A dialog over the table holding `body` (the invitation to an open seat). */
export function openPanel(title, testid, body) {
  return openDialog(title, testid, body);
}

/**
 * A question asked once more before something that cannot be undone (leaving the table,
 * ending the game): `text` says what happens; `yes` acts, the other button keeps playing.
 */
export function openConfirm({ title, testid, text, yes, no = "Keep playing", onYes }) {
  const dialog = openDialog(title, testid, h("div", { class: "confirm-body" },
    h("p", {}, text),
    h("div", { class: "prompt-buttons" },
      h("button", {
        type: "button",
        class: "btn primary",
        testid: `${testid}-yes`,
        onclick: () => {
          closeTableDialog();
          onYes();
        },
      }, yes),
      h("button", { type: "button", class: "btn ghost", testid: `${testid}-no`, onclick: closeTableDialog }, no))));
  // The safe answer first under the finger: focus on "keep playing", not on the close.
  dialog.querySelector(`[data-testid=${testid}-no]`)?.focus();
  return dialog;
}
