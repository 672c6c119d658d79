import pg from "pg";
import { describe, expect, it } from "vitest";
import { createTestApp } from "#tests/test-app";

const t = await createTestApp();

describe("GET /healthz", () => {
  it("answers 200 when the database answers", async () => {
    const response = await t.request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: true });
  });

  it("answers 503 when the database does not", async () => {
    const unreachable = new pg.Pool({
      connectionString: "postgres://postgres@127.0.0.1:1/none",
      connectionTimeoutMillis: 500,
    });
    unreachable.on("error", () => undefined);
    const app = t.appWith({ pool: unreachable });
    const response = await app.request("/healthz");
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "unavailable", database: false });
    await unreachable.end();
  });

  it("lists each queue of background work and the events waiting when asked for detail, and nothing when the database is down", async () => {
    const detail = await t.request("/healthz?detail");
    expect(detail.status).toBe(200);
    expect(await detail.json()).toEqual({
      status: "ok",
      database: true,
      jobs: expect.any(Array),
      events: { waiting: expect.any(Number), failed: expect.any(Number), oldestWaitingSeconds: null },
    });

    const unreachable = new pg.Pool({
      connectionString: "postgres://postgres@127.0.0.1:1/none",
      connectionTimeoutMillis: 500,
    });
    unreachable.on("error", () => undefined);
    const response = await t.appWith({ pool: unreachable }).request("/healthz?detail");
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "unavailable", database: false, jobs: null, events: null });
    await unreachable.end();
  });
});
