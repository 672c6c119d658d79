import { describe, expect, it } from "vitest";
import { createTestApp } from "../../../../tests/test-app";

const t = await createTestApp();

describe("GET /healthz", () => {
  it("answers 200 when the database answers", async () => {
    const response = await t.request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: true });
  });
});
