// The Rules page: a short text for each table we deal (the engine's rules, in words), and
// what each table's screen and keys do (the same list in the table's Help).
import { h } from "./dom.js";
import { houseMenuOf, variantsCatalogue } from "./house.js";
import { suitOrder } from "./table/suitkeys.js";

const SCORING = "Cards left in a hand count: an eight 50, a king, queen, jack or ten 10, an ace 1, the others their number.";

export const RULES = {
  duo: {
    title: "Duo — the private table for two",
    about: "Two players, one deck, eights wild: each round stands alone, won or lost.",
    intro: "Two players, one standard deck of 52 cards, and every eight is wild.",
    rules: [
      "Each player gets 7 cards. The next card starts the pile; the opening card is never an eight. The rest is the stock.",
      "Player 1 starts the first round; the starter alternates each round.",
      "Play one card that matches the top card’s suit or rank.",
      "An eight is wild: play it on anything and name a suit. The next card must be that suit or another eight. You may finish with an eight.",
      "If no card of yours fits, draw one card at a time until one does, then play it. You may not draw while you hold a card that fits. Drawing keeps your turn.",
      "When the stock is empty, the pile under its top card is shuffled into a new stock; the top card and a named suit stay.",
      "If you can neither play nor draw, pass. Two passes in a row end a blocked round.",
      "The first to empty their hand wins the round. In a blocked round the lower total left in hand wins; equal totals tie.",
      SCORING,
      "Each round stands alone: there is no running score. Both players agree to start the next round.",
    ],
  },
  classic: {
    title: "Classic Crazy Eights",
    about: "Two to six players, eights wild, a turn clock: the first to 100 points wins.",
    intro: "Two to six players; a game to 100 points.",
    rules: [
      "With two players everyone gets 7 cards; with three to six, 5 cards each. An opening eight goes back into the middle of the stock.",
      "The deal moves one seat to the left each hand; the player on the dealer’s left starts and play goes to the left.",
      "Play one card that matches the suit or the rank of the top card.",
      "Eights are wild: play one on anything and name the suit the next player must follow (or play another eight).",
      "If you cannot play, or would rather not, draw one card at a time until one fits. Then play it or keep it; either way your turn ends.",
      "When the stock runs out, the pile under its top card becomes a new stock. Nothing to draw and nothing fits: pass. The 21st run-out in one hand blocks it.",
      "The first player out scores the points of every card left in the other hands. In a blocked hand the lowest count scores the difference to each other hand.",
      SCORING,
      "After a hand in which someone reaches 100, the highest total wins.",
      "Each turn has a 20-second timer: when it runs out the table plays your lowest card, or draws.",
    ],
  },
  newfoundland: {
    title: "Newfoundland Krazy 8’s",
    about: "Two to seven players: twos and the queen of spades make the next pick up, jacks skip, kings turn the play. To 250.",
    intro: "Two to seven players, and the four specials: twos that stack, jacks that skip, the queen of spades, kings that turn the play. A game to 250 points.",
    rules: [
      "Two to seven players; a new table comes up on four, and the computer takes every seat nobody else does. Five cards each at three or more, seven each heads-up. An opening eight is buried in the stock and another card turned.",
      "The card turned up to start the pile never acts: a two turned up makes nobody pick up, a jack skips nobody, a king turns nothing. A two may still be matched by a two, which does start a pickup.",
      "Play one card that matches the top card by rank or by the suit in force.",
      "Eights are wild: play one on anything and name a suit. The named suit stays in force until someone plays a card that is not an eight.",
      "If nothing fits, draw one card at a time until one does, then play it. You may not draw while you hold a card that fits. When the stock runs out, the pile under its top card is shuffled into a new stock; with nothing to draw and nothing that fits, you pass.",
      "A two: the next player picks up 2 and loses the turn. Two to four twos may go down together (4, 6 or 8 to pick up): the first must fit, they go down in the order you lift them, and the last, on top, sets the suit. Only twos go down together.",
      "The queen of spades: the next player picks up 5 and loses the turn. Queens go down one at a time. The host may make every queen a pickup five.",
      "A jack skips the next player. A king turns the play around, so whoever played just before you plays again; with two players a king simply passes the turn.",
      "A pickup waits for its player, who answers it or takes it (Take, or T) and loses the turn. A two answers a two and any queen answers a queen, never one for the other; an answer need not match the suit or rank, and the pickup grows (2, 4, 6…; 5, 10, 15…) and moves on. An eight, a jack or a king is not an answer. You may take even when you could answer.",
      "After a pickup is taken, the next player on plays, on the same top card. At two players, the player who laid the two or queen (or a jack) moves again.",
      "A pickup larger than the stock: the pile under the top card is shuffled in the middle of it; what even that cannot give is not taken.",
      "Going out on any card is allowed, a two, a queen or an eight too, and that last card does nothing: the hand is over, and a pickup it answered lapses.",
      "If nobody at all can move, the hand is over: the lowest count in hand wins it and scores the cards left in the other hands; players who share the lowest count each score that.",
      "The first out scores the cards left in every other hand: an eight 50, a queen 40, a two 30, a king 20, a jack 15, an ace 1, the others their number. With “losers go down as well” each other player also takes its own cards off its own total, in a blocked hand too, and a total may go below nought.",
      "After a hand in which someone reaches 250 (or the host’s target), the highest total wins; equal totals share the win.",
    ],
  },
  "ember-ridge": {
    title: "Ember Ridge Crazy Eights",
    about: "Two to four players at a camp table: draw when you like, no new stock; first to 100, 150 or 200.",
    intro: "Two to four players at a camp table on a pine ridge.",
    rules: [
      "Seven cards each at two players, five at three or four. An opening eight is buried in the stock and the next card turned.",
      "The dealer’s left starts and play goes clockwise.",
      "Play one card that matches the top card by suit or rank.",
      "Eights are wild: play one on anything and name the suit the next player must follow.",
      "You may draw even when you could play. Draw until a card fits, then play it.",
      "There is no new stock: when the stock is empty and nothing fits, you pass. If nobody can play, the hand is blocked and the lowest hand wins it.",
      "The first player out scores the cards left in the other hands.",
      SCORING,
      "The first to 100 at two players, 150 at three or 200 at four wins the game.",
    ],
  },
  "hundred-and-one": {
    title: "101",
    about: "Two to six players, 36 cards, jacks wild, penalty cards and bridges: keep your total low, over 101 you are out.",
    intro: "Two to six players and a 36-card pack, six to ace. Each round, be the first to empty your hand; over the game, keep your total low.",
    rules: [
      "Everyone gets 5 cards; the rest lie face down as the bank. Dice pick the first dealer (two dice each, from the game’s secret seed: the highest total deals, ties roll again); after that the highest total deals.",
      "The dealer’s own fifth card goes onto the table by itself as the first move. The dealer may add cards of its rank (or leave it: Pass), covers it if it is a six, and moves again if it made everyone skip. An opening jack orders a suit too: Order a suit (O), or Pass to leave it its own.",
      "Cover the top card of the table: the same suit, the same rank, or a jack. A jack covers anything and orders a suit: until the jack is covered, only that suit or another jack goes on it.",
      "Several cards of one rank may go down at once as one move, the last one on top: lift the first (it must fit), tap the others in the order you want them, then lay them.",
      "Before your move you may draw up to 3 cards from the bank (Draw shows how many are left), even holding a card that fits. After drawing, a card that fits must be played; if nothing fits after 3, pass.",
      "A six must be covered by whoever laid it, in the same turn: play a card that fits on it; holding none, draw until one fits. Nobody goes out on a six.",
      "Sevens: the next player draws 1 for each seven of the move. Eights: the next player draws 2 and skips a turn. Aces: the next player skips a turn. The queen of spades: the next player draws 5, if it ends the move.",
      "Several eights or aces hit the next players one each, round and round; once all have skipped, you move again. With two players you move again after every skip. A penalty cannot be passed on: the cards are dealt at once, as part of the move that caused them, and everyone sees how many.",
      "When the bank runs out (its last card drawn), the table but its top card is shuffled into a new bank at once, and the round’s points are multiplied: ×2, then ×3, and so on (the ×2 beside the bank). Only sixes under the top card make no new bank: a six drawn back could only go round and round.",
      "The round ends once someone has no cards — but nobody goes out on a six, and the last card still acts. The others score the cards in hand; whoever went out scores 0, or −20 for each jack of the last move. Every score is times the bank’s multiplier.",
      "Cards in hand: six to nine 0, ten 10, jack 20, queen 10, queen of spades 50, king 10, ace 15.",
      "Bridge: four tens, jacks, queens, kings or aces in a row on top of the table, across moves and players. Whoever put down the fourth may declare it (Bridge, or B) within 10 seconds, before anyone else moves: the round ends at once and everyone, them too, scores the cards in hand; the jacks of that move score −20 each.",
      "If nobody can move (the bank cannot be renewed and no player holds a card that fits), the round ends at the pass that shows it, without waiting for the others to pass too, and everyone scores the cards in hand.",
      "Points add up from round to round; the lowest total wins. With a limit (101 unless the host chose otherwise): go over it and you are out of the game; land exactly on the limit or on half of it (50) and your total goes back to 0. The last player left wins.",
      "The host may finish the game at any time (Finish game): the round under way is not scored, and the lowest total wins.",
    ],
  },
};

/**
 * What each table's screen and keys do, for its Rules page and its Help: only what that
 * table has. `wild`: the rank that names (or orders) a suit; `keep`: a drawn card may be
 * kept; `pickups`, `twos`: Newfoundland's pickups and twos laid together; `rank`: 101's
 * cards of a rank laid together; `bank`: 101's counted draws, multiplier and bridges;
 * `restock`: an empty stock becomes a new one; `next`: what N deals.
 */
const TOOLS = {
  duo: { wild: "eight", restock: true, next: "round" },
  classic: { wild: "eight", keep: true, restock: true, next: "hand" },
  newfoundland: { wild: "eight", pickups: true, twos: true, restock: true, next: "hand" },
  "ember-ridge": { wild: "eight", restock: false, next: "hand" },
  "hundred-and-one": { wild: "jack", rank: true, bank: true, next: "hand" },
};

const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

/** The list of what the table's screen and keys do at `variant` ([] for none we know). */
export function atTheTable(variant) {
  const t = TOOLS[variant];
  if (!t) return [];
  const stock = t.bank ? "the bank" : "the stock";
  const out = [
    "Tap a card to lift it, then tap it again (or Play) to play it. Only the cards you may play look bright. Hold a finger on a dim card, or point at it, to read why it does not fit.",
    t.wild === "jack"
      ? "Lift a jack and four suit tokens open: tap the suit it orders."
      : "Lift an eight and four suit tokens open: tap the suit you name.",
  ];
  let drawing = t.bank
    ? "Tap the bank, or Draw, to draw: Draw says how many of your three draws are left."
    : `Tap ${stock} to draw.`;
  if (t.keep) drawing += " A card you drew that fits: Play it, or Keep it.";
  if (t.restock) drawing += " When the stock is empty it shows how many cards a draw turns into a new stock.";
  else if (t.restock === false) drawing += " When the stock is empty and nothing fits, Pass.";
  out.push(drawing);
  if (t.pickups) {
    out.push("A pickup waiting for you shows on the pile (+6) and in words: tap a bright two (or queen) to answer it, or Take. Twos go down together: lift a two, tap another two to lay it on top (the number on each says the order), then tap a lifted card again, or Lay, to play them as one move. The arrow beside the turn says which way the play goes; a king turns it.");
  }
  if (t.rank) {
    out.push("Cards of one rank go down together: lift one, tap the others in order (numbered), then tap a lifted card again, or Lay. The ×2 beside the bank, marked “points”, is this round’s multiplier. A bridge you laid shows a Bridge button counting down its ten seconds. A seat out of the game is greyed; each plate shows its total against the limit. The host has Finish the game in the Menu.");
  }
  out.push(keysSentence(variant, t));
  return out;
}

/** The table's keyboard in one sentence: only the keys this table uses. */
function keysSentence(variant, t) {
  const together = t.twos ? " (Enter on another two lays it on top)" : t.rank ? " (Enter on another card of the rank lays it on top)" : "";
  const suits = suitOrder(variant);
  const keys = [
    `Keyboard: Tab to your hand, the arrow keys move along it, Enter or Space lifts and plays${together}`,
    "D draws",
  ];
  if (t.keep) keys.push("K keeps the card you drew");
  keys.push("P passes");
  if (t.pickups) keys.push("T takes a pickup");
  if (t.bank) keys.push("B declares a bridge");
  keys.push(`1–4 or ${suits.join(", ")} name ${suits.map((x) => SUIT_WORDS[x]).join(", ")}`);
  keys.push("S sorts", "H hints (against the computer and in pass and play)",
    `N deals the next ${t.next}`, "U undoes against the computer", "M turns the sound off",
    "Escape puts a card back");
  return `${keys.join(", ")}.`;
}

/** "At the table" as a list (the Rules page and Help). */
export function atTheTableList(variant) {
  const items = atTheTable(variant);
  return items.length ? h("ul", { class: "rule-list plain", testid: "at-the-table" }, items.map((text) => h("li", {}, text))) : null;
}

/** The house rules a host may choose at this table, the rule text's answer first. */
function houseList(variant) {
  const box = h("div", { class: "house-list", testid: "rules-house" },
    h("p", { class: "muted" }, "Loading…"));
  variantsCatalogue().then((data) => {
    const menu = houseMenuOf(data, variant);
    box.replaceChildren(
      h("p", {}, "The host may change these in Settings before the deal; the table shows everyone the ones that differ from the rules above."),
      h("dl", { class: "house-dl" }, menu.map((rule) => {
        const standard = rule.choices.find((c) => c.key === rule.standard);
        const others = rule.choices.filter((c) => c.key !== rule.standard);
        return [
          h("dt", {}, rule.label),
          h("dd", {}, h("strong", {}, standard ? standard.label : ""), " (these rules)",
            others.length ? h("ul", {}, others.map((c) => h("li", {}, c.label))) : null),
        ];
      })));
  }).catch(() => {
    box.replaceChildren(h("p", { class: "muted" }, "The house rules cannot be loaded right now."));
  });
  return box;
}

/** The rules of one table as a heading, its intro and the numbered list (Rules page, Help). */
export function rulesText(variant, { level = "h1" } = {}) {
  const rules = RULES[variant];
  if (!rules) return null;
  return [
    h(level, { id: `rules-${variant}-title` }, rules.title),
    h("p", { class: "lead" }, rules.intro),
    h("ol", { class: "rule-list" }, rules.rules.map((r) => h("li", {}, r))),
  ];
}

export function rulesPage(variant) {
  const rules = RULES[variant];
  const others = Object.keys(RULES).map((v) => h("li", {},
    v === variant ? h("strong", { "aria-current": "page" }, RULES[v].title)
      : h("a", { href: `/rules/${v}`, "data-link": "" }, RULES[v].title)));
  if (!rules) {
    return h("main", { class: "page narrow", testid: "rules" },
      h("h1", {}, "Rules"),
      h("p", {}, "There is no table by that name. These are the tables we deal:"),
      h("ul", { class: "rule-links" }, others));
  }
  return h("main", { class: "page rules-page", testid: "rules", dataset: { variant } },
    h("p", { class: "crumbs" }, h("a", { href: "/", "data-link": "" }, "\u2190 Eights")),
    rulesText(variant),
    h("h2", {}, "House rules"),
    houseList(variant),
    h("h2", {}, "At the table"),
    atTheTableList(variant),
    h("h2", {}, "Why it is fair"),
    h("p", {}, "A secret seed shuffles every deal of a game. You see its fingerprint when the game starts and the seed itself when it ends, so every hand can be dealt again and checked: ",
      h("a", { href: "/verify", "data-link": "" }, "verify a game"), "."),
    h("h2", {}, "Other tables"),
    h("ul", { class: "rule-links" }, others));
}
