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
  },
});
