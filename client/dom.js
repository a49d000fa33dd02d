// A tiny element builder: h("button", {class: "x", onclick: fn, dataset: {card: "8H"}}, "text").

/** Sent to the focused element when the message area is given back (table/messages.js):
 * what explains itself to the keyboard (a dim card, the pile, the stock) says it again. */
export const NOTE_AGAIN = "eights:note-again";

/** An element with attributes, properties, listeners and children (strings, nodes, arrays). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") {
      for (const [name, v] of Object.entries(value)) {
        if (v !== null && v !== undefined && v !== false && v !== "") el.dataset[name] = String(v);
      }
    }
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, v);
        else el.style[prop] = v;
      }
    }
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "text") el.textContent = value;
    else if (key === "testid") el.setAttribute("data-testid", value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.append(child);
    else el.append(document.createTextNode(String(child)));
  }
}

/** Replace everything inside `el` with `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** The page's shared polite live region (data-testid="status"). */
export function announce(text) {
  const region = document.getElementById("status");
  if (!region || !text) return;
  // The same sentence twice is still read again: it differs by a trailing space.
  region.textContent = region.textContent === text ? `${text}\u00a0` : text;
}

/** A short message that fades away (not announced: pair it with announce when needed). */
export function toast(text, { ms = 3200 } = {}) {
  const box = document.getElementById("toast");
  if (!box || !text) return;
  box.textContent = text;
  box.hidden = false;
  box.classList.remove("fade");
  window.clearTimeout(toast.timer);
  toast.timer = window.setTimeout(() => {
    box.classList.add("fade");
    toast.timer = window.setTimeout(() => {
      box.hidden = true;
    }, 400);
  }, ms);
}

/**
 * A resize handler that redraws a view (debounced, and only when the width really
 * changed, or the layout `key` the view gives, such as the card size the style sheet
 * chose for this screen: a phone's toolbar sliding away is no reason to redraw).
 * `view.render()` is called; `view.width`, `view.layoutKey` and `view.resizeTimer` are
 * kept on the view.
 */
export function redrawOnResize(view, key = () => "") {
  view.width = window.innerWidth;
  view.layoutKey = key();
  return () => {
    window.clearTimeout(view.resizeTimer);
    view.resizeTimer = window.setTimeout(() => {
      const layout = key();
      if (Math.abs(window.innerWidth - view.width) > 8 || layout !== view.layoutKey) {
        view.width = window.innerWidth;
        view.layoutKey = layout;
        view.render();
      }
    }, 120);
  };
}

/**
 * The focus back to what opened a dialog: the same control, or, when the table was drawn
 * again while the dialog was up (a computer's move), the control that stands in its place.
 */
export function focusOpener(opener) {
  const testid = opener?.dataset?.testid;
  const target = opener && document.contains(opener)
    ? opener
    : testid ? document.querySelector(`[data-testid="${testid}"]`) : null;
  target?.focus({ preventScroll: true });
}
