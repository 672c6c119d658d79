import { describe, expect, it } from "vitest";
import { timeLeftText } from "./room-clock";

const session = { startsAt: "2026-03-30T15:00:00.000Z", endsAt: "2026-03-30T15:30:00.000Z" };
const at = (time: string) => new Date(`2026-03-30T${time}Z`).getTime();

describe("the room's clock", () => {
  it("counts whole minutes, rounded up while time remains", () => {
    expect(timeLeftText(at("14:55:00"), session)).toBe("Starts in 5 min");
    expect(timeLeftText(at("14:59:59"), session)).toBe("Starts in 1 min");
    expect(timeLeftText(at("15:00:00"), session)).toBe("30 min left");
    expect(timeLeftText(at("15:18:00"), session)).toBe("12 min left");
    expect(timeLeftText(at("15:17:59"), session)).toBe("13 min left");
    expect(timeLeftText(at("15:29:59"), session)).toBe("1 min left");
  });

  it("says the time is up from the session's end on", () => {
    expect(timeLeftText(at("15:30:00"), session)).toBe("Time is up");
    expect(timeLeftText(at("15:59:00"), session)).toBe("Time is up");
  });
});
