// What this browser keeps: saved seats (credentials by table token), settings and
// statistics. Everything is in localStorage; clearing site data forgets it all.

const SEATS_KEY = "eights.seats";
const SETTINGS_KEY = "eights.settings";
const STATS_KEY = "eights.stats";
const COUNTED_KEY = "eights.counted";

function read(key, fallback) {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full store: the table still works, it just will not be saved.
  }
}

// ---- saved seats --------------------------------------------------------------------

/** Every saved table: {token: {token, mode, variant, credentials, created, ...}}. */
export function savedTables() {
  const all = read(SEATS_KEY, {});
  return typeof all === "object" && all ? all : {};
}

export function savedTable(token) {
  return savedTables()[token] || null;
}

/**
 * Keep a seat (or every seat, for a local table). `credentials` maps seat -> credential.
 */
export function saveTable(entry) {
  const all = savedTables();
  const before = all[entry.token] || {};
  all[entry.token] = {
    created: Date.now(),
    ...before,
    ...entry,
    credentials: { ...(before.credentials || {}), ...(entry.credentials || {}) },
  };
  write(SEATS_KEY, all);
}

/** Remember what the table last looked like, for the saved-games list. */
export function touchTable(token, facts) {
  const all = savedTables();
  if (!all[token]) return;
  all[token] = { ...all[token], ...facts, seen: Date.now() };
  write(SEATS_KEY, all);
}

export function forgetTable(token) {
  const all = savedTables();
  delete all[token];
  write(SEATS_KEY, all);
}

// ---- settings -----------------------------------------------------------------------

export const DEFAULT_SETTINGS = {
  name: "",
  oneTap: false,
  level: "medium",
  speed: "normal",
  variant: "duo",
  /** How many computer friends a new table seats: "table" (the table's own: three at
   * Newfoundland, one elsewhere) or a number, fitted to each table's seats. */
  computerFriends: "table",
  sound: true,
  /** In the background: a sound and a vibration when it becomes your turn (signals.js). */
  backgroundSound: false,
  /** In the background: a system notification (asked of the browser once, in Settings). */
  notify: false,
  /** The computer answers now and then with a reaction ("Good game" at a hand's end). */
  computerReactions: false,
  fourColour: false,
  sort: "suit",
  timer: "default",
  house: {},
  /** Each way to play on the home page remembers its own choices: {online: {variant,
   * away}, local: {variant}, computer: {variant}}; `away` only once the host picked it. */
  panels: {},
};

export function settings() {
  return { ...DEFAULT_SETTINGS, ...read(SETTINGS_KEY, {}) };
}

export function saveSettings(changes) {
  const next = { ...settings(), ...changes };
  write(SETTINGS_KEY, next);
  document.dispatchEvent(new CustomEvent("eights:settings", { detail: next }));
  return next;
}

/** What the home page's panel `kind` ("online", "local", "computer") last chose. */
export function panelSettings(kind) {
  const s = settings();
  const own = (s.panels || {})[kind] || {};
  return { variant: DEFAULT_SETTINGS.variant, ...own };
}

/** Remember `changes` (such as {variant} or {away}) for the home page's panel `kind` only. */
export function savePanelSettings(kind, changes) {
  const panels = { ...(settings().panels || {}) };
  panels[kind] = { ...(panels[kind] || {}), ...changes };
  return saveSettings({ panels });
}

// ---- statistics ---------------------------------------------------------------------

/** {"computer/duo": {played, won, games, gamesWon}, ...} */
export function stats() {
  return read(STATS_KEY, {});
}

/**
 * Count a finished hand once (by its key), by mode and variant. `won` is true, false, or
 * null when nobody on this device is a single player (pass and play).
 */
export function countHand(key, { mode, variant, won, gameOver, gameWon }) {
  const counted = read(COUNTED_KEY, []);
  if (counted.includes(key)) return false;
  counted.push(key);
  write(COUNTED_KEY, counted.slice(-400));
  const all = stats();
  const name = `${mode}/${variant}`;
  const row = { played: 0, won: 0, games: 0, gamesWon: 0, ...(all[name] || {}) };
  row.played += 1;
  if (won) row.won += 1;
  if (gameOver) {
    row.games += 1;
    if (gameWon) row.gamesWon += 1;
  }
  all[name] = row;
  write(STATS_KEY, all);
  return true;
}

export function clearStats() {
  write(STATS_KEY, {});
}
