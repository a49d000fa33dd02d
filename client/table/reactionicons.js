// The reactions' pictures, drawn here as small SVGs (a 32-unit square each): the emoji
// are only their text alternative, since a device without a colour-emoji font (Debian's
// Chromium, older Android) draws them as empty boxes. Presentation attributes only (no
// style attribute: the page's CSP).
const NS = "http://www.w3.org/2000/svg";
const SKIN = "#ffcc4d";
const RIM = "#c8921a";
const INK = "#5a3a14";

// Each drawing: [tag, attributes] pairs, painted in order.
const FACE = [["circle", { cx: 16, cy: 16, r: 14, fill: SKIN, stroke: RIM, "stroke-width": 1.2 }]];
const EYES = [
  ["ellipse", { cx: 11, cy: 12.5, rx: 1.7, ry: 2.5, fill: INK }],
  ["ellipse", { cx: 21, cy: 12.5, rx: 1.7, ry: 2.5, fill: INK }],
];
const LINE = { fill: "none", stroke: INK, "stroke-width": 2, "stroke-linecap": "round" };

const DRAWINGS = {
  smile: [...FACE, ...EYES, ["path", { d: "M10 19.5 Q16 25 22 19.5", ...LINE }]],
  thumbs_up: [
    ["rect", { x: 4, y: 14, width: 5.5, height: 14, rx: 1.5, fill: "#4a90d9" }],
    ["path", { d: "M9.5 15 H13 L15 5.5 Q16 3.2 18 4.2 Q19.6 5.2 19.2 8 L18.4 13.5 H25 Q28 13.5 27.6 16.5 L26.2 25.5 Q25.8 28 23 28 H9.5 Z", fill: SKIN, stroke: RIM, "stroke-width": 1.2, "stroke-linejoin": "round" }],
    ["path", { d: "M19 18 H26.8 M18.6 21.5 H26.3 M18.2 25 H25.8", fill: "none", stroke: RIM, "stroke-width": 1.2, "stroke-linecap": "round" }],
  ],
  laugh: [
    ...FACE,
    ["path", { d: "M8 13 Q10.5 9.5 13.5 12.5 M18.5 12.5 Q21.5 9.5 24 13", ...LINE }],
    ["path", { d: "M8 17.5 H24 Q23.2 27 16 27 Q8.8 27 8 17.5 Z", fill: INK }],
    ["path", { d: "M9 17.5 H23 Q22.8 19.6 22.2 20.5 H9.8 Q9.2 19.6 9 17.5 Z", fill: "#ffffff" }],
    ["path", { d: "M4.5 14 Q2 19.5 5 21 Q8 21 7.3 17.5 Z", fill: "#5dadec" }],
    ["path", { d: "M27.5 14 Q30 19.5 27 21 Q24 21 24.7 17.5 Z", fill: "#5dadec" }],
  ],
  wow: [
    ...FACE,
    ["path", { d: "M8.5 7.5 Q11 5.8 13.5 7.2 M18.5 7.2 Q21 5.8 23.5 7.5", ...LINE, "stroke-width": 1.5 }],
    ...EYES,
    ["ellipse", { cx: 16, cy: 22, rx: 3.4, ry: 4.2, fill: INK }],
  ],
  grimace: [
    ...FACE,
    ...EYES,
    ["rect", { x: 7.5, y: 17.5, width: 17, height: 7.5, rx: 3.5, fill: "#ffffff", stroke: INK, "stroke-width": 1.5 }],
    ["path", { d: "M7.5 21.25 H24.5 M12 17.5 V25 M16 17.5 V25 M20 17.5 V25", fill: "none", stroke: INK, "stroke-width": 1.2 }],
  ],
  party: [
    ["path", { d: "M4 28.5 L10.5 11 L21 21.5 Z", fill: "#e8a33d", stroke: "#b5731c", "stroke-width": 1.2, "stroke-linejoin": "round" }],
    ["path", { d: "M7.6 19 L14.3 25 M9.2 14.6 L18 23", fill: "none", stroke: "#d9423c", "stroke-width": 1.6 }],
    ["path", { d: "M13 9.5 Q13.5 4.5 18.5 4", fill: "none", stroke: "#4aa3df", "stroke-width": 1.6, "stroke-linecap": "round" }],
    ["path", { d: "M22.5 19 Q25.5 15 29.5 17", fill: "none", stroke: "#5cb85c", "stroke-width": 1.6, "stroke-linecap": "round" }],
    ["circle", { cx: 22, cy: 8, r: 1.8, fill: "#e84a5f" }],
    ["circle", { cx: 27, cy: 11.5, r: 1.4, fill: "#9b59b6" }],
    ["rect", { x: 17, y: 12.5, width: 2.6, height: 2.6, fill: "#f1c40f", transform: "rotate(20 18.3 13.8)" }],
    ["rect", { x: 25, y: 4, width: 2.4, height: 2.4, fill: "#4aa3df", transform: "rotate(-25 26.2 5.2)" }],
  ],
};

/** Whether a reaction (or "smile", the button's) has a drawing. */
export function hasIcon(id) {
  return Object.hasOwn(DRAWINGS, id);
}

/** The drawing for `id` as an <svg role="img"> named `words` (its text alternative). */
export function reactionIcon(id, words, cls = "reaction-icon") {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 32 32");
  svg.setAttribute("class", cls);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", words);
  svg.setAttribute("focusable", "false");
  svg.dataset.icon = id;
  const title = document.createElementNS(NS, "title");
  title.textContent = words;
  svg.append(title);
  for (const [tag, attrs] of DRAWINGS[id] || []) {
    const part = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs)) part.setAttribute(key, String(value));
    svg.append(part);
  }
  return svg;
}
