import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiUrl = process.env.API_URL ?? "http://localhost:3001";

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
