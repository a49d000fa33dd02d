// The home page: play with a friend, pass and play, play the computer, and saved tables.
import { h, announce, toast } from "./dom.js";
import { forgetTable, panelSettings, savePanelSettings, saveSettings, savedTables, settings } from "./storage.js";
import { openSettings } from "./settings.js";
import { variantTitle } from "./variants.js";
import { openTable } from "./opentable.js";
import { faceCard } from "./cardview.js";
import { answersSummary, variantsCatalogue } from "./house.js";
import { RULES } from "./rules.js";

/**
 * The seats each table deals and the number a new table comes up on, until the server's
 * list (/api/variants: min_players, max_players, default_players) arrives and replaces
 * them. The server checks; this only shapes the menus.
 */
const SEATS = {
  duo: { min: 2, max: 2, standard: 2, online: 2 },
  classic: { min: 2, max: 6, standard: 2, online: 2 },
  newfoundland: { min: 2, max: 7, standard: 4, online: 4 },
  "ember-ridge": { min: 2, max: 4, standard: 4, online: 4 },
  "hundred-and-one": { min: 2, max: 6, standard: 2, online: 2 },
};
const VARIANTS = ["duo", "classic", "newfoundland", "ember-ridge", "hundred-and-one"];

function seatsOf(variant) {
  return SEATS[variant] || { min: 2, max: 2, standard: 2 };
}

function learnSeats(data) {
  for (const v of data?.variants || []) {
    if (!SEATS[v.name]) continue;
    const min = Number(v.min_players) || 2;
    const max = Number(v.max_players) || min;
    const standard = Math.min(max, Math.max(min, Number(v.default_players) || min));
    const online = Math.min(max, Math.max(min, Number(v.online_players) || standard));
    SEATS[v.name] = { min, max, standard, online };
  }
}

function clamp(n, low, high) {
  return Math.max(low, Math.min(high, n));
}

function timerSetting(value) {
  if (value === "off") return false;
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : true;
}

export function homePage() {
  const s = settings();
  const busy = new Set();

  async function create(kind, spec, button) {
    if (busy.size) return;
    busy.add(kind);
    const label = button.textContent;
    button.disabled = true;
    button.textContent = "Opening…";
    try {
      await openTable(spec);
    } catch (err) {
      toast(err.message);
      announce(err.message);
      button.disabled = false;
      button.textContent = label;
    } finally {
      busy.delete(kind);
    }
  }

  const myName = () => (settings().name || "").trim() || undefined;

  // ---- with a friend ----
  const onlineVariant = variantSelect("online-variant", panelSettings("online").variant);
  // Seats at a table with friends: how many, and how many of them the computer takes
  // (the other seats wait for friends; at least one does), each computer seat at its own
  // level. Two seats, one friend, by default.
  const onlinePlayers = h("select", { id: "online-players", testid: "online-players" });
  const onlineBots = h("select", { id: "online-computers", testid: "online-computers" });
  const onlineSeats = h("div", { class: "seats-row" },
    h("label", { class: "field" }, h("span", {}, "Players"), onlinePlayers),
    h("label", { class: "field" }, h("span", {}, "Computer players"), onlineBots));
  const botLevels = h("div", { class: "bot-levels", role: "group", "aria-label": "The computer players' levels" });
  // The away limit follows the seats until the host picks one; a pick stays, next visit too.
  const awaySaved = panelSettings("online").away;
  let awayChosen = typeof awaySaved === "string" && AWAY_LIMITS.some(([value]) => value === awaySaved);
  const onlineAway = h("select", {
    id: "online-away",
    testid: "online-away",
    onchange: (e) => {
      awayChosen = true;
      savePanelSettings("online", { away: e.target.value });
    },
  }, AWAY_LIMITS.map(([value, text]) => h("option", { value, selected: awayChosen && value === awaySaved }, text)));
  let onlineFor = null;
  const drawOnlineSeats = () => {
    const { min, max, online } = seatsOf(onlineVariant.value);
    // A new table comes up on its own number of seats; a number chosen stays while the
    // table chosen does.
    const chosen = onlineFor === onlineVariant.value ? Number(onlinePlayers.value) : 0;
    onlineFor = onlineVariant.value;
    const players = clamp(chosen || online || 2, min, max);
    onlinePlayers.replaceChildren(...range(min, max).map((n) => h("option", { value: n, selected: n === players }, `${n} players`)));
    const bots = clamp(Number(onlineBots.value) || 0, 0, players - 2);
    onlineBots.replaceChildren(...range(0, players - 2).map((n) => h("option", { value: n, selected: n === bots }, String(n))));
    onlineSeats.hidden = max === min;
    // One level a computer seat; a level chosen stays with its seat while it is there.
    const kept = Array.from(botLevels.querySelectorAll("select"), (el) => el.value);
    botLevels.replaceChildren(...range(1, bots).map((n) => h("label", { class: "field bot-level" },
      h("span", {}, bots === 1 ? "Computer’s level" : `Computer ${n}`),
      levelSelect(`online-level-${n}`, kept[n - 1] || settings().level))));
    botLevels.hidden = bots === 0;
    // The contract's default until the host picks: wait at two seats, a minute at more.
    if (!awayChosen) onlineAway.value = players > 2 ? "60" : "";
  };
  onlineVariant.addEventListener("change", drawOnlineSeats);
  onlinePlayers.addEventListener("change", drawOnlineSeats);
  onlineBots.addEventListener("change", drawOnlineSeats);
  drawOnlineSeats();
  const onlinePublic = h("input", { type: "checkbox", id: "online-public", testid: "online-public" });
  const onlineButton = h("button", {
    type: "button",
    class: "btn primary big",
    testid: "create-online",
    onclick: () => {
      const players = Number(onlinePlayers.value) || 2;
      const bots = Math.min(Number(onlineBots.value) || 0, players - 2);
      const levels = Array.from(botLevels.querySelectorAll("select"), (el) => el.value);
      // Friends' seats first, then the computer's, each at the level chosen for it.
      const seats = range(1, players - 1).map((n) => {
        const k = n - (players - 1 - bots);
        return k > 0 ? { kind: "computer", level: levels[k - 1] || level.value } : { kind: "friend" };
      });
      create("online", {
        mode: "online",
        variant: onlineVariant.value,
        players,
        seats,
        public: onlinePublic.checked,
        away_limit: onlineAway.value ? Number(onlineAway.value) : null,
        timer: timerSetting(settings().timer),
        names: myName() ? [myName()] : [],
      }, onlineButton);
    },
  }, "Create a table");

  // ---- pass and play ----
  const localVariant = variantSelect("local-variant", panelSettings("local").variant);
  const localPlayers = h("select", { id: "local-players", testid: "local-players" });
  const localNames = h("div", { class: "names-row" });
  let localFor = null;
  const drawLocalPlayers = () => {
    const { min, max, standard } = seatsOf(localVariant.value);
    // A new table comes up on its own number of seats; a number chosen stays while the
    // table chosen does.
    const chosen = localFor === localVariant.value ? Number(localPlayers.value) : 0;
    localFor = localVariant.value;
    const keep = clamp(chosen || standard, min, max);
    localPlayers.replaceChildren(...range(min, max).map((n) => h("option", { value: n, selected: n === keep }, `${n} players`)));
    localPlayers.disabled = max === min;
    const existing = Array.from(localNames.querySelectorAll("input")).map((i) => i.value);
    localNames.replaceChildren(...range(1, keep).map((n) => h("input", {
      type: "text",
      maxlength: "400",
      class: "name-input",
      "aria-label": `Name of player ${n}`,
      placeholder: `Player ${n}`,
      value: existing[n - 1] ?? (n === 1 ? s.name : ""),
      testid: `local-name-${n}`,
    })));
  };
  localVariant.addEventListener("change", drawLocalPlayers);
  localPlayers.addEventListener("change", drawLocalPlayers);
  drawLocalPlayers();
  const localButton = h("button", {
    type: "button",
    class: "btn primary big",
    testid: "create-local",
    onclick: () => {
      const players = Number(localPlayers.value) || 2;
      const names = Array.from(localNames.querySelectorAll("input")).map((i, n) => i.value.trim() || `Player ${n + 1}`);
      create("local", {
        mode: "local",
        variant: localVariant.value,
        players,
        timer: false,
        names,
      }, localButton);
    },
  }, "Deal");

  // ---- the computer ----
  const botVariant = variantSelect("computer-variant", panelSettings("computer").variant);
  const level = h("select", { id: "computer-level", testid: "computer-level", onchange: (e) => saveSettings({ level: e.target.value }) },
    [["easy", "Easy"], ["medium", "Medium"], ["hard", "Hard"]].map(([v, t]) => h("option", { value: v, selected: v === s.level }, t)));
  const friends = h("select", { id: "computer-friends", testid: "computer-friends", onchange: (e) => saveSettings({ computerFriends: e.target.value }) });
  const friendsField = h("label", { class: "field" }, h("span", {}, "Computer friends"), friends);
  const drawFriends = () => {
    const { min, max, standard } = seatsOf(botVariant.value);
    const low = Math.max(1, min - 1);
    const high = max - 1;
    // The player's choice (Settings, or this menu), else the table's own number of seats.
    const chosen = Number(settings().computerFriends);
    const keep = clamp(Number.isInteger(chosen) && chosen > 0 ? chosen : standard - 1, low, high);
    friends.replaceChildren(...range(low, high).map((n) => h("option", { value: n, selected: n === keep }, String(n))));
    friends.disabled = high === low;
    friendsField.hidden = high === low;
  };
  let friendsShown = String(settings().computerFriends);
  botVariant.addEventListener("change", drawFriends);
  drawFriends();
  // The server's own list of seats, once it arrives (the menus above start from SEATS).
  variantsCatalogue().then((data) => {
    learnSeats(data);
    if (!friends.isConnected) return;
    drawFriends();
    drawLocalPlayers();
    drawOnlineSeats();
    sayOptions();
  }).catch(() => {});
  const botButton = h("button", {
    type: "button",
    class: "btn primary big",
    testid: "create-computer",
    onclick: () => create("computer", {
      mode: "computer",
      variant: botVariant.value,
      players: (Number(friends.value) || 1) + 1,
      level: level.value,
      speed: settings().speed,
      timer: timerSetting(settings().timer),
      names: myName() ? [myName()] : [],
    }, botButton),
  }, "Play");

  // Each panel remembers its own table (and the newest pick stays the Settings' default).
  for (const [kind, select] of [["online", onlineVariant], ["local", localVariant], ["computer", botVariant]]) {
    select.addEventListener("change", (e) => {
      savePanelSettings(kind, { variant: e.target.value });
      saveSettings({ variant: e.target.value });
    });
  }
  const houseLines = [
    houseLine("online", onlineVariant),
    houseLine("local", localVariant),
    houseLine("computer", botVariant),
  ];

  const nameInput = h("input", {
    id: "my-name",
    type: "text",
    maxlength: "400",
    value: s.name,
    placeholder: "Your name",
    autocomplete: "nickname",
    testid: "my-name",
    onchange: (e) => saveSettings({ name: e.target.value.trim() }),
  });

  const follow = (e) => {
    if (!nameInput.isConnected) {
      document.removeEventListener("eights:settings", follow);
      return;
    }
    if (document.activeElement !== nameInput) nameInput.value = e.detail.name || "";
    level.value = e.detail.level;
    if (String(e.detail.computerFriends) !== friendsShown) {
      friendsShown = String(e.detail.computerFriends);
      drawFriends();
    }
    for (const line of houseLines) line.refresh();
    sayOptions();
  };
  document.addEventListener("eights:settings", follow);

  return h("main", { class: "page home", testid: "home" },
    h("header", { class: "hero" },
      h("div", { class: "hero-cards", "aria-hidden": "true" },
        faceCard("8S", { extraClass: "h1c" }), faceCard("8H", { extraClass: "h2c" }), faceCard("8D", { extraClass: "h3c" })),
      h("h1", {}, "Eights"),
      h("p", { class: "tagline", testid: "tagline" }, "A private card table for two to seven players, on a device each or one shared.",
        h("span", { class: "tagline-more" }, " Each of you sees only your own hand; one wild card can change the plan."))),
    h("div", { class: "name-field" },
      h("label", { for: "my-name" }, "Your name"), nameInput),
    h("div", { class: "modes" },
      modeCard("Play with a friend", "A device each: send them the link.", [
        field("Table", onlineVariant),
        variantAbout("online", onlineVariant),
        onlineSeats,
        botLevels,
        h("label", { class: "field away-field" }, h("span", {}, "If someone is away, the computer plays for them"), onlineAway),
        h("label", { class: "check-field" }, onlinePublic,
          h("span", {}, "Public table", h("span", { class: "muted small" }, " · listed in Open tables; anyone may watch"))),
        houseLines[0].element,
      ], onlineButton, "online", () => [
        variantTitle(onlineVariant.value),
        plural(Number(onlinePlayers.value) || 2, "player"),
        Number(onlineBots.value) ? `computer ${plural(Number(onlineBots.value), "seat")}` : "",
        onlinePublic.checked ? "public" : "",
      ].filter(Boolean).join(" · ")),
      modeCard("Pass and play on this device", "One device, passed round.", [
        field("Table", localVariant),
        variantAbout("local", localVariant),
        h("label", { class: "field" }, h("span", {}, "Players"), localPlayers),
        localNames,
        houseLines[1].element,
      ], localButton, "local", () => `${variantTitle(localVariant.value)} · ${plural(Number(localPlayers.value) || 2, "player")}`),
      modeCard("Play the computer", "Nutmeg and friends sit down with you.", [
        field("Table", botVariant),
        variantAbout("computer", botVariant),
        field("Level", level),
        friendsField,
        houseLines[2].element,
      ], botButton, "computer", () => [
        variantTitle(botVariant.value),
        level.selectedOptions[0]?.textContent || "",
        friendsField.hidden ? "" : plural(Number(friends.value) || 1, "computer player"),
      ].filter(Boolean).join(" · "))),
    h("p", { class: "mode-more" }, "Or join a public table, or watch a game: ",
      h("a", { href: "/lobby", "data-link": "", testid: "lobby-link" }, "Open tables")),
    savedList(),
    h("footer", { class: "home-foot" },
      h("nav", { "aria-label": "More" },
        h("a", { href: "/lobby", "data-link": "", testid: "lobby-nav" }, "Open tables"),
        h("span", { class: "sep" }, " | "),
        h("span", {}, "Rules: "),
        VARIANTS.map((v, i) => [i ? " · " : "", h("a", { href: `/rules/${v}`, "data-link": "", testid: `rules-${v}` }, variantTitle(v))]),
        h("span", { class: "sep" }, " | "),
        h("a", { href: "/verify", "data-link": "", testid: "verify-nav" }, "Verify a game"),
        h("span", { class: "sep" }, " | "),
        h("button", { type: "button", class: "linkish", testid: "open-settings", onclick: () => openSettings() }, "Settings & statistics"))));
}

/** Each card's "Options" line says the options anew (they changed other than by a field). */
function sayOptions() {
  for (const el of document.querySelectorAll(".mode-options")) el.dispatchEvent(new Event("eights:options"));
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function range(a, b) {
  const out = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}

/** "If someone is away": how long before the computer plays a seat (null: wait for them). */
const AWAY_LIMITS = [["", "Wait for them"], ["60", "After 1 minute"], ["120", "After 2 minutes"], ["300", "After 5 minutes"]];

function levelSelect(id, selected) {
  return h("select", { id, testid: id },
    [["easy", "Easy"], ["medium", "Medium"], ["hard", "Hard"]].map(([v, t]) => h("option", { value: v, selected: v === selected }, t)));
}

function variantSelect(id, selected) {
  return h("select", { id, testid: id },
    VARIANTS.map((v) => h("option", { value: v, selected: v === selected }, `${variantTitle(v)}${v === "duo" ? " (two players)" : ""}`)));
}

/** One line under a Table menu saying what the table chosen is (its Rules page's summary). */
function variantAbout(kind, select) {
  const id = `variant-about-${kind}`;
  const line = h("p", { class: "variant-about small muted", id, testid: id });
  const refresh = () => { line.textContent = RULES[select.value]?.about || ""; };
  select.setAttribute("aria-describedby", id);
  select.addEventListener("change", refresh);
  refresh();
  return line;
}

/** "House rules: as the rules say · Change" under a mode's table menu. */
function houseLine(kind, select) {
  const text = h("span", { class: "house-summary", testid: `house-summary-${kind}` }, "as the rules say");
  const refresh = () => {
    variantsCatalogue().then((data) => {
      text.textContent = answersSummary(select.value, data);
    }).catch(() => {});
  };
  select.addEventListener("change", refresh);
  refresh();
  const element = h("p", { class: "house-line" },
    h("span", { class: "muted" }, "House rules: "), text, " ",
    h("button", {
      type: "button",
      class: "linkish",
      testid: `house-change-${kind}`,
      "aria-label": "Change the house rules",
      onclick: () => openSettings({ section: "house", variant: select.value }),
    }, "Change"));
  return { element, refresh };
}

function field(label, control) {
  return h("label", { class: "field" }, h("span", {}, label), control);
}

/** Wide enough for the three cards side by side, each with its options open. */
const WIDE = "(min-width: 860px)";

/** One way to play: its title, a sentence, its button (one tap plays, with the options as
 * they stand), and its options under "Options", which say what they are set to. On a phone
 * the options are folded, so that all three ways fit the first screen; wide, they are open. */
function modeCard(title, text, fields, button, kind, summary, more = null) {
  const said = h("span", { class: "options-said", testid: `options-said-${kind}` });
  const refresh = () => { said.textContent = summary(); };
  const options = h("details", { class: "mode-options", testid: `options-${kind}`, open: window.matchMedia?.(WIDE).matches },
    h("summary", { testid: `options-open-${kind}` }, h("span", { class: "options-word" }, "Options"), said),
    h("div", { class: "fields" }, fields));
  options.addEventListener("change", refresh);
  options.addEventListener("eights:options", refresh);
  refresh();
  return h("section", { class: `mode-card mode-${kind}`, "aria-label": title },
    h("h2", {}, title),
    h("p", { class: "mode-text" }, text),
    h("div", { class: "mode-go" }, button),
    options,
    more);
}

const KIND_TITLES = {
  local: "Pass and play",
  computer: "Against the computer",
  online: "With friends online",
};

function savedList() {
  const all = Object.values(savedTables()).sort((a, b) => (b.seen || b.created || 0) - (a.seen || a.created || 0));
  // Named by its heading, which it has only with a table in it (a section named by
  // nothing is no region, and may not point at a name).
  const box = h("section", { class: "saved", testid: "saved-games", "aria-labelledby": all.length ? "saved-title" : null });
  if (!all.length) return box;
  box.append(h("h2", { id: "saved-title" }, "Your tables"),
    // 002: "Local and computer rounds save separately in this browser": where each part lives.
    h("p", { class: "small muted", testid: "saved-where" },
      "Saved in this browser: your seats at each table, pass and play and the computer's apart from " +
      "tables with friends. The games themselves are kept on the server for seven days after the " +
      "last move; clearing this site's data forgets your seats."));
  for (const kind of ["local", "computer", "online"]) {
    const rows = all.filter((t) => t.mode === kind);
    if (!rows.length) continue;
    box.append(h("h3", {}, KIND_TITLES[kind]),
      h("ul", { class: "saved-list" }, rows.map((t) => savedRow(t))));
  }
  return box;
}

function savedRow(t) {
  const when = new Date(t.seen || t.created || Date.now());
  const others = (t.names || []).filter((n, i) => !(t.credentials || {})[i]);
  const who = t.mode === "local" ? (t.names || []).join(", ") : others.length ? `with ${others.join(", ")}` : "";
  const state = t.waiting ? "waiting for your friend" : t.round ? `round ${t.round}` : "";
  const li = h("li", { class: "saved-row", testid: "saved-game", dataset: { token: t.token, mode: t.mode } },
    h("a", { class: "saved-open", href: `/t/${t.token}`, "data-link": "", testid: "resume" },
      h("strong", {}, variantTitle(t.variant || "duo")),
      h("span", { class: "muted" }, [who, state].filter(Boolean).join(" · ")),
      h("time", { class: "muted small", datetime: when.toISOString() }, when.toLocaleString()),
      h("span", { class: "saved-go", testid: "resume-cue", "aria-hidden": "true" }, "Open \u203a")),
    h("button", {
      type: "button",
      class: "btn small ghost",
      testid: "forget",
      "aria-label": `Forget this ${variantTitle(t.variant || "duo")} table`,
      onclick: () => {
        forgetTable(t.token);
        li.remove();
        announce("Table forgotten.");
      },
    }, "Forget"));
  return li;
}

