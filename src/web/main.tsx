// The page's entry. Styles load with the HTML (Vite links them in <head>); the app's code
// (src/web/start.tsx) is fetched only once the browser has painted, so on a slow connection the
// prerendered page, its styles and its images do not share the bandwidth with the app's JavaScript.
//
// Prerendered pages without a form (the landing, about and policy pages) go further for a visitor
// who is not signed in: everything on them works without JavaScript (links, the native video player,
// the menu), so the app starts at the visitor's first interaction instead, and a first visit on a
// phone downloads almost no JavaScript. Pages with a form (sign-in, sign-up, contact) start after
// paint, ready before the visitor has typed.
import "@fontsource-variable/inter";
import "./index.css";

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

const prerenderedWithoutForm =
  document.getElementById("router-hydration-data") !== null && document.querySelector("#root form") === null;

if (prerenderedWithoutForm && !signedInHint()) {
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
