// Restart (004): a new game with the same players, dealt at once, at a table where this
// device holds every human seat (against the computer, pass and play).
import { openTable } from "../opentable.js";

/** What to ask the server for: the same variant, seats, level, speed, clock and names. */
export function restartSpec(room) {
  const humans = room.seats.filter((s) => s.kind !== "bot");
  const bot = room.seats.find((s) => s.kind === "bot");
  const spec = {
    mode: room.mode,
    variant: room.variant,
    players: room.players,
    timer: room.timer ? room.timer : false,
    names: room.mode === "local" ? room.seats.map((s) => s.name) : humans.map((s) => s.name),
  };
  if (room.mode === "computer") {
    if (bot?.level) spec.level = bot.level;
    if (room.speed) spec.speed = room.speed;
  }
  return spec;
}

/** Open the new table and go to it; the old one stays among the saved tables. */
export async function restartTable(room) {
  await openTable(restartSpec(room));
}
