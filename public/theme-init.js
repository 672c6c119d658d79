// Applies the stored theme before the first paint, so a dark page never flashes light. A blocking file
// rather than an inline script: the Content-Security-Policy allows scripts from our own origin only.
// Keep in step with src/web/lib/theme.ts (same key, same rule).
(() => {
  try {
    const theme = localStorage.getItem("jalan-theme");
    const dark = theme === "dark" || (theme === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
    document.documentElement.classList.toggle("dark", dark);
  } catch {
    // No storage: the default (light) theme.
  }
})();
