// The settings panel: one-tap play, the computer's level and speed for new tables, sound,
// the four-colour deck, your name, each table's house rules for new tables, and the
// statistics kept in this browser.
import { announce, focusOpener, h } from "./dom.js";
import { askNotifications } from "./signals.js";
import { settings, saveSettings, stats, clearStats } from "./storage.js";
import { variantTitle } from "./variants.js";
import { houseSection, variantsCatalogue } from "./house.js";

let open = null;

export function closeSettings() {
  if (!open) return;
  const { overlay, opener } = open;
  overlay.remove();
  open = null;
  focusOpener(opener);
}

export function settingsOpen() {
  return Boolean(open);
}

/** Open the panel; `section: "house"` scrolls to the house rules of `variant`. */
export function openSettings({ section = null, variant = null } = {}) {
  closeSettings();
  const s = settings();
  const opener = document.activeElement;
  const check = (key, label, hint) => h("label", { class: "setting check" },
    h("input", {
      type: "checkbox",
      checked: Boolean(s[key]),
      testid: `setting-${key}`,
      onchange: (e) => saveSettings({ [key]: e.target.checked }),
    }),
    h("span", {}, label, hint ? h("small", {}, hint) : null));
  const choice = (key, label, options) => h("label", { class: "setting" },
    h("span", {}, label),
    h("select", {
      testid: `setting-${key}`,
      onchange: (e) => saveSettings({ [key]: e.target.value }),
    }, options.map(([value, text]) => h("option", { value, selected: String(s[key]) === value }, text))));
  const panel = h("div", {
    class: "dialog",
    role: "dialog",
    "aria-modal": "true",
    "aria-labelledby": "settings-title",
    testid: "settings",
  },
    h("div", { class: "dialog-head" },
      h("h2", { id: "settings-title" }, "Settings"),
      h("button", { type: "button", class: "btn small ghost", "aria-label": "Close settings", testid: "settings-close", onclick: closeSettings }, "\u2715")),
    h("label", { class: "setting" }, h("span", {}, "Your name"),
      h("input", {
        type: "text", maxlength: "400", value: s.name, placeholder: "Player", autocomplete: "nickname",
        testid: "setting-name",
        onchange: (e) => saveSettings({ name: e.target.value.trim() }),
      })),
    check("oneTap", "One-tap play", "A tap plays a bright card at once."),
    check("fourColour", "Four-colour deck", "Clubs green, diamonds blue, hearts red, spades black."),
    check("sound", "Sound", "M turns it on and off."),
    h("h3", {}, "While Eights is in the background"),
    h("p", { class: "small muted" }, "When it becomes your turn, or a friend joins or is ready for the next round, the tab’s title and icon say so. Never at pass and play."),
    check("backgroundSound", "Sound and vibration", "A short sound (with Sound on) and a buzz on phones."),
    h("label", { class: "setting check" },
      h("input", {
        type: "checkbox",
        checked: Boolean(s.notify),
        testid: "setting-notify",
        onchange: async (e) => {
          const box = e.target;
          if (!box.checked) {
            saveSettings({ notify: false });
            return;
          }
          const allowed = await askNotifications();
          box.checked = allowed;
          saveSettings({ notify: allowed });
          if (!allowed) announce("The browser did not allow notifications: the title and icon still say it.");
        },
      }),
      h("span", {}, "Notifications", h("small", {}, "A system notification, asked of the browser once."))),
    h("h3", {}, "New tables against the computer"),
    choice("level", "Level", [["easy", "Easy"], ["medium", "Medium"], ["hard", "Hard"]]),
    h("label", { class: "setting" },
      h("span", {}, "Computer friends"),
      h("select", {
        testid: "setting-friends",
        onchange: (e) => saveSettings({ computerFriends: e.target.value }),
      }, [["table", "The table’s own (3 at Newfoundland and Ember Ridge, else 1)"], ["1", "1"], ["2", "2 (not Duo)"], ["3", "3 (not Duo)"],
        ["4", "4 (Classic, Newfoundland, 101)"], ["5", "5 (Classic, Newfoundland, 101)"], ["6", "6 (Newfoundland)"]]
        .map(([value, text]) => h("option", { value, selected: String(s.computerFriends) === value }, text)))),
    check("computerReactions", "The computer answers with reactions", "Now and then a “Good game” at a hand’s end."),
    choice("speed", "Speed", [["slow", "Slow"], ["normal", "Normal"], ["fast", "Fast"], ["instant", "Instant"]]),
    choice("timer", "Turn timer", [["default", "The table’s own"], ["off", "Off"], ["30", "30 seconds"], ["60", "60 seconds"]]),
    houseSection(variant || s.variant, variantTitle),
    statsSection());
  const overlay = h("div", {
    class: "overlay",
    onclick: (e) => { if (e.target === overlay) closeSettings(); },
    onkeydown: (e) => {
      if (e.key === "Escape") {
        e.stopPropagation();
        closeSettings();
      }
    },
  }, panel);
  document.body.append(overlay);
  open = { overlay, opener };
  if (section === "house") {
    // The section fills in when the server's list arrives (houseSection asked first).
    const house = panel.querySelector("#house-rules");
    const show = () => {
      if (!house.isConnected) return;
      house.scrollIntoView({ block: "start" });
      house.querySelector("select")?.focus({ preventScroll: true });
    };
    variantsCatalogue().then(show, show);
  } else {
    panel.querySelector("input, select, button")?.focus();
  }
}

function statsSection() {
  const all = stats();
  const names = Object.keys(all).sort();
  const body = names.length
    ? h("table", { class: "stats", testid: "stats" },
      h("thead", {}, h("tr", {}, h("th", {}, "Table"), h("th", {}, "Hands"), h("th", {}, "Won"), h("th", {}, "Games"), h("th", {}, "Won"))),
      h("tbody", {}, names.map((n) => {
        const [mode, variant] = n.split("/");
        const r = all[n];
        const modeName = { online: "Friend", local: "Pass and play", computer: "Computer" }[mode] || mode;
        return h("tr", {}, h("td", {}, `${modeName} · ${variantTitle(variant)}`),
          h("td", {}, String(r.played || 0)), h("td", {}, mode === "local" ? "–" : String(r.won || 0)),
          h("td", {}, String(r.games || 0)), h("td", {}, mode === "local" ? "–" : String(r.gamesWon || 0)));
      })))
    : h("p", { class: "muted small" }, "No hands played in this browser yet.");
  const section = h("section", { class: "stats-section" }, h("h3", {}, "Statistics"), body,
    names.length ? h("button", {
      type: "button", class: "btn small ghost",
      onclick: () => {
        clearStats();
        section.replaceWith(statsSection());
      },
    }, "Clear statistics") : null);
  return section;
}
