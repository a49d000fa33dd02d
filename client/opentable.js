// Opening a new table: ask the server for it with this browser's house rules for its
// variant, remember its seats here, and go to it. The home page and Restart both do this.
import { api } from "./api.js";
import { navigate } from "./nav.js";
import { saveTable } from "./storage.js";
import { answersFor, variantsCatalogue } from "./house.js";

export async function openTable(spec) {
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
