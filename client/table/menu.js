// The table's Restart, Help and Menu (004) as callbacks for the table drawn (stage.js), built on a session.
import { openSettings } from "../settings.js";
import { closeTableDialog, openConfirm, openHelp, openMenu, openPanel } from "./dialogs.js";
import { invitePanel } from "./invite.js";
import { restartTable } from "./restart.js";
import { variantTitle } from "../variants.js";
import { canRestart } from "./bar.js";
import { isOut } from "./seats.js";
import { durationWords } from "./words.js";

/** {restart, help, menu} for the TableSession `session` (session.js). */
export function menuCallbacks(session) {
  const deal = async () => {
    const room = session.room;
    if (!room || !canRestart(room)) return;
    session.say("Dealing a new game…", { quietToast: true });
    try {
      await restartTable(room);
    } catch (err) {
      session.say(err.message || "A new game could not be opened.");
    }
  };
  // A game under way is not thrown away with one tap: Restart asks first (a finished one
  // needs no asking, nor one this device's players are out of: 101's limit).
  const restart = () => {
    const room = session.room;
    if (!room || !canRestart(room)) return;
    const view = session.newest()?.view;
    if (view?.game_over) return deal();
    if (view && session.held.length && session.held.every((s) => isOut(view, s))) return deal();
    openConfirm({
      title: "New game",
      testid: "restart-confirm",
      text: "Start a new game? This one ends here, unfinished; it stays among this browser's saved tables.",
      yes: "Deal a new game",
      onYes: deal,
    });
  };
  const help = () => {
    const variant = session.room?.variant;
    if (variant) openHelp(variant, variantTitle(variant));
  };
  const menu = () => {
    const room = session.room;
    if (!room) return;
    const items = [];
    if (canRestart(room)) items.push(["menu-restart", "New game", restart]);
    items.push(["scores-toggle", session.showHistory ? "Hide scores" : "Scores and history", () => {
      session.showHistory = !session.showHistory;
      session.render();
      if (session.showHistory) session.container.querySelector("#history-panel")?.scrollIntoView({ block: "nearest" });
    }]);
    if (document.fullscreenEnabled) {
      items.push(["fullscreen", document.fullscreenElement ? "Leave full screen" : "Full screen", () => session.fullscreen()]);
    }
    if (room.can_finish && session.held.includes(0) && !room.closed) {
      // 101: the host may finish the game at any time (asked once more at the table).
      items.push(["menu-finish", "Finish the game", () => session.askFinish()]);
    }
    items.push(...tableItems(session, room));
    items.push(["menu-settings", "Settings and statistics", () => openSettings({ variant: room.variant })]);
    items.push(["menu-help", "Rules of this table", help]);
    items.push(["menu-home", "Home page", () => {
      session.container.ownerDocument.querySelector("[data-testid=home]")?.click();
    }]);
    openMenu(items);
  };
  const askLeave = () => confirmLeave(session, Boolean(session.newest()?.view));
  return { restart, help, menu, askLeave, closeDialogs: closeTableDialog };
}

/** A friend's "Leave the table", asked once more in words: what happens to the seat. */
function confirmLeave(session, started) {
  openConfirm({
    title: "Leave the table",
    testid: "leave-confirm",
    text: started
      ? "Leave the table? The computer will play your seat. The invitation link can seat you again while a seat is free."
      : "Leave the table? Your seat is free again for another friend, and this browser forgets it.",
    yes: "Leave the table",
    onYes: () => session.leave(),
  });
}

/**
 * At a table with friends: the host ends the game, lets people watch a public
 * table or not, and reads the away limit; a friend leaves the table to the computer.
 */
function tableItems(session, room) {
  if (room.mode !== "online" || room.closed || !session.held.length) return [];
  const items = [];
  if (session.held.includes(0)) {
    const open = room.seats.filter((s) => s.open && s.kind === "bot").length;
    if (open && session.newest()?.view) {
      // The computer keeps these seats for friends: the invitation seats the next one there.
      const link = session.entry.link || `${window.location.origin}/t/${session.token}`;
      items.push(["menu-invite", open === 1 ? "Invite a friend to the open seat" : `Invite friends to the ${open} open seats`,
        () => openPanel("Invite", "invite-dialog", invitePanel(link, { again: true }))]);
    }
    if (room.public) {
      const on = room.watchable !== false;
      items.push(["menu-spectators", `Let people watch: ${on ? "on" : "off"}`,
        () => session.allowSpectators(!on), { pressed: on }]);
    }
    if (room.away_limit) items.push(`The computer plays for anyone away over ${durationWords(room.away_limit)}.`);
    items.push(["menu-end", "End the game", () => openConfirm({
      title: "End the game",
      testid: "end-confirm",
      text: "End the game for everyone? No more moves can be made at this table; the scores so far stay readable.",
      yes: "End the game",
      onYes: () => session.endGame(),
    })]);
  } else {
    items.push(["menu-leave", "Leave the table", () => confirmLeave(session, Boolean(session.newest()?.view))]);
  }
  return items;
}
