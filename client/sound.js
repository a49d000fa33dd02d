// Small sound effects made in the browser with WebAudio: no files, nothing fetched.
import { settings } from "./storage.js";

let context = null;

function audio() {
  if (!settings().sound) return null;
  // Browsers refuse audio before the first tap or key press: stay quiet until then.
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return null;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) {
    try {
      context = new Context();
    } catch {
      return null;
    }
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** One soft tone: frequency in Hz, start offset and length in seconds. */
function tone(ctx, freq, at, length, { type = "sine", volume = 0.08 } = {}) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  const start = ctx.currentTime + at;
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A short noise burst shaped like a card landing on felt. */
function swish(ctx, at = 0, length = 0.09) {
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  gain.gain.value = 0.25;
  source.buffer = buffer;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(ctx.currentTime + at);
}

const EFFECTS = {
  play: (ctx) => swish(ctx),
  draw: (ctx) => swish(ctx, 0, 0.06),
  eight: (ctx) => {
    swish(ctx);
    tone(ctx, 660, 0.05, 0.12, { type: "triangle" });
    tone(ctx, 880, 0.12, 0.16, { type: "triangle" });
  },
  turn: (ctx) => {
    tone(ctx, 523, 0, 0.12, { type: "triangle", volume: 0.06 });
    tone(ctx, 784, 0.1, 0.18, { type: "triangle", volume: 0.06 });
  },
  win: (ctx) => {
    [523, 659, 784, 1047].forEach((f, i) => tone(ctx, f, i * 0.11, 0.3, { type: "triangle" }));
  },
  lose: (ctx) => {
    [392, 330, 262].forEach((f, i) => tone(ctx, f, i * 0.14, 0.3, { type: "sine" }));
  },
  error: (ctx) => tone(ctx, 150, 0, 0.18, { type: "square", volume: 0.03 }),
  tick: (ctx) => tone(ctx, 1200, 0, 0.04, { type: "square", volume: 0.02 }),
};

/** Play one of: play, draw, eight, turn, win, lose, error, tick. Silent when sound is off. */
export function sound(name) {
  const ctx = audio();
  const effect = EFFECTS[name];
  if (!ctx || !effect) return;
  try {
    effect(ctx);
  } catch {
    // A browser that refuses audio before a gesture: stay quiet.
  }
}
