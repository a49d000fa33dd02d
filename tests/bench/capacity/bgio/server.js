// The boardgame.io server of the capacity benchmark (tests/bench/bench_capacity.py): a
// two-player game shaped like Crazy Eights duo, in memory (the default InMemory storage),
// with a playerView so each player sees only their own hand. Not the product.
//
//     node server.js        -> prints "listening on PORT" once it listens on 127.0.0.1
'use strict';

const { Server } = require('boardgame.io/server');
const { INVALID_MOVE } = require('boardgame.io/core');

const SUITS = ['C', 'D', 'H', 'S'];
const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
const HAND = 7;

function deal(G, random) {
  // Every card back into one deck, shuffled, 7 each, one face up.
  const deck = random.Shuffle(SUITS.flatMap((s) => RANKS.map((r) => r + s)));
  G.hands = { 0: deck.splice(0, HAND), 1: deck.splice(0, HAND) };
  G.pile = [deck.pop()];
  G.stock = deck;
  G.suit = G.pile[0][1];
  G.deals += 1;
}

function matches(card, top, suit) {
  return card[0] === '8' || card[1] === suit || card[0] === top[0];
}

const CrazyEights = {
  name: 'eights',
  minPlayers: 2,
  maxPlayers: 2,
  setup: ({ random }) => {
    const G = { hands: {}, pile: [], stock: [], suit: '', deals: 0 };
    deal(G, random);
    return G;
  },
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    // play(cardIndex[, suit]): a card of the suit asked for, of the top card's rank, or an 8
    // (which names the suit asked for next; its own suit when none is given).
    play: ({ G, playerID, random, events }, cardIndex, suit) => {
      const hand = G.hands[playerID];
      const card = hand[cardIndex];
      if (card === undefined || !matches(card, G.pile[G.pile.length - 1], G.suit)) {
        return INVALID_MOVE;
      }
      hand.splice(cardIndex, 1);
      G.pile.push(card);
      G.suit = card[0] === '8' && SUITS.includes(suit) ? suit : card[1];
      if (hand.length === 0) {
        deal(G, random); // the hand is over: keep playing, a new deal
      }
      events.endTurn();
    },
    // draw(): the top card of the stock; the pile (but its top card) is shuffled into the
    // stock when the stock is empty. A pass when both are empty.
    draw: ({ G, playerID, random, events }) => {
      if (G.stock.length === 0 && G.pile.length > 1) {
        const top = G.pile.pop();
        G.stock = random.Shuffle(G.pile);
        G.pile = [top];
      }
      if (G.stock.length > 0) {
        G.hands[playerID].push(G.stock.pop());
      }
      events.endTurn();
    },
  },
  // What each player is sent: their own hand, the top card and the counts.
  playerView: ({ G, playerID }) => {
    const counts = {};
    for (const id of Object.keys(G.hands)) counts[id] = G.hands[id].length;
    return {
      hand: playerID !== null && playerID !== undefined ? G.hands[playerID] || [] : [],
      counts,
      top: G.pile[G.pile.length - 1],
      suit: G.suit,
      pile: G.pile.length,
      stock: G.stock.length,
      deals: G.deals,
    };
  },
};

const server = Server({ games: [CrazyEights], origins: ['http://127.0.0.1'] });
// Server.run listens on all interfaces: listen on loopback only (koa-socket-2 patched
// app.listen to call app.server.listen, which takes a host).
const listen = server.app.listen;
server.app.listen = (port, callback) => listen.call(server.app, port, '127.0.0.1', callback);
server.run(0).then(({ appServer }) => {
  process.stdout.write(`listening on ${appServer.address().port}\n`);
});
