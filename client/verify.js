// The Verify page: paste or load a finished game's record; the server deals it again from
// its seed, replays every action and says whether everything matches.
import { api } from "./api.js";
import { fill, h, announce } from "./dom.js";
import { savedTable } from "./storage.js";

export function verifyPage() {
  const params = new URLSearchParams(window.location.search);
  const token = params.get("token");
  const input = h("textarea", {
    id: "record-input",
    testid: "verify-input",
    rows: "10",
    spellcheck: "false",
    placeholder: "{\"seed\": \"…\", \"actions\": […], …}",
    "aria-describedby": "record-help",
  });
  const result = h("div", { class: "verify-result", testid: "verify-result", role: "status", "aria-live": "polite" });
  const file = h("input", {
    type: "file",
    accept: "application/json,.json",
    testid: "verify-file",
    id: "record-file",
    class: "visually-hidden",
    onchange: async (e) => {
      const chosen = e.target.files?.[0];
      if (!chosen) return;
      input.value = await chosen.text();
      check();
    },
  });
  const submit = h("button", { type: "button", class: "btn primary", testid: "verify-submit", onclick: () => check() }, "Verify");

  async function check() {
    let record;
    try {
      record = JSON.parse(input.value);
    } catch {
      show(result, { error: "This is not a record: it is not JSON." });
      return;
    }
    submit.disabled = true;
    result.replaceChildren(h("p", { class: "muted" }, "Dealing the game again…"));
    try {
      show(result, { answer: await api.verify(record) });
    } catch (err) {
      show(result, { error: err.message });
    } finally {
      submit.disabled = false;
    }
  }

  const page = h("main", { class: "page verify-page", testid: "verify" },
    h("p", { class: "crumbs" }, h("a", { href: "/", "data-link": "" }, "\u2190 Eights")),
    h("h1", {}, "Verify a game"),
    h("p", { id: "record-help" }, "Every game is shuffled from a secret seed whose fingerprint you saw when the game began. Paste the game’s record (or load the file you saved) and the server deals every hand again from the revealed seed and replays each move."),
    h("label", { for: "record-input", class: "label" }, "The game’s record (JSON)"),
    input,
    h("div", { class: "page-actions" },
      submit,
      h("label", { for: "record-file", class: "btn" }, "Load a file…"),
      file),
    result);

  if (token) {
    const saved = savedTable(token);
    if (saved) {
      result.replaceChildren(h("p", { class: "muted" }, "Fetching the game’s record…"));
      api.record(token, Object.values(saved.credentials || {}))
        .then((record) => {
          input.value = JSON.stringify(record, null, 2);
          return check();
        })
        .catch((err) => show(result, { error: err.message }));
    }
  }
  return page;
}

function show(box, { answer, error }) {
  if (error) {
    box.dataset.ok = "false";
    box.replaceChildren(h("p", { class: "bad" }, error));
    announce(error);
    return;
  }
  box.dataset.ok = answer.ok ? "true" : "false";
  const problems = Array.isArray(answer.problems) ? answer.problems : [];
  const summary = answer.ok
    ? `Verified: the seed deals exactly these hands and every move replays (${count(answer.hands, "hand")}, ${count(answer.actions, "action")}).`
    : "This record does not check out.";
  fill(box,
    h("p", { class: answer.ok ? "good big-mark" : "bad big-mark" }, answer.ok ? "\u2714 " : "\u2718 ", summary),
    Array.isArray(answer.scores) ? h("p", {}, `Final scores: ${answer.scores.join(" – ")}`) : null,
    problems.length ? h("ul", { class: "problems" }, problems.map((p) => h("li", {}, typeof p === "string" ? p : JSON.stringify(p)))) : null);
  announce(summary);
}

function count(value, word) {
  const n = Array.isArray(value) ? value.length : Number(value) || 0;
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
