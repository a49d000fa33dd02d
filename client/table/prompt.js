// What the player may do now, under the pile: a sentence and its buttons (play the lifted
// cards, keep, pass, take, draw, order a suit, declare a bridge), or the move being sent.
import { cardName } from "../cards.js";
import { h } from "../dom.js";
import { canRestart } from "./bar.js";
import { newStockWords } from "./centre.js";
import { addableCards, legalOf, needsSuit, playableCards, playsStarting } from "./legal.js";
import { newGameButton } from "./results.js";
import { isOut } from "./seats.js";
import { awaySeat, bridgeWindow, pickupText } from "./turn.js";
import { capital, COUNT_WORDS, RANK_PLURALS, RANK_WORDS } from "./words.js";

/** A move being sent, in a few words ("Playing the nine of hearts"). */
function pendingWords(action) {
  if (!action) return "Your move";
  if (action.type === "play") {
    const cards = action.cards || [];
    return cards.length === 1 ? `Playing the ${cardName(cards[0])}` : `Playing ${cards.length} cards`;
  }
  return { draw: "Drawing", keep: "Keeping the card", pass: "Passing", take: "Taking the pickup", bridge: "Declaring the bridge" }[action.type] || "Your move";
}

export function promptRow(m, on) {
  const { view } = m;
  const buttons = [];
  let text = "";
  let tip = false; // the general instruction, which a short screen leaves out
  if (m.pending && !view.hand_over) {
    // A move sent and not yet answered; while the connection is away it waits, in words.
    const what = pendingWords(m.pending.action);
    const text = m.pending.waiting
      ? `${what}: waiting for the connection…`
      : m.pending.action ? `${what}…` : "…";
    return h("div", { class: "prompt", testid: "prompt", dataset: { pending: m.pending.waiting ? "waiting" : "true" } },
      h("p", { class: `prompt-text${m.pending.waiting ? "" : " muted"}` }, text));
  }
  const bridging = !m.covered && !view.hand_over ? bridgeWindow(m) : null;
  if (bridging && !bridging.mine) {
    return h("div", { class: "prompt", testid: "prompt", dataset: { bridge: "other" } },
      h("p", { class: "prompt-text" }, `${m.names.name(bridging.seat)} may declare a bridge: moves wait `,
        bridgeSecs(bridging), "."));
  }
  if (!m.covered && !view.hand_over && !m.watching && m.room.mode !== "local" && isOut(view, m.seat)) {
    // 101: over the limit, the player is dealt nothing and the others play on.
    return h("div", { class: "prompt", testid: "prompt", dataset: { out: "true" } },
      h("p", { class: "prompt-text", testid: "out-note" },
        `You are out of the game: your total went over ${view.limit}. The others play on; watch them, or start a new game.`),
      canRestart(m.room) ? h("div", { class: "prompt-buttons" }, newGameButton(on)) : null);
  }
  if (!m.covered && !view.hand_over) {
    const keep = legalOf(view, "keep");
    const pass = legalOf(view, "pass");
    const take = legalOf(view, "take");
    const draw = legalOf(view, "draw");
    const mine = view.turn === m.seat;
    const playable = playableCards(view);
    const stack = m.stack || [];
    const lifting = stack.length > 0 && playsStarting(view, stack).length > 0;
    if (lifting) {
      const more = addableCards(view, stack);
      const last = stack[stack.length - 1];
      const rank = RANK_WORDS[last[0]] || "card";
      if (stack.length > 1) {
        const many = `${COUNT_WORDS[stack.length] || stack.length} ${RANK_PLURALS[last[0]] || "cards"}`;
        text = `${capital(many)} lifted, the ${cardName(last)} on top${more.size ? `: tap another ${rank} to add it, or lay them.` : "."}`;
        buttons.push(button("play", `Lay ${many}`, () => on.playLifted(), { primary: true, key: "Enter" }));
        buttons.push(button("drop", "Put back", on.drop, { key: "Esc" }));
      } else if (!needsSuit(view, last)) {
        if (more.size) text = `The ${cardName(last)} is lifted: tap another ${rank} to lay it on top, or play it alone.`;
        buttons.push(button("play", `Play the ${cardName(last)}`, () => on.playLifted(), { primary: true, key: "Enter" }));
        buttons.push(button("drop", "Put back", on.drop, { key: "Esc" }));
      } else if (more.size) {
        text = `The ${cardName(last)} is lifted: tap another ${rank} to lay it on top, or tap it again to name a suit.`;
        buttons.push(button("play", `Play the ${cardName(last)}`, () => on.playLifted(), { primary: true, key: "Enter" }));
        buttons.push(button("drop", "Put back", on.drop, { key: "Esc" }));
      }
    } else if (view.drawn && playable.has(view.drawn)) {
      text = keep
        ? `You drew the ${cardName(view.drawn)}. Play it or keep it.`
        : `You drew the ${cardName(view.drawn)}. Play it.`;
      buttons.push(button("play", "Play it", () => on.playDrawn(), { primary: true, key: "Enter" }));
      if (keep) buttons.push(button("keep", "Keep it", on.keep, { key: "K" }));
    } else if (view.pending && take) {
      text = pickupText(m) || "";
    } else if (view.legal && view.legal.length) {
      if (awaySeat(m) !== null) text = "";
      else if (view.cover && mine) text = coverText(playable.size > 0, Boolean(draw));
      else if (view.opening && mine && legalOf(view, "order")) text = "Your opening jack: order a suit for it, lay more jacks on it, or leave it its own suit (Pass).";
      else if (view.opening && mine) text = "Your opening card: lay more of its rank on it, or leave it (Pass).";
      else if (playable.size) {
        text = "Tap a bright card to lift it, then tap it again to play.";
        tip = true;
      }
      else if (draw && newStockWords(view)) text = `Nothing fits: draw. ${newStockWords(view).sentence}`;
      else if (draw) text = "Nothing fits: draw from the stock.";
      else if (pass) text = "Nothing fits and nothing to draw: pass.";
      if (keep) buttons.push(button("keep", "Keep it", on.keep, { key: "K" }));
    }
    // 101: an opening jack: the dealer may order its suit (or Pass to keep the jack's own).
    if (legalOf(view, "order") && !m.picker) buttons.push(button("order", "Order a suit", on.order, { key: "O" }));
    if (pass) buttons.push(button("pass", "Pass", on.pass, { key: "P" }));
    if (take) {
      const count = view.pending?.count;
      buttons.push(button("take", count ? `Take ${count}` : "Take", on.take, { primary: !lifting, key: "T" }));
    }
    if (bridging && bridging.mine) {
      text = text || "A bridge! Declare it to end the round: everyone scores the cards in hand.";
      buttons.unshift(h("button", {
        type: "button", class: "btn primary bridge-btn", testid: "bridge", onclick: on.bridge, "aria-keyshortcuts": "B",
      }, "Bridge ", bridgeSecs(bridging), h("kbd", { "aria-hidden": "true" }, "B")));
    }
    const counted = typeof view.draws_left === "number";
    // 101: drawing is offered even with a card that fits (up to three; a six to cover).
    const always = counted || view.cover || view.opening;
    if (draw && counted) buttons.push(button("draw", `Draw (${view.draws_left} of 3 left)`, on.draw, { key: "D" }));
    else if (draw && (always || !playable.size)) buttons.push(button("draw", "Draw", on.draw, { key: "D" }));
  }
  return h("div", { class: "prompt", testid: "prompt" },
    text ? h("p", { class: `prompt-text${tip ? " prompt-tip" : ""}` }, text) : null,
    buttons.length ? h("div", { class: "prompt-buttons" }, buttons) : null);
}

/** 101's six to cover, saying only what the player can do: the engine offers a card that
 * fits, or (none fitting) Draw, or (nothing left to draw) Pass. */
export function coverText(fits, draw) {
  if (fits) return "Cover your six: play a card on it.";
  if (draw) return "Cover your six: nothing fits, so draw until a card does.";
  return "Nothing covers your six and nothing is left to draw: pass.";
}

/** The seconds left to declare a bridge, "(7 s)", ticking (clock.js updates it). */
function bridgeSecs(bridging) {
  return h("span", { class: "bridge-secs", testid: "bridge-secs" }, bridging.secs === null ? "" : `(${bridging.secs} s)`);
}

export function button(testid, label, onclick, { primary = false, key } = {}) {
  return h("button", {
    type: "button",
    class: `btn${primary ? " primary" : ""}`,
    testid,
    onclick,
    "aria-keyshortcuts": key && key.length === 1 ? key : null,
  }, label, key ? h("kbd", { "aria-hidden": "true" }, key) : null);
}

/** 004: "Pass, Keep it, Next hand and Scores appear beside your name plate when they
 * apply" (Next hand is also the results' own button). Pass and Keep it stand in the prompt
 * too, under the sentence that names them, at every table. */
export function besidePlate(m) {
  return m.room.variant === "ember-ridge" && !m.watching;
}
