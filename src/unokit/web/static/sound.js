// The game's sounds, synthesized with the Web Audio API (no sound files): `playSound(name)` now,
// `eventSound(event)` for a game event, once per event.  Browsers let a page sound only after a user
// gesture, so the audio context is made at the first pointer or key press.  Muted: nothing sounds.

import { prefs } from "./prefs.js";
import { state } from "./state.js";

/** @typedef {"turn" | "play" | "draw" | "uno" | "catch" | "win" | "over" | "tick"} SoundName */

const VOLUME = 0.5;

const audio = {
  /** @type {AudioContext | null} */
  context: null,
  /** @type {GainNode | null} */
  out: null,
  unlocked: false,
  /** @type {AudioBuffer | null} */
  noise: null,
};

const sounded = new WeakSet(); // the events already sounded

/** Create (or wake) the audio context: only from a user gesture. */
function unlock() {
  audio.unlocked = true;
  if (prefs.muted) return; // made at the first sound after unmuting (the unmute click is a gesture too)
  ensureContext();
}

function ensureContext() {
  if (!audio.unlocked) return null;
  if (!audio.context) {
    const Context = window.AudioContext ?? /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return null;
    try {
      audio.context = /** @type {AudioContext} */ (new Context());
    } catch {
      return null;
    }
    const compressor = audio.context.createDynamicsCompressor();
    compressor.connect(audio.context.destination);
    audio.out = audio.context.createGain();
    audio.out.gain.value = VOLUME;
    audio.out.connect(compressor);
  }
  if (audio.context.state === "suspended") audio.context.resume().catch(() => {});
  return audio.context;
}

for (const type of ["pointerdown", "keydown", "touchend"]) {
  document.addEventListener(type, unlock, { capture: true, passive: true });
}

/**
 * One enveloped tone.
 * @param {AudioContext} ctx
 * @param {{type?: OscillatorType, freq: number, to?: number, at?: number, length: number, gain?: number, attack?: number}} tone
 */
function tone(ctx, { type = "sine", freq, to, at = 0, length, gain = 0.3, attack = 0.008 }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const env = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, start + length);
  env.gain.setValueAtTime(0.0001, start);
  env.gain.exponentialRampToValueAtTime(gain, start + attack);
  env.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(env).connect(/** @type {GainNode} */ (audio.out));
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/**
 * A burst of filtered noise (the swish of a card).
 * @param {AudioContext} ctx
 * @param {{at?: number, length: number, freq: number, to?: number, gain?: number, q?: number}} burst
 */
function noise(ctx, { at = 0, length, freq, to, gain = 0.25, q = 1.2 }) {
  if (!audio.noise) {
    const buffer = ctx.createBuffer(1, Math.floor(ctx.sampleRate * 0.5), ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i += 1) data[i] = Math.random() * 2 - 1;
    audio.noise = buffer;
  }
  const start = ctx.currentTime + at;
  const source = ctx.createBufferSource();
  source.buffer = audio.noise;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = q;
  filter.frequency.setValueAtTime(freq, start);
  if (to) filter.frequency.exponentialRampToValueAtTime(to, start + length);
  const env = ctx.createGain();
  env.gain.setValueAtTime(0.0001, start);
  env.gain.exponentialRampToValueAtTime(gain, start + 0.01);
  env.gain.exponentialRampToValueAtTime(0.0001, start + length);
  source.connect(filter).connect(env).connect(/** @type {GainNode} */ (audio.out));
  source.start(start);
  source.stop(start + length + 0.02);
}

/** @type {Record<SoundName, (ctx: AudioContext) => void>} */
const SOUNDS = {
  // two bright notes going up: it is you
  turn: (ctx) => {
    tone(ctx, { freq: 659.25, length: 0.18, gain: 0.22 });
    tone(ctx, { freq: 987.77, at: 0.11, length: 0.32, gain: 0.22 });
  },
  // the snap of a card on the pile
  play: (ctx) => {
    noise(ctx, { length: 0.09, freq: 2400, to: 900, gain: 0.35 });
    tone(ctx, { type: "triangle", freq: 320, to: 140, length: 0.08, gain: 0.25 });
  },
  // a card slid off the pile
  draw: (ctx) => {
    noise(ctx, { length: 0.22, freq: 600, to: 2600, gain: 0.22, q: 0.8 });
  },
  // three quick rising notes
  uno: (ctx) => {
    tone(ctx, { type: "square", freq: 784, length: 0.1, gain: 0.09 });
    tone(ctx, { type: "square", freq: 988, at: 0.08, length: 0.1, gain: 0.09 });
    tone(ctx, { type: "square", freq: 1319, at: 0.16, length: 0.22, gain: 0.1 });
  },
  // a low buzz
  catch: (ctx) => {
    tone(ctx, { type: "sawtooth", freq: 196, to: 150, length: 0.32, gain: 0.12 });
    tone(ctx, { type: "sawtooth", freq: 207.7, to: 160, length: 0.32, gain: 0.1 });
  },
  // a little fanfare
  win: (ctx) => {
    [523.25, 659.25, 783.99].forEach((freq, i) => tone(ctx, { type: "triangle", freq, at: i * 0.1, length: 0.16, gain: 0.22 }));
    tone(ctx, { type: "triangle", freq: 1046.5, at: 0.3, length: 0.6, gain: 0.25 });
    tone(ctx, { freq: 1318.5, at: 0.3, length: 0.6, gain: 0.1 });
  },
  // the round is over and someone else won: two soft notes down
  over: (ctx) => {
    tone(ctx, { type: "triangle", freq: 587.33, length: 0.2, gain: 0.18 });
    tone(ctx, { type: "triangle", freq: 440, at: 0.16, length: 0.36, gain: 0.18 });
  },
  // a soft tick
  tick: (ctx) => {
    tone(ctx, { freq: 1760, length: 0.035, gain: 0.08, attack: 0.002 });
  },
};

/**
 * Play a sound now (nothing when muted, before the player's first gesture, or without Web Audio).
 * @param {SoundName} name
 */
export function playSound(name) {
  const ctx = prefs.muted ? null : ensureContext();
  if (!ctx || !audio.out) return;
  try {
    SOUNDS[name](ctx);
  } catch {
    // a sound never stops the game
  }
}

/**
 * The sound of a game event, if it has one.
 * @param {GameEvent} event
 */
function soundOf(event) {
  switch (event.kind) {
    case "play":
      return event.value === 1 ? "uno" : "play"; // played with the UNO call
    case "discard":
      return "play";
    case "draw":
      return event.value > 0 ? "draw" : null;
    case "uno":
      return "uno";
    case "catch":
      return "catch";
    case "round_end":
      return event.seat === state.seat && state.seat !== null ? "win" : "over";
    default:
      return null;
  }
}

/** Play the sound of a game event, once per event. @param {GameEvent} event */
export function eventSound(event) {
  const name = sounded.has(event) ? null : soundOf(event);
  sounded.add(event);
  if (name) playSound(name);
}
