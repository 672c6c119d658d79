import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { courseContent } from "./scripts/vite-course-content.ts";

export default defineConfig({
  test: {
    // Two test files at a time: each db file has its own database, and much of a db test's time
    // is spent waiting on PostgreSQL, so the two cores of the machines we run on stay busy.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.db.test.ts", "**/node_modules/**"],
        },
      },
      {
        // Component tests read the course as the app does, without needing its generated media.
        plugins: [react(), courseContent({ checkMedia: false })],
        test: {
          name: "web",
          environment: "jsdom",
          include: ["src/web/**/*.test.tsx"],
          setupFiles: ["tests/setup-web.ts"],
        },
      },
      {
        test: {
          name: "db",
          environment: "node",
          include: ["src/**/*.db.test.ts", "tests/**/*.db.test.ts"],
          globalSetup: ["tests/db-global-setup.ts"],
          setupFiles: ["tests/setup-db.ts"],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
