// The suit picker's keys, as each table's text gives them: 1 to 4 and C, D, H, S.
// 004 (Ember Ridge) names clubs, diamonds, spades, hearts; 000 and the others clubs,
// diamonds, hearts, spades. The picker lays its tokens out in the same order.

const DEFAULT_ORDER = ["C", "D", "H", "S"];
const ORDERS = { "ember-ridge": ["C", "D", "S", "H"] };

/** The suits in the order of the keys 1 to 4 at `variant`. */
export function suitOrder(variant) {
  return ORDERS[variant] || DEFAULT_ORDER;
}

/** The digit that names `suit` at `variant` ("1" to "4"). */
export function suitDigit(suit, variant) {
  return String(suitOrder(variant).indexOf(suit) + 1);
}

/** The suit a key names at `variant` (a digit 1-4 or a suit's letter), or null. */
export function suitFromKey(key, variant) {
  const k = String(key).toUpperCase();
  const order = suitOrder(variant);
  if (/^[1-4]$/.test(k)) return order[Number(k) - 1];
  return order.includes(k) ? k : null;
}
