// Moving between pages without reloading: history.pushState plus a re-route, and a
// hand-off of the states a create or join answer already carried to the table page.

const handoff = new Map();

export function navigate(path, { states, replace = false } = {}) {
  if (states) handoff.set(path, states);
  if (replace) window.history.replaceState({}, "", path);
  else window.history.pushState({}, "", path);
  window.dispatchEvent(new Event("eights:navigate"));
}

/** The states handed to `path` by the page before it, once. */
export function takeHandoff(path) {
  const states = handoff.get(path);
  handoff.delete(path);
  return states || [];
}

/** Links marked data-link move within the page. */
export function interceptLinks() {
  document.addEventListener("click", (e) => {
    const a = e.target.closest?.("a[data-link]");
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const url = new URL(a.href, window.location.href);
    if (url.origin !== window.location.origin) return;
    e.preventDefault();
    navigate(url.pathname + url.search);
  });
}
