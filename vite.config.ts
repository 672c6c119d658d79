import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { courseContent } from "./scripts/vite-course-content.ts";
import { tailwindMergeConfig } from "./scripts/vite-tailwind-merge.ts";

const apiUrl = process.env.API_URL ?? "http://localhost:3001";

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    courseContent(),
    tailwindMergeConfig(),
    // The web app manifest and the service worker (src/web/sw.ts, decision 087). The worker's list
    // of files to precache is written by scripts/build-web.ts once the prerendered pages exist, not
    // here (injectionPoint: undefined). The app registers the worker itself, late
    // (src/web/offline/register.ts); never in `npm run dev`.
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src/web",
      filename: "sw.ts",
      injectRegister: false,
      injectManifest: { injectionPoint: undefined },
      manifest: {
        name: "Jalan",
        short_name: "Jalan",
        description: "Learn Malaysian Malay by following Alex's story, day by day.",
        lang: "en",
        start_url: "/",
        scope: "/",
        display: "standalone",
        theme_color: "#0f766e",
        background_color: "#ffffff",
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png" },
          { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
          { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
    }),
  ],
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
    rolldownOptions: {
      output: {
        // The app shell (src/web/start.tsx and all it imports statically: React, React Router,
        // TanStack Query, the layout) is one file instead of some forty small chunks, which as
        // separate files weighed about 6 KB gzip more (decision 046). The page entry keeps Vite's
        // preload helper, so a public page's first visit still loads the entry alone; React DOM's
        // client stays a file of its own, imported apart by start.tsx (decision 021).
        codeSplitting: {
          groups: [
            { name: "index", test: /vite[\\/]preload-helper|[\\/]src[\\/]web[\\/]main\.tsx$/, priority: 1 },
            { name: "app", test: /[\\/]src[\\/]web[\\/]start\.tsx$/ },
            // What a signed-in page's header loads after the page (its review count, its notices'
            // bell, its account button and what they share), one file instead of eight.
            {
              name: "signed-in-header",
              test: /[\\/]src[\\/]web[\\/](components[\\/]layout[\\/](review-due|notices-on-demand|notices-button|account-menu-on-demand|account-button)|components[\\/]user-avatar|lib[\\/](reach-on-demand|cards-due|review-summary|time-zone))\.tsx?$/,
            },
          ],
        },
      },
    },
  },
});
