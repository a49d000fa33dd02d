// The lobby, /lobby: public tables waiting for players, with Join (the
// invitation page of that table), and games in progress, with Watch, and how many people
// sit at them now. It keeps itself up to date: read again every POLL_MS while the page is
// seen, backing off (doubling, up to POLL_MAX_MS) while nothing changes or the server
// cannot be reached; not at all while the page is hidden; at once when it is seen again
// (or on Refresh). `?poll=<ms>` on the page's address sets the first interval (tests).
import { api } from "./api.js";
import { announce, h } from "./dom.js";
import { savedTable } from "./storage.js";
import { variantTitle } from "./variants.js";

const POLL_MS = 5000;
const POLL_MAX_MS = 30000;
const POLL_MIN_MS = 100;

/** The first interval: `?poll=<ms>` (held to POLL_MIN_MS..POLL_MAX_MS), else POLL_MS. */
function pollStart() {
  const asked = Number(new URLSearchParams(window.location.search).get("poll"));
  return Number.isFinite(asked) && asked > 0 ? Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, Math.round(asked))) : POLL_MS;
}

export function lobbyPage() {
  // Until the tables arrive each list holds a line's worth of "Looking…", so that the
  // page below them moves as little as it can when they do.
  const waiting = h("div", { class: "lobby-list", testid: "lobby-waiting" }, h("p", { class: "lobby-empty muted" }, "Looking for tables…"));
  const playing = h("div", { class: "lobby-list", testid: "lobby-playing" }, h("p", { class: "lobby-empty muted" }, "Looking for games…"));
  const when = h("span", { class: "muted small", testid: "lobby-updated" });
  // Its line stands, empty, until the count arrives: the lists below never move down.
  const people = h("p", { class: "lobby-people", testid: "lobby-people", "aria-hidden": "true" });
  const refresh = h("button", { type: "button", class: "btn small", testid: "lobby-refresh", onclick: () => load(true) }, "Refresh");
  const page = h("main", { class: "page lobby", testid: "lobby", dataset: { loaded: "false", polling: "on" } },
    h("p", { class: "crumbs" }, h("a", { href: "/", "data-link": "", testid: "home" }, "\u2190 Home")),
    h("h1", {}, "Open tables"),
    h("p", { class: "tagline" }, "Public tables: sit down at one that waits for players, or watch a game being played."),
    people,
    h("div", { class: "lobby-bar" }, refresh, when),
    h("section", { class: "lobby-section", "aria-labelledby": "lobby-waiting-title" },
      h("h2", { id: "lobby-waiting-title" }, "Waiting for players"), waiting),
    h("section", { class: "lobby-section", "aria-labelledby": "lobby-playing-title" },
      h("h2", { id: "lobby-playing-title" }, "Games in progress"), playing),
    h("p", { class: "muted small lobby-foot" }, "To list a table of your own here, tick ",
      h("strong", {}, "Public table"), " when you open it: ",
      h("a", { href: "/", "data-link": "" }, "Play with a friend"), "."));

  const first = pollStart();
  let interval = first;
  let timer = 0;
  let last = "";
  let busy = false;
  async function load(asked = false) {
    if (busy) return;
    busy = true;
    window.clearTimeout(timer);
    refresh.disabled = true;
    page.dataset.loading = "true";
    let changed = false;
    try {
      const data = await api.openTables();
      const seen = JSON.stringify(data);
      changed = seen !== last;
      last = seen;
      if (changed) {
        fillList(waiting, data?.waiting || [], "waiting");
        fillList(playing, data?.playing || [], "playing");
        fillPeople(people, data?.people);
      }
      const now = new Date();
      when.textContent = `Updated ${now.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
      if (asked) announce(countSentence(data));
    } catch (err) {
      const text = `The tables cannot be read now. ${err.message || ""}`.trim();
      if (!waiting.childElementCount) waiting.replaceChildren(h("p", { class: "lobby-empty", testid: "lobby-error" }, text));
      if (!playing.childElementCount) playing.replaceChildren();
      when.textContent = "";
      if (asked) announce(text);
    } finally {
      busy = false;
      refresh.disabled = false;
      page.dataset.loading = "";
      page.dataset.loaded = "true";
      // Sooner again after a change (or when asked); slower while all stays the same.
      interval = changed || asked ? first : Math.min(POLL_MAX_MS, interval * 2);
      page.dataset.interval = String(interval);
      schedule();
    }
  }

  /** The next read, unless the page is gone or hidden (then none until it is seen). */
  function schedule() {
    window.clearTimeout(timer);
    if (!page.isConnected) return stop();
    const hidden = document.visibilityState === "hidden";
    page.dataset.polling = hidden ? "paused" : "on";
    if (!hidden) timer = window.setTimeout(tick, interval);
  }

  function tick() {
    if (!page.isConnected) return stop();
    if (document.visibilityState === "hidden") return schedule();
    load();
  }

  // Back to this page (another tab, the phone woken): read the tables again at once.
  const seen = () => {
    if (!page.isConnected) return stop();
    if (document.visibilityState === "hidden") {
      schedule();
      return;
    }
    interval = first;
    load();
  };
  function stop() {
    window.clearTimeout(timer);
    window.removeEventListener("focus", seen);
    document.removeEventListener("visibilitychange", seen);
  }
  window.addEventListener("focus", seen);
  document.addEventListener("visibilitychange", seen);
  waiting.append(h("p", { class: "lobby-empty muted" }, "Looking for tables…"));
  load();
  return page;
}

/** "12 people playing now": people at the tables listed, with a device connected. */
function fillPeople(box, count) {
  const n = Number(count);
  if (!Number.isInteger(n) || n < 0) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.removeAttribute("aria-hidden");
  box.dataset.count = String(n);
  box.replaceChildren(
    h("span", { class: "lobby-people-dot", "aria-hidden": "true" }),
    h("strong", {}, n === 0 ? "Nobody" : n === 1 ? "1 person" : `${n} people`),
    " playing now",
    h("span", { class: "muted small" }, " at the tables below"));
}

function fillList(box, tables, kind) {
  if (!tables.length) {
    box.replaceChildren(h("p", { class: "lobby-empty", testid: `lobby-empty-${kind}` }, kind === "waiting"
      ? "No public table is waiting for players right now. Open one yourself, or look again in a while."
      : "No game is being played at a public table right now."));
    return;
  }
  box.replaceChildren(h("ul", { class: "lobby-tables" }, tables.map((t) => tableCard(t, kind))));
}

function tableCard(t, kind) {
  const title = variantTitle(t.variant);
  const seats = Array.isArray(t.seats) ? t.seats : [];
  const players = t.players || seats.length;
  const free = Number(t.free) || 0;
  const status = kind === "waiting"
    ? `${free} of ${players} ${players === 1 ? "seat" : "seats"} free`
    : free ? `${players} players · ${free} ${free === 1 ? "seat" : "seats"} to take` : `${players} players`;
  const watchers = Number(t.spectators) || 0;
  const actions = [];
  const mine = Object.keys(savedTable(t.token)?.credentials || {}).length > 0;
  if (mine) {
    // A seat of this browser's: back to it rather than a seat more.
    actions.push(h("a", { class: "btn primary", href: `/t/${encodeURIComponent(t.token)}`, "data-link": "", testid: "lobby-mine" }, "Your table"));
  } else if (free > 0) {
    actions.push(h("a", {
      class: "btn primary",
      href: `/t/${encodeURIComponent(t.token)}`,
      "data-link": "",
      testid: "lobby-join",
      "aria-label": `Join the ${title} table`,
    }, "Join"));
  }
  if (kind === "playing" && t.watchable !== false && !mine) {
    actions.push(h("a", {
      class: `btn${free > 0 ? "" : " primary"}`,
      href: `/watch/${encodeURIComponent(t.token)}`,
      "data-link": "",
      testid: "lobby-watch",
      "aria-label": `Watch the ${title} game`,
    }, "Watch"));
  }
  return h("li", { class: "lobby-table", testid: "lobby-table", dataset: { token: t.token, kind, free: String(free) } },
    h("div", { class: "lobby-head" },
      h("strong", { class: "lobby-variant" }, title),
      h("span", { class: "lobby-free", testid: "lobby-free" }, status),
      kind === "playing" && watchers ? h("span", { class: "muted small" }, `${watchers} watching`) : null,
      t.created ? h("span", { class: "muted small" }, opened(t.created)) : null),
    h("ul", { class: "lobby-seats", "aria-label": "Seats" }, seats.map((s, i) => seatChip(s, i, kind))),
    h("p", { class: "lobby-house small" }, houseWords(t.house)),
    h("div", { class: "lobby-actions" }, actions));
}

function seatChip(seat, i, kind) {
  const bot = seat.kind === "bot" || seat.kind === "computer";
  const free = kind === "waiting" && !seat.taken && !bot;
  const name = free ? "free seat" : seat.name || `Player ${i + 1}`;
  return h("li", { class: `seat-chip${bot ? " bot" : ""}${free ? " free" : ""}${i === 0 ? " host" : ""}`, testid: "lobby-seat", dataset: { kind: bot ? "bot" : free ? "free" : "human" } },
    name,
    bot ? h("span", { class: "badge", title: "Computer player" }, "bot") : null,
    i === 0 && !bot ? h("span", { class: "visually-hidden" }, " (host)") : null);
}

/** The table's house rules in words, or that it plays by the book. */
function houseWords(house) {
  if (!Array.isArray(house) || !house.length) return "House rules: none, as the rules say.";
  return `House rules: ${house.map((n) => `${n.label}: ${n.text}`).join("; ")}.`.replace(/\.\.$/, ".");
}

function opened(created) {
  const minutes = Math.max(0, Math.round((Date.now() - Number(created)) / 60000));
  if (minutes < 1) return "opened just now";
  if (minutes < 60) return `opened ${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 24 ? `opened ${hours} h ago` : "opened days ago";
}

function countSentence(data) {
  const w = (data?.waiting || []).length;
  const p = (data?.playing || []).length;
  return `${w} ${w === 1 ? "table waits" : "tables wait"} for players; ${p} ${p === 1 ? "game" : "games"} in progress.`;
}
