// The page's entry. Styles load with the HTML (Vite links them in <head>); the app's code is fetched
// only once the browser has painted, so on a slow connection the prerendered page, its styles and its
// images do not share the bandwidth with the app's JavaScript, and the page appears sooner. The app
// then takes over the page (src/web/start.tsx).
import "@fontsource-variable/inter";
import "./index.css";

requestAnimationFrame(() => {
  setTimeout(() => {
    void import("./start");
  }, 0);
});
