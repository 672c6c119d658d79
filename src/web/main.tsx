// The page's entry. Styles load with the HTML (Vite links them in <head>); the app's code
// (src/web/start.tsx) is fetched only once the browser has painted, so on a slow connection the
// prerendered page, its styles and its images do not share the bandwidth with the app's JavaScript.
//
// Prerendered pages that work without JavaScript (the landing, about and policy pages) go further
// for a visitor who is not signed in: the app starts at the visitor's first interaction instead, and
// a first visit on a phone downloads almost no JavaScript. The build marks each prerendered page
// with when its app starts (src/web/lib/app-start.ts); pages with a form, the course pages and the
// app shell (app.html) start after paint.
import "@fontsource-variable/inter";
import "./index.css";
import { APP_START_ATTRIBUTE, type AppStart } from "./lib/app-start";

const SIGNED_IN_HINT_KEY = "jalan-signed-in"; // see src/web/lib/session.ts
const FIRST_INTERACTION = ["pointerdown", "pointerover", "keydown", "touchstart", "focusin"] as const;

function startApp() {
  void import("./start");
}

function signedInHint(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_HINT_KEY) !== null;
  } catch {
    return false;
  }
}

const appStart = document.getElementById("root")?.getAttribute(APP_START_ATTRIBUTE) as AppStart | null;

if (appStart === "first-interaction" && !signedInHint()) {
  const onFirstInteraction = () => {
    for (const type of FIRST_INTERACTION) window.removeEventListener(type, onFirstInteraction, true);
    startApp();
  };
  for (const type of FIRST_INTERACTION) {
    window.addEventListener(type, onFirstInteraction, { capture: true, passive: true });
  }
} else {
  requestAnimationFrame(() => setTimeout(startApp, 0));
}
