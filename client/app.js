// The router: the page is chosen by location.pathname.
//   /              home
//   /t/<token>     a table: resume with this browser's seat, or take a free one
//   /lobby         the open tables: public tables waiting for players, games to watch
//   /watch/<token> a public table's game, watched
//   /verify        check a finished game's record
//   /rules/<name>  the rules of a table
import { api } from "./api.js";
import { fill } from "./dom.js";
import { TableSession } from "./table/session.js";
import { homePage } from "./home.js";
import { lobbyPage } from "./lobby.js";
import { holdNameFields } from "./names.js";
import { WatchSession } from "./watch.js";
import { joinPage, renameSeats } from "./join.js";
import { interceptLinks, takeHandoff } from "./nav.js";
import { endedPage, errorPage, fullPage, gonePage, loadingPage } from "./pages.js";
import { rulesPage } from "./rules.js";
import { closeSettings } from "./settings.js";
import { saveTable, savedTable, settings } from "./storage.js";
import { verifyPage } from "./verify.js";

const main = document.getElementById("app");
holdNameFields();
let session = null;
let routeId = 0;

let myName = (settings().name || "").trim();

function applySettings() {
  const s = settings();
  document.body.classList.toggle("four-colour", Boolean(s.fourColour));
  const name = (s.name || "").trim();
  if (name && name !== myName) {
    const open = session && { token: session.token, room: session.room, held: session.held, send: (m) => session.socket?.send(m) };
    renameSeats(name, open);
  }
  myName = name;
}

async function route() {
  const id = ++routeId;
  closeSettings();
  if (session) {
    session.destroy();
    session = null;
  }
  const path = window.location.pathname;
  navigator.serviceWorker?.controller?.postMessage({ kind: "page", path });
  const table = path.match(/^\/t\/([A-Za-z0-9_-]+)\/?$/);
  const rules = path.match(/^\/rules\/([A-Za-z0-9_-]+)\/?$/);
  const watch = path.match(/^\/watch\/([A-Za-z0-9_-]+)\/?$/);
  document.body.dataset.page = table || watch ? "table" : rules ? "rules" : path.replace(/\//g, "") || "home";
  window.scrollTo(0, 0);
  if (table) {
    await openTable(table[1], id);
  } else if (watch) {
    document.title = "Watching · Eights";
    session = new WatchSession(main, watch[1]);
  } else if (path === "/lobby" || path === "/lobby/") {
    document.title = "Open tables · Eights";
    fill(main, lobbyPage());
  } else if (rules) {
    document.title = "Rules · Eights";
    fill(main, rulesPage(rules[1]));
  } else if (path === "/verify" || path === "/verify/") {
    document.title = "Verify a game · Eights";
    fill(main, verifyPage());
  } else {
    document.title = "Eights";
    fill(main, homePage());
  }
  const heading = main.querySelector("h1");
  if (heading && !table && !watch && id > 1) {
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  }
}

async function openTable(token, id) {
  document.title = "Eights";
  const path = window.location.pathname;
  const handed = takeHandoff(path);
  const saved = savedTable(token);
  if (saved && Object.keys(saved.credentials || {}).length) {
    // Reloaded with the network gone: the table as this tab last saw it, until it connects.
    const kept = handed.length || navigator.onLine !== false ? [] : keptStates(token);
    session = new TableSession(main, saved, handed.length ? handed : kept);
    return;
  }
  fill(main, loadingPage("Finding the table…"));
  let lobby;
  try {
    lobby = await api.lobby(token);
  } catch (err) {
    if (id !== routeId) return;
    if (err.status === 404 || err.status === 410) fill(main, gonePage());
    else fill(main, errorPage("The table cannot be reached", err.message));
    return;
  }
  if (id !== routeId) return;
  if (lobby.closed) {
    fill(main, endedPage(lobby.seats?.[0]?.name));
    return;
  }
  if (lobby.full) {
    fill(main, fullPage(lobby.watchable && lobby.started && !lobby.closed ? token : null));
    return;
  }
  const name = await new Promise((resolve) => fill(main, joinPage(lobby, resolve)));
  if (id !== routeId) return;
  let joined;
  try {
    joined = await api.join(token, name || undefined);
  } catch (err) {
    if (id !== routeId) return;
    if (err.code === "table_full") fill(main, fullPage());
    else if (err.code === "table_closed") fill(main, endedPage(lobby.seats?.[0]?.name));
    else if (err.status === 404 || err.status === 410) fill(main, gonePage());
    else fill(main, errorPage("The seat could not be taken", err.message));
    return;
  }
  if (id !== routeId) return;
  const entry = {
    token,
    mode: lobby.mode,
    variant: lobby.variant,
    players: lobby.players,
    credentials: { [joined.seat]: joined.credential },
    created: Date.now(),
  };
  saveTable(entry);
  session = new TableSession(main, entry, joined.states || []);
}

/** The states this tab last held at a table (sessionStorage: this tab only, gone with it),
 * kept as the page goes away so that a reload without a network shows what it can. Each
 * is this device's own view; the server's time in it is left out (it would be stale). */
const KEPT = "eights.kept";

function keepStates() {
  const states = session instanceof TableSession ? Object.values(session.states || {}) : [];
  try {
    if (!states.length) return;
    const kept = states.map(({ now, ...state }) => state);
    window.sessionStorage.setItem(KEPT, JSON.stringify({ token: session.token, states: kept }));
  } catch { /* storage full or refused: a reload offline shows less */ }
}

function keptStates(token) {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(KEPT) || "null");
    return kept?.token === token && Array.isArray(kept.states) ? kept.states : [];
  } catch {
    return [];
  }
}

/**
 * The skip link, the page's first Tab stop wherever a table is drawn and nowhere else (a
 * page with no table has nothing above its own content to skip). It goes to the hand, to
 * its card in the tab order (from there the arrow keys move along it), and where no hand
 * is shown (a game watched, a hand covered) to the table itself: one Tab and Enter, where
 * Tab alone takes the bar's buttons, the plates and the pile first.
 */
function skipLink() {
  const link = document.querySelector("a.skip");
  if (!link) return;
  const target = () => {
    const table = main.querySelector("[data-testid=table]");
    if (!table) return null;
    return table.querySelector("[data-testid=hand] [data-card][tabindex='0']") || table;
  };
  const update = () => {
    const to = target();
    link.hidden = !to;
    const words = to?.dataset.card ? "Skip to your hand" : "Skip to the table";
    if (link.textContent !== words) link.textContent = words;
  };
  // The session draws the table anew into #app, replacing its child, at every change.
  new MutationObserver(update).observe(main, { childList: true });
  link.addEventListener("focus", update);
  link.addEventListener("click", (event) => {
    const to = target();
    if (!to) return;
    event.preventDefault();
    if (!to.dataset.card) to.setAttribute("tabindex", "-1");
    to.focus();
  });
  update();
}

interceptLinks();
window.addEventListener("pagehide", keepStates);
skipLink();
window.addEventListener("popstate", route);
window.addEventListener("eights:navigate", route);
document.addEventListener("eights:settings", applySettings);
applySettings();
route();
installable();

/** The service worker (sw.js): the static table from its cache, the offline page when a
 * page cannot be fetched. Only where the browser allows one (https, or this computer). */
function installable() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

