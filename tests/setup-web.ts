import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";
import { clearToasts } from "#web/lib/toast";

afterEach(() => {
  cleanup();
  // The toast store lives for the whole file; a toast from one test must not show in the next.
  clearToasts();
});

// Pages render through the real router with lazy routes; on a busy two-core machine (CI runs the
// suites side by side) a render and its toast can take over the default one second to appear.
configure({ asyncUtilTimeout: 5_000 });

// Radix Select calls pointer capture and scrolling, which jsdom does not have.
Element.prototype.hasPointerCapture = () => false;
Element.prototype.releasePointerCapture = () => {};
Element.prototype.scrollIntoView = () => {};
