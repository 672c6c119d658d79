/**
 * One sound at a time on a page. A clip player takes the page's playback when it starts a clip
 * (`takePlayback`), which stops the player that had it and pauses the page's <audio> and <video>
 * elements; one of those elements starting to play stops the clip player and pauses the others.
 * A player gives the playback back when its clip ends or it is stopped (`releasePlayback`).
 *
 * The clip players (`useSingleAudio`, the Codebook's line-by-line shadowing) play detached Audio
 * objects, which are not in the document: their own `play` events do not reach the listener here.
 */
type Stop = () => void;

let playing: Stop | null = null;

/** `stop` becomes the page's one playing clip player: whatever else plays stops. */
export function takePlayback(stop: Stop): void {
  const previous = playing;
  playing = stop;
  if (previous !== null && previous !== stop) previous();
  pauseMediaElements();
}

/** `stop`'s clip is over: no player has the page's playback until the next one takes it. */
export function releasePlayback(stop: Stop): void {
  if (playing === stop) playing = null;
}

function pauseMediaElements(except?: EventTarget | null) {
  for (const media of document.querySelectorAll<HTMLMediaElement>("audio, video")) {
    if (media !== except) media.pause();
  }
}

function onMediaElementPlay(event: Event) {
  const previous = playing;
  playing = null;
  previous?.();
  pauseMediaElements(event.target);
}

// `play` does not bubble: the capture phase hears it from every element in the document.
if (typeof document !== "undefined") document.addEventListener("play", onMediaElementPlay, true);
