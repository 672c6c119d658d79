// Applies the stored theme before the first paint, so a dark page never flashes light. A blocking file
// rather than an inline script: the Content-Security-Policy allows scripts from our own origin only.
// Keep in step with src/web/lib/theme.ts (same key, same rule).
//
// It also marks a story's English hidden when the learner chose so (index.css hides the prerendered
// English until the page takes over). Keep in step with story-player.tsx (same key).
(() => {
  try {
    const theme = localStorage.getItem("jalan-theme");
    const dark = theme === "dark" || (theme === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
    document.documentElement.classList.toggle("dark", dark);
  } catch {
    // No storage: the default (light) theme.
  }
  try {
    if (localStorage.getItem("jalan-story-english") === "hidden") {
      document.documentElement.dataset.storyEnglish = "hidden";
    }
  } catch {
    // No storage: the prerendered English shows until the page knows.
  }
})();
