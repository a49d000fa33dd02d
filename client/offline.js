// The offline page (the service worker's answer to a page it cannot fetch, sw.js): the
// page again on Try again, and by itself once the server answers again: on the browser's
// "online", and while it says it is online (a network that came back before this page
// knew), probing /healthz with a growing wait. Never more than RELOADS_A_MINUTE reloads
// by itself, in case the page still cannot be fetched while /healthz can.
const RELOADS_A_MINUTE = 3;
const PROBES = 8;
const KEY = "eights.offlineReloads";

let tries = 0;
let timer = 0;

function again() {
  window.location.reload();
}

function reloadedLately() {
  try {
    const now = Date.now();
    const times = JSON.parse(sessionStorage.getItem(KEY) || "[]").filter((t) => now - t < 60000);
    if (times.length >= RELOADS_A_MINUTE) return true;
    sessionStorage.setItem(KEY, JSON.stringify([...times, now]));
  } catch {
    /* no storage: reload anyway */
  }
  return false;
}

async function probe() {
  window.clearTimeout(timer);
  try {
    const answer = await fetch("/healthz", { cache: "no-store" });
    if (answer.ok && !reloadedLately()) {
      again();
      return;
    }
  } catch {
    /* still away */
  }
  tries += 1;
  if (tries < PROBES && navigator.onLine) timer = window.setTimeout(probe, Math.min(30000, 500 * 2 ** tries));
}

document.querySelector("[data-testid=offline-retry]")?.addEventListener("click", again);
window.addEventListener("online", () => {
  tries = 0;
  probe();
});
if (navigator.onLine) probe();
