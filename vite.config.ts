import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { courseContent } from "./scripts/vite-course-content.ts";

const apiUrl = process.env.API_URL ?? "http://localhost:3001";

export default defineConfig({
  plugins: [react(), tailwindcss(), courseContent()],
  define: {
    // The year prerendered pages were built in (the footer's copyright), the same in both builds.
    "import.meta.env.VITE_BUILD_YEAR": JSON.stringify(String(new Date().getFullYear())),
  },
  server: {
    proxy: {
      "/api": { target: apiUrl },
      "/media": { target: apiUrl },
    },
  },
  build: {
    outDir: "dist/web",
    emptyOutDir: true,
    // Vite's preload helper appends a <link rel="modulepreload"> per dependency of every dynamic
    // import, and in Chromium each append costs main-thread time (100–275 ms in all at a phone's CPU
    // speed on the course pages, right after first paint; decision 021). Without it a chunk's static
    // imports are fetched when the chunk is parsed: one more round trip for the app's code, which
    // loads after paint anyway.
    modulePreload: false,
  },
});
