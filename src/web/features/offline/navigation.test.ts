import { describe, expect, it } from "vitest";
import { APP_SHELL, htmlFor, NOT_THE_APP } from "./navigation";

const notTheApp = (pathname: string) => NOT_THE_APP.some((pattern) => pattern.test(pathname));

describe("the HTML the service worker answers a navigation with", () => {
  it("is the prerendered page's index.html first, then the shell, as the server does", () => {
    expect(htmlFor("/")).toEqual(["/index.html", APP_SHELL]);
    expect(htmlFor("/chapter-1/day-1")).toEqual(["/chapter-1/day-1/index.html", APP_SHELL]);
    expect(htmlFor("/chapter-1/day-1/")).toEqual(["/chapter-1/day-1/index.html", APP_SHELL]);
    expect(htmlFor("/sessions/5f0c")).toEqual(["/sessions/5f0c/index.html", APP_SHELL]);
  });

  it("is never used for the API, its sockets, media, the health check or a file", () => {
    for (const pathname of [
      "/api",
      "/api/auth/verify-email",
      "/api/calls/5f0c/signal",
      "/media/avatars/a.webp",
      "/healthz",
      "/robots.txt",
      "/images/og-image.png",
    ]) {
      expect(notTheApp(pathname), pathname).toBe(true);
    }
    for (const pathname of ["/", "/chapter-1/day-1/codebook", "/sessions/5f0c", "/apiary", "/settings"]) {
      expect(notTheApp(pathname), pathname).toBe(false);
    }
  });
});
