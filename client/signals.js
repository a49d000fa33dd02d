// Signals while the page is in the background: when it becomes your turn (or a friend
// agreed to the next round, or joined) and the tab is hidden, the title says so
// ("● Your turn — Eights"), the favicon carries a dot, and, where Settings allow, a sound,
// a vibration and a system notification (the Notification API: no push server, only while
// the page is open in a background tab). Nothing while the page is visible, and never at
// pass and play (one device, everyone at it). Coming back clears it all.
import { settings } from "./storage.js";
import { sound } from "./sound.js";

const ICON = "/assets/icon.svg";
const DOT = '<circle cx="52" cy="12" r="11" fill="#e53935" stroke="#fffdf6" stroke-width="3"/>';

export class BackgroundSignals {
  constructor() {
    this.base = document.title;
    this.shown = null; // the signal's words while one is up
    this.dotted = null; // the favicon with a dot, built once
    this.onVisible = () => {
      if (!document.hidden) this.clear();
    };
    document.addEventListener("visibilitychange", this.onVisible);
  }

  destroy() {
    document.removeEventListener("visibilitychange", this.onVisible);
    this.clear();
  }

  /** The title the table would show; kept under a signal until the page is seen. */
  title(text) {
    this.base = text;
    if (!this.shown) document.title = text;
  }

  /** Something happened for this player: signal it if the page is hidden. */
  signal(words, { mode, tag }) {
    if (!document.hidden || mode === "local") return false;
    this.shown = words;
    document.title = `\u25cf ${words} \u2014 Eights`;
    this.dot(true);
    const s = settings();
    if (s.backgroundSound) {
      sound("turn");
      navigator.vibrate?.([120, 60, 120]);
    }
    if (s.notify && "Notification" in window && Notification.permission === "granted") {
      try {
        const note = new Notification(words, { body: "Eights", tag, icon: ICON, renotify: true });
        note.onclick = () => {
          window.focus();
          note.close();
        };
      } catch {
        // A browser that allows notifications only from a service worker: the title says it.
      }
    }
    return true;
  }

  clear() {
    if (!this.shown) return;
    this.shown = null;
    document.title = this.base;
    this.dot(false);
  }

  dot(on) {
    const link = document.querySelector("link[rel=icon]");
    if (!link) return;
    if (!on) {
      link.href = ICON;
      link.removeAttribute("data-signal");
      return;
    }
    link.dataset.signal = "dot";
    if (this.dotted) {
      link.href = this.dotted;
      return;
    }
    fetch(ICON).then((r) => r.text()).then((svg) => {
      this.dotted = `data:image/svg+xml,${encodeURIComponent(svg.replace("</svg>", `${DOT}</svg>`))}`;
      if (this.shown) link.href = this.dotted;
    }).catch(() => {});
  }
}

/** Settings → "Allow notifications": asks the browser once; false when it is refused. */
export async function askNotifications() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  return (await Notification.requestPermission()) === "granted";
}
