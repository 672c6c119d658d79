import { readFileSync } from "node:fs";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { studioTake } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { microphoneAnswering } from "#tests/web/speaking-test-kit";
import { makeVoice, startEachTestWithNoTakes } from "#tests/web/studio-db-test-kit";

/**
 * The browser's side of a take that jsdom does not have: the WAV recorder (extendable-media-recorder
 * and its encoder) gives the fixture's spoken WAV when stopped, and wavesurfer.js "decodes" it to
 * samples with sound from start to end. The server is the real one: it keeps the master, and its job
 * checks and processes it.
 */
const browser = vi.hoisted(() => ({
  master: null as Blob | null,
  mimeTypes: [] as string[],
  samples: new Float32Array(0),
}));

vi.mock("extendable-media-recorder-wav-encoder", () => ({ connect: async () => ({}) }));
vi.mock("extendable-media-recorder", () => ({
  register: async () => {},
  MediaRecorder: class {
    state = "inactive";
    private listeners: Record<string, ((event: { data: Blob }) => void)[]> = {};
    constructor(_stream: unknown, options: { mimeType: string }) {
      browser.mimeTypes.push(options.mimeType);
    }
    addEventListener(type: string, listener: (event: { data: Blob }) => void) {
      this.listeners[type] = [...(this.listeners[type] ?? []), listener];
    }
    start() {
      this.state = "recording";
    }
    stop() {
      this.state = "inactive";
      for (const listener of this.listeners.dataavailable ?? []) listener({ data: browser.master! });
      for (const listener of this.listeners.stop ?? []) listener({ data: browser.master! });
    }
  },
}));
vi.mock("wavesurfer.js/dist/plugins/regions.esm.js", () => ({
  default: {
    create: () => ({
      addRegion: (params: { start: number; end: number }) => ({
        ...params,
        on: () => {},
        play: () => {},
        setOptions(options: { start: number; end: number }) {
          Object.assign(this, options);
        },
      }),
    }),
  },
}));
vi.mock("wavesurfer.js", () => ({
  default: {
    create: () => {
      const handlers: Record<string, () => void> = {};
      return {
        on: (event: string, handler: () => void) => {
          handlers[event] = handler;
        },
        loadBlob: async () => queueMicrotask(() => handlers.decode?.()),
        getDecodedData: () => ({
          getChannelData: () => browser.samples,
          sampleRate: 1000,
          duration: browser.samples.length / 1000,
        }),
        isPlaying: () => false,
        pause: () => {},
        destroy: () => {},
      };
    },
  },
}));

const app = await connectApp();
startEachTestWithNoTakes(app);

const WAV = readFileSync("tests/fixtures/takes/selamat-pagi.wav");
/** The fixture's length in ms (2.42 s), as its samples at 1 kHz: speech, or something as loud, throughout. */
const WAV_MS = 2418;

/** A microphone the page may use, and a level the meter reads (a peak of 0.5: -6 dB). */
function allowMicrophone() {
  const stop = vi.fn();
  const getUserMedia = vi.fn(async () => ({ getTracks: () => [{ stop }] }));
  microphoneAnswering(getUserMedia);
  vi.stubGlobal(
    "AudioContext",
    class {
      createAnalyser = () => ({ fftSize: 0, getFloatTimeDomainData: (frame: Float32Array) => frame.fill(0.5) });
      createMediaStreamSource = () => ({ connect: () => {} });
      close = async () => {};
    },
  );
  browser.master = new Blob([new Uint8Array(WAV)], { type: "audio/wav" });
  browser.samples = new Float32Array(WAV_MS).fill(0.3);
  return { stop };
}

describe("recording a take in the studio", () => {
  it("records the selected line on R with its level, trims it, saves it and follows its checks to review", async () => {
    const microphone = allowMicrophone();
    const me = await app.signInAs("Tutor");
    await makeVoice(app, me, { creditedName: "Aina" });
    renderApp("/studio");
    const line = await screen.findByRole("article", { name: "Nak minum apa?" });
    fireEvent.click(line);
    fireEvent.keyDown(document.body, { key: "R" });

    const meter = await within(line).findByRole("meter", { name: "Input level" });
    await waitFor(() => expect(meter).toHaveAttribute("aria-valuetext", "-6 dB"));
    expect(browser.mimeTypes).toEqual(["audio/wav"]);
    fireEvent.click(within(line).getByRole("button", { name: "Stop recording" }));

    // The automatic trim keeps all of a take that is sound throughout; the voice moves its start.
    const start = await within(line).findByRole("slider", { name: "Trim start" });
    expect(start).toHaveValue("0");
    expect(within(line).getByRole("slider", { name: "Trim end" })).toHaveValue(String(WAV_MS));
    expect(microphone.stop).toHaveBeenCalled();
    fireEvent.change(start, { target: { value: "100" } });
    expect(line).toHaveTextContent("Kept: 0.10 s to 2.42 s.");
    expect(within(line).getByRole("button", { name: "Play current clip to compare" })).toBeInTheDocument();

    fireEvent.click(within(line).getByRole("button", { name: "Save take" }));
    const path = `/api/studio/days/chapter-1/day-1/lines/line-nak-minum/takes?trimStartMs=100&trimEndMs=${WAV_MS}`;
    await waitFor(() => expect(app.requests.find((request) => request.path === path)?.status).toBe(202));
    expect(within(line).queryByRole("button", { name: "Save take" })).not.toBeInTheDocument();

    // The server's job checks and processes the master; the row follows it there.
    expect(
      await within(line).findByText(/^In review: it passed its checks/, undefined, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(within(line).getByRole("button", { name: "Play take in review" })).toBeInTheDocument();
    const [take] = await app.t.db.select().from(studioTake).where(eq(studioTake.lineId, "line-nak-minum"));
    expect(take).toMatchObject({ voiceId: me.id, state: "in-review", trimStartMs: 100, trimEndMs: WAV_MS });
    await waitFor(() => expect(within(line).getByText("In review")).toBeInTheDocument());
  });

  it("walks a speaker's lines: after each saved take the next line is selected, and R records it", async () => {
    allowMicrophone();
    const me = await app.signInAs("Tutor");
    await makeVoice(app, me, { creditedName: "Aina" });
    renderApp("/studio");
    fireEvent.change(await screen.findByRole("combobox", { name: "Speaker" }), { target: { value: "Alex" } });
    fireEvent.click(screen.getByRole("button", { name: "Record all of Alex's lines" }));
    const greeting = screen.getByRole("article", { name: "Selamat pagi, pak cik!" });
    expect(greeting).toHaveAttribute("aria-current", "true");

    fireEvent.keyDown(document.body, { key: "r" });
    await within(greeting).findByRole("meter", { name: "Input level" });
    fireEvent.keyDown(document.body, { key: "r" });
    fireEvent.click(await within(greeting).findByRole("button", { name: "Save take" }));

    const order = screen.getByRole("article", { name: "Saya nak kopi-O satu." });
    await waitFor(() => expect(order).toHaveAttribute("aria-current", "true"));
    expect(screen.getByText(/^Recording all of Alex's lines/)).toHaveTextContent("Now: Saya nak kopi-O satu.");
    fireEvent.keyDown(document.body, { key: "r" });
    expect(await within(order).findByRole("meter", { name: "Input level" })).toBeInTheDocument();
  });

  it("says so when the microphone sent no sound, and offers no take to save", async () => {
    allowMicrophone();
    browser.master = new Blob([], { type: "audio/wav" });
    const me = await app.signInAs("Tutor");
    await makeVoice(app, me, { creditedName: "Aina" });
    renderApp("/studio");
    const line = await screen.findByRole("article", { name: "Nak minum apa?" });
    fireEvent.click(within(line).getByRole("button", { name: "Record" }));
    fireEvent.click(await within(line).findByRole("button", { name: "Stop recording" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Nothing was recorded: your microphone sent no sound.");
    expect(within(line).queryByRole("button", { name: "Save take" })).not.toBeInTheDocument();
    expect(within(line).getByRole("button", { name: "Record" })).toBeEnabled();
  });
});
