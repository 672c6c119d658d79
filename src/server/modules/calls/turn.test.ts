import { describe, expect, it } from "vitest";
import { turnCredentials } from "./turn";

describe("TURN credentials", () => {
  it("are coturn's use-auth-secret pair: the expiry and the user as the name, its HMAC-SHA1 as the password", () => {
    const expiresAt = new Date(1_700_007_200 * 1000);
    const turn = { urls: ["turn:turn.example:3478"], secret: "north-star-shared-secret" };
    // openssl dgst -sha1 -hmac north-star-shared-secret -binary <<< "1700007200:learner-1" (no newline) | base64
    expect(turnCredentials(turn, "learner-1", expiresAt)).toEqual({
      urls: ["turn:turn.example:3478"],
      username: "1700007200:learner-1",
      credential: "1OHJEOUQMxLpHQL5so3HAQcmeC8=",
    });
  });

  it("expire when they are told to (a room's close), and differ from one user to another", () => {
    const turn = { urls: ["turn:turn.example:3478"], secret: "north-star-shared-secret" };
    const closesAt = new Date("2026-12-02T10:05:00Z");
    const learner = turnCredentials(turn, "learner-1", closesAt);
    const tutor = turnCredentials(turn, "tutor-1", closesAt);
    expect(Number(learner.username.split(":")[0])).toBe(closesAt.getTime() / 1000);
    expect(tutor.credential).not.toBe(learner.credential);
  });
});
