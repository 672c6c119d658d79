import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OfflineBanner } from "./components/offline-banner";
import { UpdatePrompt } from "./components/update-prompt";
import { registerServiceWorkerLate, whenIdleAfterLoad } from "./register-late";
import { registerServiceWorker } from "./service-worker";
import { updateReady } from "./update-ready";

/** workbox-window's Workbox, a third party's: its events are fired by the test. */
const { FakeWorkbox } = vi.hoisted(() => {
  class FakeWorkbox {
    static last: FakeWorkbox | null = null;
    readonly listeners = new Map<string, () => void>();
    readonly register = vi.fn(async () => undefined);
    readonly messageSkipWaiting = vi.fn();
    readonly update = vi.fn(async () => undefined);
    constructor(readonly scriptUrl: string) {
      FakeWorkbox.last = this;
    }
    addEventListener(type: string, listener: () => void) {
      this.listeners.set(type, listener);
    }
  }
  return { FakeWorkbox };
});

/** The worker's event `type`, as workbox-window dispatches it. */
const fire = (workbox: InstanceType<typeof FakeWorkbox>, type: string) => act(() => workbox.listeners.get(type)?.());

vi.mock("workbox-window", () => ({ Workbox: FakeWorkbox }));

afterEach(() => {
  updateReady.withdraw();
  FakeWorkbox.last = null;
});

describe("the service worker's registration", () => {
  let readyState: DocumentReadyState;
  const idle: (() => void)[] = [];

  beforeEach(() => {
    readyState = "loading";
    vi.spyOn(document, "readyState", "get").mockImplementation(() => readyState);
    idle.length = 0;
    vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("waits for the page to load, then for the browser to be idle", () => {
    const task = vi.fn();
    whenIdleAfterLoad(task);
    expect(idle).toHaveLength(0);
    expect(task).not.toHaveBeenCalled();

    readyState = "complete";
    window.dispatchEvent(new Event("load"));
    expect(idle).toHaveLength(1);
    expect(task).not.toHaveBeenCalled();

    idle[0]!();
    expect(task).toHaveBeenCalledTimes(1);
  });

  it("waits only for idle time when the page has already loaded", () => {
    readyState = "complete";
    const task = vi.fn();
    whenIdleAfterLoad(task);
    expect(task).not.toHaveBeenCalled();
    idle[0]!();
    expect(task).toHaveBeenCalledTimes(1);
  });

  it("never registers outside a production build (tests, npm run dev)", () => {
    const register = vi.fn();
    vi.stubGlobal("navigator", { ...navigator, serviceWorker: { register } });
    readyState = "complete";
    registerServiceWorkerLate();
    for (const callback of idle) callback();
    expect(idle).toHaveLength(0);
    expect(register).not.toHaveBeenCalled();
    expect(FakeWorkbox.last).toBeNull();
  });
});

describe("a new version of Jalan", () => {
  it("is offered once installed, takes over only on Reload, and reloads once it controls the page", async () => {
    const reload = vi.fn();
    render(<UpdatePrompt />);
    await registerServiceWorker({ reload });
    const workbox = FakeWorkbox.last!;
    expect(workbox.scriptUrl).toBe("/sw.js");
    expect(workbox.register).toHaveBeenCalledTimes(1);
    expect(screen.queryByText("A new version of Jalan is ready.")).not.toBeInTheDocument();

    fire(workbox, "waiting");
    expect(await screen.findByText("A new version of Jalan is ready.")).toBeInTheDocument();
    // It waits: nothing asks the new worker to take over until the learner does.
    expect(workbox.messageSkipWaiting).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole("button", { name: "Reload" }));
    expect(workbox.messageSkipWaiting).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: "Reloading…" })).toBeDisabled();
    expect(reload).not.toHaveBeenCalled();

    fire(workbox, "controlling");
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("is looked for again when the device comes back online", async () => {
    await registerServiceWorker({ reload: vi.fn() });
    const workbox = FakeWorkbox.last!;
    expect(workbox.update).not.toHaveBeenCalled();
    window.dispatchEvent(new Event("online"));
    expect(workbox.update).toHaveBeenCalledTimes(1);
  });

  it("taking over because another tab asked does not reload this page", async () => {
    const reload = vi.fn();
    render(<UpdatePrompt />);
    await registerServiceWorker({ reload });
    const workbox = FakeWorkbox.last!;
    fire(workbox, "waiting");
    fire(workbox, "controlling");
    expect(reload).not.toHaveBeenCalled();
    expect(screen.getByText("A new version of Jalan is ready.")).toBeInTheDocument();
  });
});

describe("the offline line", () => {
  let online = true;
  beforeEach(() => {
    online = true;
    vi.spyOn(navigator, "onLine", "get").mockImplementation(() => online);
  });
  afterEach(() => vi.restoreAllMocks());

  const goOffline = (offline: boolean) =>
    act(() => {
      online = !offline;
      window.dispatchEvent(new Event(offline ? "offline" : "online"));
    });

  it("shows while the device is offline, over the page rather than in its flow, and goes once online", () => {
    render(<OfflineBanner />);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();

    goOffline(true);
    const line = screen.getByRole("status");
    expect(line).toHaveTextContent("You're offline. Pages you've opened still work");
    expect(line).toHaveClass("fixed");

    goOffline(false);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });

  it("shows at once on a page opened offline", () => {
    online = false;
    render(<OfflineBanner />);
    expect(screen.getByRole("status")).toHaveTextContent("You're offline.");
  });
});
