// The room's voice chat (loaded when first wanted): WebRTC audio between the browsers of the
// players who turned voice on, a mesh; the server only relays the signalling (`voice`, `signal`).
// Off by default; the microphone is muted until the player presses "Mic" (a toggle, shown plainly).
// A player who turns voice on calls each seat already in voice; those answer. STUN/TURN servers
// come from the server's settings (none by default: players on one network reach each other).

import { $, el, show, toast } from "./dom.js";
import { state } from "./state.js";
import { conn } from "./connection.js";
import { t } from "./i18n.js";

/**
 * @typedef {object} Peer
 * @property {RTCPeerConnection} pc
 * @property {HTMLAudioElement} audio
 * @property {RTCIceCandidateInit[]} pending candidates that came before the remote description
 */

const CALL_GAP_MS = 250;

const voice = {
  on: false,
  /** asked the server, not answered yet */
  asking: false,
  micOn: false,
  /** @type {MediaStream | null} */
  stream: null,
  /** @type {RTCIceServer[]} */
  iceServers: [],
  /** @type {Map<number, Peer>} */
  peers: new Map(),
};

document.addEventListener("unokit:language", render); // the controls' words in the language chosen

/** For the tests and the curious: the peers by seat. */
/** @type {Window & {unokitVoice?: typeof voice}} */ (window).unokitVoice = voice;

/** Turn voice on (asking for the microphone, muted) or off. */
export async function toggleVoice() {
  if (voice.on || voice.asking) return leaveVoice();
  if (state.seat === null || state.spectator) return undefined;
  if (!window.isSecureContext) {
    toast(t("social.voice.insecure"));
    return undefined;
  }
  if (!navigator.mediaDevices?.getUserMedia || typeof RTCPeerConnection === "undefined") {
    toast(t("social.voice.unsupported"));
    return undefined;
  }
  voice.asking = true;
  render();
  try {
    voice.stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true }, video: false });
  } catch {
    voice.asking = false;
    render();
    toast(t("social.voice.no_mic"));
    return undefined;
  }
  setMic(false);
  conn.send({ type: "voice", on: true });
  return undefined;
}

/** Leave the voice chat: every call ends and the microphone is let go. */
export function leaveVoice() {
  const was = voice.on || voice.asking;
  voice.on = voice.asking = false;
  for (const seat of [...voice.peers.keys()]) hangUp(seat);
  for (const track of voice.stream?.getTracks() ?? []) track.stop();
  voice.stream = null;
  voice.micOn = false;
  if (was) conn.send({ type: "voice", on: false });
  render();
}

/** Mute or unmute the microphone. */
export function toggleMic() {
  if (voice.on) setMic(!voice.micOn);
}

/** @param {boolean} on */
function setMic(on) {
  voice.micOn = on;
  for (const track of voice.stream?.getAudioTracks() ?? []) track.enabled = on;
  render();
}

/**
 * A control's symbol and word (the word hides on a phone; the button's name says it all): the
 * messages `id` (the word) and `id.name` (the name).
 * @param {HTMLElement} button
 * @param {string} icon
 * @param {string} id
 */
function labelled(button, icon, id) {
  // eslint-disable-next-line no-restricted-syntax -- a message id, not words
  const name = t(`${id}.name`);
  button.replaceChildren(el("span", { "aria-hidden": "true", text: icon }), el("span", { class: "voice-word", text: t(id) }));
  button.setAttribute("aria-label", name);
  button.title = name;
}

/** Show the voice controls as they are. */
function render() {
  const join = $("#voice-join");
  const mic = $("#voice-mic");
  if (!join || !mic) return;
  join.setAttribute("aria-pressed", String(voice.on));
  labelled(join, "🎧", voice.asking ? "social.voice.joining" : voice.on ? "social.voice.leave" : "social.voice.join");
  show(mic, voice.on);
  mic.setAttribute("aria-pressed", String(voice.micOn));
  mic.classList.toggle("live", voice.micOn);
  if (voice.micOn) labelled(mic, "🔴", "social.voice.mic_on");
  else labelled(mic, "🎙", "social.voice.mic_off");
}

/**
 * A `voice` or `signal` message.
 * @param {Message} message
 */
export function onVoiceMessage(message) {
  if (message.type === "voice") {
    voice.asking = false;
    voice.on = Boolean(message.on) && voice.stream !== null;
    if (message.on && !voice.stream) conn.send({ type: "voice", on: false }); // left meanwhile
    if (Array.isArray(message.ice_servers)) voice.iceServers = message.ice_servers;
    if (voice.on) {
      // one call after another, a little apart: a full table's offers and candidates stay within the message rate
      const seats = (message.seats ?? []).filter((/** @type {number} */ seat) => seat !== state.seat && !voice.peers.has(seat));
      seats.forEach((/** @type {number} */ seat, /** @type {number} */ index) => {
        setTimeout(() => voice.on && !voice.peers.has(seat) && call(seat).catch(() => hangUp(seat)), index * CALL_GAP_MS);
      });
    }
    render();
  } else if (message.type === "signal" && voice.on) {
    onSignal(Number(message.from), String(message.kind), String(message.data)).catch(() => {});
  }
}

/**
 * The seats as they are now: end the calls of seats that left the voice chat.
 * @param {SeatInfo[]} seats
 */
export function onSeats(seats) {
  const inVoice = new Set(seats.filter((seat) => seat.voice).map((seat) => seat.seat));
  for (const seat of [...voice.peers.keys()]) if (!inVoice.has(seat)) hangUp(seat);
  if (voice.on && state.seat !== null && !inVoice.has(state.seat)) leaveVoice(); // taken over by another tab
}

/**
 * A connection to `seat`'s browser.
 * @param {number} seat
 */
function peer(seat) {
  const found = voice.peers.get(seat);
  if (found) return found;
  const pc = new RTCPeerConnection({ iceServers: voice.iceServers });
  const audio = /** @type {HTMLAudioElement} */ (el("audio", { autoplay: true, class: "voice-audio", dataset: { seat } }));
  document.body.append(audio);
  /** @type {Peer} */
  const entry = { pc, audio, pending: [] };
  voice.peers.set(seat, entry);
  for (const track of voice.stream?.getTracks() ?? []) if (voice.stream) pc.addTrack(track, voice.stream);
  pc.onicecandidate = (event) => {
    if (event.candidate) signal(seat, "candidate", JSON.stringify(event.candidate.toJSON()));
  };
  pc.ontrack = (event) => {
    audio.srcObject = event.streams[0] ?? new MediaStream([event.track]);
    audio.play().catch(() => {});
  };
  pc.onconnectionstatechange = () => {
    if (pc.connectionState === "failed") hangUp(seat);
  };
  return entry;
}

/**
 * @param {number} seat
 * @param {string} kind
 * @param {string} data
 */
function signal(seat, kind, data) {
  conn.send({ type: "signal", to: seat, kind, data });
}

/**
 * Call a seat already in voice: make the offer.
 * @param {number} seat
 */
async function call(seat) {
  const { pc } = peer(seat);
  const offer = await pc.createOffer();
  await pc.setLocalDescription(offer);
  signal(seat, "offer", JSON.stringify(pc.localDescription));
}

/**
 * @param {number} from
 * @param {string} kind
 * @param {string} data
 */
async function onSignal(from, kind, data) {
  if (!Number.isInteger(from) || from === state.seat) return;
  const body = JSON.parse(data);
  if (kind === "offer") {
    const existing = voice.peers.get(from);
    // two calls crossed: the lower seat gives way and answers; the other ignores the offer
    if (existing && existing.pc.signalingState !== "stable" && (state.seat ?? 0) > from) return;
    const entry = peer(from);
    await entry.pc.setRemoteDescription(body);
    await flush(entry);
    const answer = await entry.pc.createAnswer();
    await entry.pc.setLocalDescription(answer);
    signal(from, "answer", JSON.stringify(entry.pc.localDescription));
  } else if (kind === "answer") {
    const entry = voice.peers.get(from);
    if (entry && entry.pc.signalingState === "have-local-offer") {
      await entry.pc.setRemoteDescription(body);
      await flush(entry);
    }
  } else if (kind === "candidate") {
    const entry = peer(from);
    if (entry.pc.remoteDescription) await entry.pc.addIceCandidate(body);
    else entry.pending.push(body);
  }
}

/** @param {Peer} entry */
async function flush(entry) {
  for (const candidate of entry.pending.splice(0)) await entry.pc.addIceCandidate(candidate);
}

/** @param {number} seat */
function hangUp(seat) {
  const entry = voice.peers.get(seat);
  if (!entry) return;
  voice.peers.delete(seat);
  entry.pc.close();
  entry.audio.srcObject = null;
  entry.audio.remove();
}
