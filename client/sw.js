// The service worker: the static table opens at once (also from the home screen), and a
// page that cannot be fetched offline says so instead of the browser's error.
//
// Served at /sw.js (its scope: the whole site) by the server, which writes in VERSION (a
// hash of the client folder, computed once at start-up) and FILES (every static file):
// a deploy that changes any file is a new worker with a new cache, and the old caches
// go once it is active.
//
//   /api/…, /ws/…, /healthz, /readyz, /metrics   the network's alone: never answered
//                                                  here, never cached
//   /assets/…, /manifest.webmanifest             from the cache (every file is cached
//                                                  when the worker installs), else the network
//   pages (navigations)                          the network first (a fresh page: the
//                                                  table's "gone" page, a new deploy's
//                                                  shell); with no network, the page as
//                                                  kept (the home page always; a page of
//                                                  the app this device opened, fetched or
//                                                  routed to in the page, which says so),
//                                                  else the offline page
const VERSION = "__EIGHTS_VERSION__";
const FILES = ["__EIGHTS_FILES__"];
const STATIC = `eights-static-${VERSION}`;
const PAGES = `eights-pages-${VERSION}`;
const OFFLINE = "/assets/offline.html";
const PAGES_KEPT = 24;
const NETWORK_ONLY = /^\/(api|ws|healthz|readyz|metrics)(\/|$)/;
const SLOW_PAGE_MS = 4000;
const APP_PAGE = /^\/(?:(?:t|watch|rules)\/[A-Za-z0-9_-]{1,64}|lobby|verify)?\/?$/;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(STATIC);
    await cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names
      .filter((n) => n.startsWith("eights-") && n !== STATIC && n !== PAGES)
      .map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NETWORK_ONLY.test(url.pathname)) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event, request, url));
  } else if (FILES.includes(url.pathname)) {
    event.respondWith(staticFile(request));
  }
});

// The page moved to one of the app's pages without fetching it (a link inside the app):
// keep the app's page for that path, so that it opens with the network gone too.
self.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || data.kind !== "page" || typeof data.path !== "string" || !APP_PAGE.test(data.path)) return;
  event.waitUntil((async () => {
    const shell = await caches.match("/", { cacheName: STATIC });
    if (shell) await keep(new URL(data.path, self.location.origin), shell);
  })());
});

async function staticFile(request) {
  const cached = await caches.match(request, { cacheName: STATIC });
  return cached || fetch(request);
}

/** A page: the network's answer (kept for later when it is the table's page), or when
 * the network fails (or is slower than SLOW_PAGE_MS and a copy is kept) the copy. */
async function page(event, request, url) {
  const kept = cachedPage(url);
  const network = fetch(request).then((response) => {
    const html = (response.headers.get("Content-Type") || "").startsWith("text/html");
    if (response.ok && response.type === "basic" && html && APP_PAGE.test(url.pathname)) {
      event.waitUntil(keep(url, response.clone()));
    }
    return response;
  });
  network.catch(() => {}); // answered below; a copy may have been sent meanwhile
  let timer;
  const slow = new Promise((resolve) => { timer = setTimeout(resolve, SLOW_PAGE_MS); })
    .then(() => kept);
  try {
    const first = await Promise.race([network, slow]);
    if (first) return first;
    return await network;
  } catch (err) {
    return (await kept) || (await caches.match(OFFLINE, { cacheName: STATIC })) || Response.error();
  } finally {
    clearTimeout(timer);
  }
}

async function cachedPage(url) {
  const key = url.origin + url.pathname;
  return (await caches.match(key, { cacheName: PAGES }))
    || (url.pathname === "/" ? await caches.match("/", { cacheName: STATIC }) : undefined);
}

/** Keeps a fetched page (by its path: the query is the page's own), the newest
 * PAGES_KEPT of them. */
async function keep(url, response) {
  const cache = await caches.open(PAGES);
  await cache.put(url.origin + url.pathname, response);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_KEPT)).map((k) => cache.delete(k)));
}
