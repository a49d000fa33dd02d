// The player's own area: the name plate (and at Ember Ridge the buttons beside it) and the
// hand, its cards in rows as wide as the screen allows.
import { sortHand } from "../cards.js";
import { fan, handCard } from "../cardview.js";
import { h } from "../dom.js";
import { addableCards, legalOf, playableCards } from "./legal.js";
import { besidePlate, button } from "./prompt.js";
import { bubble, reactionsControl } from "./reactions.js";
import { isOut, scoreChip, seatMarks, showScores, skippedSeat } from "./seats.js";

export function myArea(m, on) {
  const { view, names, room } = m;
  const name = names.name(m.seat);
  const count = view.counts[m.seat] ?? (view.hand ? view.hand.length : 0);
  const turn = !view.hand_over && !room.closed && view.turn === m.seat;
  const skipped = !view.hand_over && skippedSeat(view) === m.seat;
  const out = isOut(view, m.seat);
  const plate = h("div", { class: `plate mine${turn ? " to-act" : ""}${skipped ? " skipped" : ""}${out ? " out" : ""}`, testid: "my-plate", dataset: { skipped: skipped ? "true" : "", out: out ? "true" : "" } },
    h("span", { class: "plate-name" }, room.mode === "local" ? name : `${name} (you)`),
    showScores(view) ? scoreChip(view, m.seat) : null,
    out ? h("span", { class: "seat-mark out-mark", testid: "out-mark" }, "out") : seatMarks(skipped, turn && view.pending ? view.pending.count : null),
    bubble(m, m.seat),
    room.mode !== "local" && on.react ? reactionsControl(m, on) : null);
  const row = besidePlate(m) ? plateRow(m, on, plate) : plate;
  if (m.covered || !view.hand) {
    return h("div", { class: "my-area" }, row,
      h("div", { class: "hand hidden-hand", testid: "hand-hidden" }, fan(count, { label: `${name}'s ${count} cards, face down` })));
  }
  return h("div", { class: "my-area" }, row, handEl(m, on));
}

function plateRow(m, on, plate) {
  const { view } = m;
  const mine = !m.pending && !m.covered && view.turn === m.seat && !view.hand_over;
  const buttons = [];
  if (mine && legalOf(view, "pass")) buttons.push(button("plate-pass", "Pass", on.pass, { key: "P" }));
  if (mine && legalOf(view, "keep")) buttons.push(button("plate-keep", "Keep it", on.keep, { key: "K" }));
  if (view.hand_over && !view.game_over) {
    buttons.push(h("button", { type: "button", class: "btn primary", testid: "plate-next-hand", onclick: on.agree, "aria-keyshortcuts": "N" },
      "Next hand", h("kbd", { "aria-hidden": "true" }, "N")));
  }
  if (showScores(view)) {
    buttons.push(h("button", {
      type: "button", class: "btn", testid: "plate-scores", onclick: on.toggleHistory,
      "aria-expanded": m.showHistory ? "true" : "false", "aria-controls": "history-panel",
    }, m.showHistory ? "Hide scores" : "Scores"));
  }
  return h("div", { class: "plate-row", testid: "plate-row" }, plate,
    h("div", { class: "plate-actions", testid: "plate-actions" }, buttons));
}

function handEl(m, on) {
  const { view } = m;
  const playable = playableCards(view);
  const stack = m.stack || [];
  const addable = addableCards(view, stack);
  const cards = sortHand(view.hand, m.sort);
  const focusCard = cards.includes(m.focus) ? m.focus : cards.find((c) => playable.has(c)) || cards[0];
  const widths = handLayout(cards.length, m.width, handMetrics());
  const rows = [];
  for (let r = 0; r < widths.rows; r++) {
    const slice = cards.slice(r * widths.perRow, (r + 1) * widths.perRow);
    rows.push(h("div", { class: "hand-row", style: { "--step": `${widths.step}px` } },
      slice.map((code) => handCard(code, {
        playable: playable.has(code),
        addable: addable.has(code),
        order: stack.length > 1 && stack.includes(code) ? stack.indexOf(code) + 1 : null,
        lifted: stack.includes(code) || (view.drawn === code && playable.has(code)),
        reason: (view.unplayable || {})[code],
        focusable: code === focusCard,
        onClick: on.card,
        onLongPress: on.explain,
        onHover: on.showReason,
        onLeave: on.hideReason,
      }))));
  }
  return h("div", {
    class: `hand${view.legal && view.legal.length ? " my-turn" : ""}`,
    testid: "hand",
    role: "group",
    "aria-label": `Your hand, ${cards.length} ${cards.length === 1 ? "card" : "cards"}. Arrow keys move, Enter lifts and plays.`,
    dataset: { count: String(cards.length) },
  }, rows);
}

/**
 * The hand's card width and the part of the window's width that is not the hand's, as the
 * style sheet sets them for this screen (`--card-w`, `--hand-gutter`): the sheet decides
 * the layout, and the rows below follow it.
 */
export function handMetrics() {
  const style = getComputedStyle(document.documentElement);
  const cardW = parseFloat(style.getPropertyValue("--card-w"));
  const gutter = parseFloat(style.getPropertyValue("--hand-gutter"));
  return { cardW: cardW > 0 ? cardW : null, gutter: gutter >= 0 ? gutter : null };
}

/** How many cards a row holds and how far apart they sit, for the screen's width. */
export function handLayout(n, width, { cardW = null, gutter = null } = {}) {
  const wide = width >= 720;
  const w = cardW || (wide ? 92 : 64);
  const room = Math.min(width, 1100);
  const avail = Math.max(160, room - (gutter ?? (wide ? 120 : 28)));
  // A card's middle stays uncovered (a tap there, or a test's click, lands on it):
  // past that, the hand goes on in another row.
  const minStep = Math.ceil(w * 0.56);
  const maxPerRow = Math.max(1, Math.floor((avail - w) / minStep) + 1);
  const rows = Math.max(1, Math.ceil(n / maxPerRow));
  const perRow = Math.ceil(n / rows);
  const step = perRow <= 1 ? w : Math.min(w + 8, (avail - w) / (perRow - 1));
  return { rows, perRow, step: Math.floor(step), cardW: w };
}
