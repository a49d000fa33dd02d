// The whole table drawn from a model the session (session.js) builds from the server's
// state: the stage (the bar, the felt with the hand pinned to its bottom, the tools) and the
// panels around it. Nothing here decides a rule: playable cards are those some legal action
// lays first.
import { h } from "../dom.js";
import { variantTitle } from "../variants.js";
import { topBar } from "./bar.js";
import { centre } from "./centre.js";
import { closedPanel, finishConfirm } from "./closed.js";
import { coverPanel } from "./cover.js";
import { myArea } from "./hand.js";
import { fairness, historyPanel } from "./history.js";
import { suitPicker } from "./picker.js";
import { promptRow } from "./prompt.js";
import { resultsPanel } from "./results.js";
import { opponentsRow } from "./seats.js";
import { toolbar } from "./toolbar.js";
import { bridgeWindow } from "./turn.js";
import { watchBanner, watchedArea, watchToolbar } from "./watching.js";

/**
 * The whole table as one element. `m` is the model, `on` the callbacks. A watcher's model
 * (`m.watching`, watch.js) has no seat (`m.seat` -1) and a view of the public table only:
 * every seat is drawn as a plate, seat 0 at the bottom, with no hand and no actions.
 */
export function renderTable(m, on) {
  const { room, view } = m;
  const myTurn = Boolean(view && view.legal && view.legal.length && !m.covered) || Boolean(view && bridgeWindow(m)?.mine);
  // The page's main landmark (every page has one; the bar's title is its heading).
  const root = h("main", {
    class: `table mode-${room.mode}${m.covered ? " is-covered" : ""}${view?.hand_over ? " is-over" : ""}`,
    testid: "table",
    "aria-label": `${variantTitle(room.variant)} table`,
    dataset: {
      version: String(m.version),
      turn: myTurn ? "me" : "other",
      seat: String(m.seat),
      mode: room.mode,
      over: view?.game_over ? "game" : view?.hand_over ? "hand" : "",
      covered: m.covered ? "true" : "false",
      watching: m.watching ? "true" : "",
    },
  });
  // The stage is what a player needs at once: the bar, the felt with the hand pinned to
  // its bottom, and the tools. While a game is on it is one screen high (history and the
  // fairness notes come below it), so the hand, the prompt and the plates stay in sight.
  const stage = h("div", { class: `stage${view ? " fits" : ""}` });
  root.append(stage);
  stage.append(topBar(m, on));
  if (m.watching) stage.append(watchBanner(m));
  if (room.closed && !m.watching) {
    root.dataset.closed = "true";
    root.classList.add("is-closed");
    stage.append(closedPanel(m, on));
  }
  if (!view) {
    if (!room.closed) stage.append(h("div", { class: "felt felt-waiting" }, m.waitingPanel || ""));
    return root;
  }
  const felt = h("div", { class: "felt" });
  felt.append(opponentsRow(m));
  felt.append(centre(m, on));
  felt.append(promptRow(m, on));
  if (m.picker && !m.covered) felt.append(suitPicker(m, on));
  felt.append(m.watching ? watchedArea(m) : myArea(m, on));
  stage.append(felt);
  stage.append(m.watching ? watchToolbar(m, on) : toolbar(m, on));
  const confirmBox = finishConfirm(m, on);
  if (confirmBox) stage.append(confirmBox);
  root.append(historyPanel(m, on));
  root.append(fairness(m));
  if (room.closed) {
    // The host ended the game: the closed panel above says so; no invitation, no next hand.
  } else if (m.seatFree) root.append(h("section", { class: "results seat-free", testid: "seat-free" }, m.seatFree));
  else if (view.hand_over && !m.covered) root.append(resultsPanel(m, on));
  if (m.covered) root.append(coverPanel(m, on));
  return root;
}
