// House rules: each table's questions a host answers before the deal. The server's
// /api/variants lists them (the engine's rules/house.py); this browser remembers the
// answers per table in its settings and sends those that differ from the rule text.
import { api } from "./api.js";
import { h } from "./dom.js";
import { saveSettings, settings } from "./storage.js";

let catalogue = null;

/** The server's list of tables and their house rules (asked once a page load). */
export function variantsCatalogue() {
  if (!catalogue) {
    catalogue = api.variants().catch((err) => {
      catalogue = null;
      throw err;
    });
  }
  return catalogue;
}

/** The house rules of `variant` in the server's list (none when it is not there). */
export function houseMenuOf(data, variant) {
  return (data?.variants || []).find((v) => v.name === variant)?.house || [];
}

/** This browser's answers for `variant`: only those that differ from the rule text. */
export function savedAnswers(variant) {
  const all = settings().house;
  const mine = all && typeof all === "object" ? all[variant] : null;
  return mine && typeof mine === "object" ? { ...mine } : {};
}

/** The answers to send with a new table, checked against the menu (unknown ones dropped). */
export function answersFor(variant, data) {
  const menu = houseMenuOf(data, variant);
  const saved = savedAnswers(variant);
  const out = {};
  for (const rule of menu) {
    const answer = saved[rule.key];
    if (answer && answer !== rule.standard && rule.choices.some((c) => c.key === answer)) {
      out[rule.key] = answer;
    }
  }
  return out;
}

function saveAnswer(variant, rule, answer) {
  const all = { ...(settings().house || {}) };
  const mine = { ...(all[variant] || {}) };
  if (answer === rule.standard) delete mine[rule.key];
  else mine[rule.key] = answer;
  if (Object.keys(mine).length) all[variant] = mine;
  else delete all[variant];
  saveSettings({ house: all });
}

/** "As the rules say", or the answers that differ, in a line. */
export function answersSummary(variant, data) {
  const menu = houseMenuOf(data, variant);
  const answers = answersFor(variant, data);
  const words = menu
    .filter((rule) => answers[rule.key])
    .map((rule) => rule.choices.find((c) => c.key === answers[rule.key]).label);
  return words.length ? words.join(" · ") : "as the rules say";
}

/**
 * The house-rules part of the settings panel: a table to choose, then one select a rule.
 * `variant` is the table shown first.
 */
export function houseSection(variant, variantTitle) {
  const body = h("div", { class: "house-body", testid: "house-rules-panel" }, h("p", { class: "muted small" }, "Loading the house rules…"));
  const pick = h("select", { testid: "house-variant", "aria-label": "Table" });
  let data = null;

  const draw = () => {
    const chosen = pick.value;
    const menu = houseMenuOf(data, chosen);
    if (!menu.length) {
      body.replaceChildren(h("p", { class: "muted small" }, "This table has no house rules."));
      return;
    }
    const saved = savedAnswers(chosen);
    const rows = menu.map((rule) => {
      const current = rule.choices.some((c) => c.key === saved[rule.key]) ? saved[rule.key] : rule.standard;
      const name = `house-${chosen}-${rule.key}`;
      return h("fieldset", { class: "setting house-rule", testid: `house-${rule.key}` },
        h("legend", {}, rule.label),
        rule.choices.map((c) => h("label", { class: "house-choice" },
          h("input", {
            type: "radio",
            name,
            value: c.key,
            checked: c.key === current,
            testid: `house-${rule.key}-${c.key}`,
            onchange: (e) => { if (e.target.checked) saveAnswer(chosen, rule, c.key); },
          }),
          h("span", {}, c.label, c.key === rule.standard ? h("small", {}, " (the rules)") : null))));
    });
    const reset = h("button", {
      type: "button",
      class: "btn small ghost",
      testid: "house-reset",
      onclick: () => {
        const all = { ...(settings().house || {}) };
        delete all[chosen];
        saveSettings({ house: all });
        draw();
      },
    }, "As the rules say");
    body.replaceChildren(...rows, reset);
  };

  pick.addEventListener("change", draw);
  variantsCatalogue().then((got) => {
    data = got;
    pick.replaceChildren(...got.variants.map((v) => h("option", { value: v.name, selected: v.name === variant }, variantTitle(v.name))));
    draw();
  }).catch((err) => {
    body.replaceChildren(h("p", { class: "muted small" }, `The house rules cannot be loaded: ${err.message}`));
  });

  return h("section", { class: "house-section", id: "house-rules", "aria-labelledby": "house-title" },
    h("h3", { id: "house-title" }, "House rules for new tables"),
    h("p", { class: "muted small" }, "Chosen before the deal; a table keeps them to the end. Everyone at the table sees them."),
    h("label", { class: "setting" }, h("span", {}, "Table"), pick),
    body);
}

/** What a table shows of its house rules: nothing when dealt as written. */
export function houseNotes(notes) {
  if (!notes || !notes.length) return null;
  return h("div", { class: "house-notes", testid: "house-rules" },
    h("strong", {}, "House rules"),
    h("ul", {}, notes.map((n) => h("li", { dataset: { rule: n.rule } }, `${n.label}: `, h("span", {}, n.text)))));
}
