import { describe, expect, it } from "vitest";
import { filenameFromContentDisposition } from "./settings";

describe("filenameFromContentDisposition", () => {
  it.each([
    ['attachment; filename="jalan-my-data-2025-05-01.json"', "jalan-my-data-2025-05-01.json"],
    ["attachment; filename=jalan-my-data-2025-05-01.json", "jalan-my-data-2025-05-01.json"],
    ["attachment; filename=\"fallback.json\"; filename*=UTF-8''jalan%20data.json", "jalan data.json"],
    ["attachment", null],
    [null, null],
  ])("reads %s as %s", (header, filename) => {
    expect(filenameFromContentDisposition(header)).toBe(filename);
  });
});
