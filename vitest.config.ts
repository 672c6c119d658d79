import react from "@vitejs/plugin-react";
import { configDefaults, defineConfig } from "vitest/config";
import { courseContent } from "./scripts/vite-course-content.ts";
import { tailwindMergeConfig } from "./scripts/vite-tailwind-merge.ts";

export default defineConfig({
  test: {
    // Two test files at a time: each db file has its own database, and much of a db test's time
    // is spent waiting on PostgreSQL, so the two cores of the machines we run on stay busy.
    maxWorkers: 2,
    projects: [
      {
        // cn (src/web/lib/cn.ts) reads tailwind-merge's configuration from the build's plugin.
        plugins: [tailwindMergeConfig()],
        test: {
          name: "unit",
          environment: "node",
          include: ["src/**/*.test.ts", "scripts/**/*.test.ts", "tests/**/*.test.ts"],
          exclude: ["**/*.db.test.ts", "**/node_modules/**"],
        },
      },
      {
        // Component tests read the course as the app does, without needing its generated media.
        plugins: [react(), courseContent({ checkMedia: false }), tailwindMergeConfig()],
        test: {
          name: "web",
          environment: "jsdom",
          include: ["src/web/**/*.test.tsx"],
          exclude: [...configDefaults.exclude, "**/*.db.test.tsx"],
          setupFiles: ["tests/setup-web.ts"],
          // A test may walk a whole practice set in jsdom: about 2 s alone, twice that on a loaded
          // two-core machine, so the default 5 s is too close.
          testTimeout: 15_000,
        },
      },
      {
        // Component tests against the real app in process (tests/web/app-in-process.ts), each
        // file on its own database, with the page and the server holding the same fixture course.
        plugins: [
          react(),
          courseContent({
            checkMedia: false,
            source: { module: "tests/fixtures/course.ts", exportName: "FIXTURE_COURSE" },
          }),
          tailwindMergeConfig(),
        ],
        test: {
          name: "web-db",
          environment: "jsdom",
          include: ["src/web/**/*.db.test.tsx", "tests/web/**/*.db.test.tsx"],
          globalSetup: ["tests/db-global-setup.ts"],
          setupFiles: ["tests/setup-db.ts", "tests/setup-web.ts"],
          // Each test starts with the real globals and no spies; the app's fetch bridge is installed
          // again before each test, after this reset.
          unstubGlobals: true,
          restoreMocks: true,
          testTimeout: 20_000,
          hookTimeout: 60_000,
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
