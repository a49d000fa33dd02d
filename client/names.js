// Names are counted and cut by what a person sees as one character (a grapheme: a family
// emoji, a flag, a letter with its accents), as the server counts them (rooms/names.py):
// never by UTF-16 units, so that an emoji is never cut apart. Every name field of the page
// (a nickname field, or a pass-and-play player's name) is held to NAME_LIMIT, saying so
// when a paste or a keystroke goes over.
export const NAME_LIMIT = 24;

const segmenter = typeof Intl !== "undefined" && Intl.Segmenter
  ? new Intl.Segmenter(undefined, { granularity: "grapheme" })
  : null;

/** The characters of `text` as a person counts them. */
export function graphemes(text) {
  return segmenter ? Array.from(segmenter.segment(text), (s) => s.segment) : Array.from(text);
}

/** `text` cut to `limit` characters, never inside one. */
export function cutName(text, limit = NAME_LIMIT) {
  const parts = graphemes(text);
  return parts.length > limit ? parts.slice(0, limit).join("") : text;
}

const FIELDS = 'input[autocomplete="nickname"], input.name-input';

/** Hold every name field of the page to NAME_LIMIT characters, once. */
export function holdNameFields(root = document) {
  root.addEventListener("input", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.matches(FIELDS)) return;
    const cut = cutName(input.value);
    const over = cut !== input.value;
    if (over) input.value = cut;
    let note = input.nextElementSibling?.classList.contains("name-note") ? input.nextElementSibling : null;
    if (over && !note) {
      note = document.createElement("small");
      note.className = "name-note";
      note.dataset.testid = "name-note";
      note.setAttribute("role", "status");
      note.textContent = `A name shows ${NAME_LIMIT} characters at most.`;
      input.after(note);
    } else if (!over && note && graphemes(input.value).length < NAME_LIMIT) {
      note.remove();
    }
  });
}
