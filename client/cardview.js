// Cards drawn with HTML and CSS: faces (rank and suit), backs, fans and suit tokens.
import { h, NOTE_AGAIN } from "./dom.js";
import { cardName, rankLabel, suitClass, suitGlyph, suitName } from "./cards.js";

const FACE_LETTERS = { J: "J", Q: "Q", K: "K" };

/** The inside of a face-up card: two corners and a centre. */
function faceParts(code) {
  const rank = rankLabel(code);
  const glyph = suitGlyph(code[1]);
  const corner = (where) =>
    h("span", { class: `corner ${where}`, "aria-hidden": "true" },
      h("span", { class: "r" }, rank), h("span", { class: "s" }, glyph));
  const centre = FACE_LETTERS[code[0]]
    ? h("span", { class: "pip face-letter", "aria-hidden": "true" }, FACE_LETTERS[code[0]],
      h("small", {}, glyph))
    : h("span", { class: `pip${code[0] === "8" ? " eight" : ""}`, "aria-hidden": "true" }, glyph);
  return [corner("tl"), centre, corner("br")];
}

/** A face-up card that is not a control (the pile, revealed hands). */
export function faceCard(code, { small = false, testid, extraClass = "" } = {}) {
  return h("span", {
    class: `card face ${suitClass(code[1])}${small ? " small" : ""} ${extraClass}`.trim(),
    role: "img",
    "aria-label": cardName(code),
    testid,
    dataset: { card: code },
  }, faceParts(code));
}

const ORDINALS = { 1: "first", 2: "second", 3: "third", 4: "fourth" };

/** A card of the player's hand: a button. `addable`: it may go down on top of the cards
 * lifted, in the same move; `order`: its place among several lifted together. Its name
 * ("ten of clubs, cannot be played now") is text of its own, seen only by a screen
 * reader: the corners ("10♣") are drawn for the eye and hidden from it, so the name is
 * never an aria-label that the visible "10♣" would have to be part of. */
export function handCard(code, { playable, addable = false, order = null, lifted, reason, focusable, onClick, onLongPress, onHover, onLeave }) {
  const bright = playable || addable || lifted;
  let label = playable || lifted ? cardName(code) : addable ? `${cardName(code)}, can go on top` : `${cardName(code)}, cannot be played now`;
  if (lifted) label += order ? `, lifted ${ORDINALS[order] || order}` : ", lifted";
  const el = h("button", {
    type: "button",
    class: `card face ${suitClass(code[1])} ${bright ? "playable" : "dim"}${addable ? " addable" : ""}${lifted ? " lifted" : ""}`,
    "aria-pressed": lifted ? "true" : "false",
    title: bright || !reason ? cardName(code) : null,
    tabindex: focusable ? "0" : "-1",
    dataset: { card: code, playable: playable ? "true" : "false", addable: addable ? "true" : "", order: order ? String(order) : "" },
    onclick: (event) => {
      if (el.dataset.longPressed === "1") {
        el.dataset.longPressed = "";
        event.preventDefault();
        return;
      }
      onClick(code, event);
    },
  }, h("span", { class: "visually-hidden" }, label), faceParts(code),
  order ? h("span", { class: "lift-order", "aria-hidden": "true" }, String(order)) : null);
  attachLongPress(el, () => onLongPress?.(code, el));
  if (!bright && reason && onHover) {
    el.addEventListener("pointerenter", (e) => {
      if (e.pointerType === "mouse") onHover(code, el, reason);
    });
    el.addEventListener("focus", () => {
      if (el.matches(":focus-visible")) onHover(code, el, reason);
    });
    el.addEventListener(NOTE_AGAIN, () => onHover(code, el, reason));
    el.addEventListener("pointerleave", () => onLeave?.());
    el.addEventListener("blur", () => onLeave?.());
  }
  return el;
}

/** Hold a finger on an element for half a second: `action` runs and the tap is eaten. */
export function attachLongPress(el, action) {
  let timer = null;
  const cancel = () => {
    window.clearTimeout(timer);
    timer = null;
  };
  el.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    cancel();
    timer = window.setTimeout(() => {
      el.dataset.longPressed = "1";
      timer = null;
      action();
    }, 500);
  });
  for (const name of ["pointerup", "pointerleave", "pointercancel", "pointermove"]) {
    el.addEventListener(name, (event) => {
      if (name === "pointermove" && event.pointerType === "mouse") return;
      if (name === "pointermove" && timer && Math.hypot(event.movementX, event.movementY) < 6) {
        return;
      }
      cancel();
    });
  }
  el.addEventListener("contextmenu", (event) => {
    if (el.dataset.longPressed === "1") event.preventDefault();
  });
}

export function cardBack({ small = false } = {}) {
  return h("span", { class: `card back${small ? " small" : ""}`, "aria-hidden": "true" });
}

/** A fan of `count` face-down cards (at most 12 drawn) with the count on it. */
export function fan(count, { label } = {}) {
  const shown = Math.min(count, 12);
  const spread = shown <= 1 ? 0 : Math.min(8, 60 / (shown - 1));
  const cards = [];
  for (let i = 0; i < shown; i++) {
    const angle = shown <= 1 ? 0 : -spread * ((shown - 1) / 2) + spread * i;
    cards.push(h("span", {
      class: "card back tiny",
      style: { transform: `rotate(${angle}deg)` },
      "aria-hidden": "true",
    }));
  }
  return h("span", { class: "fan", role: "img", "aria-label": label || `${count} cards` },
    h("span", { class: "fan-cards" }, cards),
    h("span", { class: "fan-count", "aria-hidden": "true" }, String(count)));
}

/** A carved suit token: the suit an eight named. */
export function suitToken(suit, { testid = "suit-token", big = false } = {}) {
  return h("span", {
    class: `token ${suitClass(suit)}${big ? " big" : ""}`,
    role: "img",
    "aria-label": `Suit in force: ${suitName(suit)}`,
    testid,
    dataset: { suit },
  }, suitGlyph(suit));
}

/** A token of the suit picker: the suit's glyph and name, and the key that names it
 * (`digit`, shown inside the token, and the suit's letter). Named, like a card, by text
 * only a screen reader reads ("hearts (1 or H)"), what is drawn hidden from it. */
export function suitPick(suit, digit, onPick) {
  const name = `${suitName(suit)} (${digit} or ${suit})`;
  return h("button", {
    type: "button",
    class: `token pick ${suitClass(suit)}`,
    dataset: { suit, key: digit },
    "aria-keyshortcuts": `${digit} ${suit}`,
    title: name,
    onclick: () => onPick(suit),
  },
  h("span", { class: "visually-hidden" }, name),
  h("span", { "aria-hidden": "true" }, suitGlyph(suit)),
  h("span", { class: "pick-key", testid: "suit-key", "aria-hidden": "true" }, digit),
  h("span", { class: "pick-name", "aria-hidden": "true" }, suitName(suit)));
}
