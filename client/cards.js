// Card codes ("8H", "TS") as names, glyphs and colours; sorting a hand for display.
// Nothing here decides what may be played: that comes from the server's `legal` list.

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];

const SUIT_INFO = {
  C: { glyph: "\u2663", name: "clubs", one: "club" },
  D: { glyph: "\u2666", name: "diamonds", one: "diamond" },
  H: { glyph: "\u2665", name: "hearts", one: "heart" },
  S: { glyph: "\u2660", name: "spades", one: "spade" },
};

const RANK_NAMES = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};

const RANK_LABELS = { T: "10" };

export function rankOf(code) {
  return code[0];
}

export function suitOf(code) {
  return code[1];
}

/** "8H" -> "eight of hearts" */
export function cardName(code) {
  if (!code || code.length !== 2) return "a card";
  return `${RANK_NAMES[code[0]] || code[0]} of ${suitName(code[1])}`;
}

/** "the eight of hearts" / "an ace of spades" reads oddly: always "the". */
export function theCard(code) {
  return `the ${cardName(code)}`;
}

/** What is printed in a card's corner: 2..10, J, Q, K, A. */
export function rankLabel(code) {
  return RANK_LABELS[code[0]] || code[0];
}

export function suitGlyph(suit) {
  return SUIT_INFO[suit]?.glyph || "?";
}

export function suitName(suit) {
  return SUIT_INFO[suit]?.name || "an unknown suit";
}

/** A CSS class for the suit's colour; the four-colour deck is a class on <body>. */
export function suitClass(suit) {
  return `suit-${(suit || "x").toLowerCase()}`;
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

const SUIT_ORDER = { C: 0, D: 1, S: 2, H: 3 };

/**
 * The hand in display order. "suit": by suit (clubs, diamonds, spades, hearts so colours
 * alternate), then rank, eights last; "rank": by rank, eights last.
 */
export function sortHand(cards, mode = "suit") {
  const rank = (c) => RANKS.indexOf(c[0]);
  const eight = (c) => (c[0] === "8" ? 1 : 0);
  return [...cards].sort((a, b) => {
    if (eight(a) !== eight(b)) return eight(a) - eight(b);
    if (mode === "rank") {
      return rank(a) - rank(b) || SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]];
    }
    return SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]] || rank(a) - rank(b);
  });
}
