import { describe, expect, it } from "vitest";
import { avatarInitials, displayName, staffName } from "./account-rules";

describe("displayName", () => {
  it("prefers the nickname", () => {
    expect(displayName({ firstName: "Alex", lastName: "Tan", nickname: "Lex" })).toBe("Lex");
  });
  it("falls back to first and last name", () => {
    expect(displayName({ firstName: "Alex", lastName: "Tan", nickname: "  " })).toBe("Alex Tan");
    expect(displayName({ firstName: "Alex", lastName: null })).toBe("Alex");
  });
});

describe("avatarInitials (spec section 2)", () => {
  it.each([
    [{ nickname: "lex", firstName: "Alex", lastName: "Tan" }, "L"],
    [{ firstName: "alex", lastName: "tan" }, "AT"],
    [{ firstName: "Alex", lastName: "" }, "A"],
    [{ firstName: "", lastName: "Tan" }, "U"],
    [{}, "U"],
  ])("%o gives %s", (parts, initials) => {
    expect(avatarInitials(parts)).toBe(initials);
  });
});

describe("staffName", () => {
  it("puts the nickname beside the full name", () => {
    expect(staffName({ firstName: "Ben", lastName: "Carter", nickname: " Benny " })).toBe("Ben Carter (Benny)");
  });
  it("is the full name without a nickname, or with one that is the full name", () => {
    expect(staffName({ firstName: "Ben", lastName: "Carter", nickname: null })).toBe("Ben Carter");
    expect(staffName({ firstName: "Ben", lastName: "Carter", nickname: "Ben Carter" })).toBe("Ben Carter");
  });
  it("is the nickname alone without names", () => {
    expect(staffName({ firstName: "", lastName: "", nickname: "Benny" })).toBe("Benny");
  });
});
