// The service worker's precache list (decision 087), written into dist/web/sw.js by the web build
// (scripts/build-web.ts) after the prerendered pages exist: vite-plugin-pwa builds src/web/sw.ts
// with its `self.__WB_MANIFEST` left in place, and this fills it in.
import path from "node:path";
import { injectManifest } from "workbox-build";

/**
 * The app shell: the shell and the prerendered pages' HTML, the JavaScript and CSS, the Latin fonts
 * (the other alphabets' fonts load when a page uses their letters, from the network), the icons and
 * the manifest. Not the course's media (public/media), which day packs will cache on request.
 */
const PRECACHED = [
  "**/index.html",
  "app.html",
  "assets/**/*.{js,css}",
  "assets/inter-latin-wght-normal-*.woff2",
  "assets/inter-latin-ext-wght-normal-*.woff2",
  "theme-init.js",
  "favicon.svg",
  "logo.svg",
  "icons/*.png",
  "manifest.webmanifest",
];

/** Vite's content-hashed file names: their URL changes with their content, no revision needed. */
const HASHED = /^assets\//;

export async function writePrecacheList(webDir: string) {
  const swFile = path.join(webDir, "sw.js");
  const { count, size, warnings } = await injectManifest({
    swSrc: swFile,
    swDest: swFile,
    globDirectory: webDir,
    globPatterns: PRECACHED,
    globIgnores: ["media/**", "sw.js"],
    dontCacheBustURLsMatching: HASHED,
    // A course page's chunk or the app's is well under this; a file over it is a mistake to look at.
    maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
  });
  if (warnings.length > 0) throw new Error(`Precache list: ${warnings.join("; ")}`);
  return { count, size };
}
