// Restart (004): a new game with the same players, dealt at once, at a table where this
// device holds every human seat (against the computer, pass and play).
import { api } from "./api.js";
import { navigate } from "./nav.js";
import { saveTable } from "./storage.js";
import { answersFor, variantsCatalogue } from "./house.js";

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
  const spec = restartSpec(room);
  const data = await variantsCatalogue().catch(() => null);
  const made = await api.create({ ...spec, house: answersFor(spec.variant, data) });
  saveTable({
    token: made.token,
    mode: spec.mode,
    variant: spec.variant,
    players: spec.players,
    credentials: made.credentials,
    link: made.link,
    created: Date.now(),
  });
  navigate(`/t/${made.token}`, { states: made.states || [] });
}
