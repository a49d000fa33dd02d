// The table's Restart, Help and Menu (004) as callbacks for table.js, built on a session.
import { openSettings } from "./settings.js";
import { closeTableDialog, openHelp, openMenu } from "./tabledialogs.js";
import { restartTable } from "./restart.js";
import { canRestart, variantTitle } from "./table.js";

/** {restart, help, menu} for the TableSession `session` (game.js). */
export function menuCallbacks(session) {
  const restart = async () => {
    const room = session.room;
    if (!room || !canRestart(room)) return;
    session.say("Dealing a new game…", { quietToast: true });
    try {
      await restartTable(room);
    } catch (err) {
      session.say(err.message || "A new game could not be opened.");
    }
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
    if (room.can_finish && session.held.includes(0)) {
      // 101: the host may finish the game at any time (asked once more at the table).
      items.push(["menu-finish", "Finish the game", () => session.askFinish()]);
    }
    items.push(["menu-settings", "Settings and statistics", () => openSettings({ variant: room.variant })]);
    items.push(["menu-help", "Rules of this table", help]);
    items.push(["menu-home", "Leave the table", () => {
      session.container.ownerDocument.querySelector("[data-testid=home]")?.click();
    }]);
    openMenu(items);
  };
  return { restart, help, menu, closeDialogs: closeTableDialog };
}
