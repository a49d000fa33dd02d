// Words the table's sentences share: ranks named and counted, a name inside a sentence,
// a duration.

export const COUNT_WORDS = ["", "one", "two", "three", "four", "five", "six", "seven", "eight"];

export const RANK_WORDS = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};

export const RANK_PLURALS = {
  2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights",
  9: "nines", T: "tens", J: "jacks", Q: "queens", K: "kings", A: "aces",
};

export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** A seat's name inside a sentence: "your friend", not "Your friend". */
export function nameInSentence(names, seat) {
  const name = names.name(seat);
  return name === "Your friend" ? "your friend" : name;
}

/** Seconds in words: "30 s", "1 min", "1 min 30 s", "1 hour". */
export function durationWords(seconds) {
  const secs = Math.max(0, Math.round(seconds));
  if (secs < 60) return `${secs} s`;
  if (secs % 3600 === 0) return secs === 3600 ? "1 hour" : `${secs / 3600} hours`;
  const min = Math.floor(secs / 60);
  const rest = secs % 60;
  return rest ? `${min} min ${rest} s` : `${min} min`;
}
