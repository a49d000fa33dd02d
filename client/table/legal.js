// Reading the legal actions the server listed: the cards a play may start with, the cards
// that may go on top of the ones lifted, the play that lays exactly these. Nothing here
// decides a rule: every action the table sends is one of the view's `legal` list.

/** The cards that some legal play lays first. */
export function playableCards(view) {
  const out = new Set();
  for (const a of view?.legal || []) {
    if (a.type === "play" && a.cards && a.cards.length) out.add(a.cards[0]);
  }
  return out;
}

export function legalOf(view, type) {
  return (view?.legal || []).find((a) => a.type === type) || null;
}

/** The legal plays of `card` (one per suit for an eight). */
export function playsOf(view, card) {
  return (view?.legal || []).filter(
    (a) => a.type === "play" && a.cards && a.cards[0] === card,
  );
}

/** True when playing `card` needs a suit to be named. */
export function needsSuit(view, card) {
  return playsOf(view, card).some((a) => a.suit);
}

/** The legal plays that lay `cards` first, in that order (the whole play or its start). */
export function playsStarting(view, cards) {
  return (view?.legal || []).filter(
    (a) => a.type === "play" && a.cards && a.cards.length >= cards.length && cards.every((c, i) => a.cards[i] === c),
  );
}

/** The cards that may go down on top of `cards` in the same move (twos laid together). */
export function addableCards(view, cards) {
  const out = new Set();
  if (!cards.length) return out;
  for (const a of playsStarting(view, cards)) if (a.cards.length > cards.length) out.add(a.cards[cards.length]);
  return out;
}

/** The play that lays exactly `cards` (and names `suit`, for an eight), or null. */
export function exactPlay(view, cards, suit = null) {
  return playsStarting(view, cards).find((a) => a.cards.length === cards.length && (suit === null || a.suit === suit)) || null;
}
