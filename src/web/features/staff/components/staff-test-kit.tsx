import { fireEvent, renderHook, screen, within } from "@testing-library/react";
import { vi } from "vitest";
import type { Role } from "#course/roles";
import { dismissToast, useCurrentToast } from "#web/lib/toast";
import { makeProfile, stubApi } from "#web/testing/fake-api";
import { setSession, signedInAs, signedOut } from "#web/testing/fake-auth-client";
import { fakeStaffApi } from "#web/testing/fake-staff-api";
import { renderApp } from "#web/testing/render-app";

/**
 * Shared set-up for the Tutor Dashboard tests. Each test file must also replace the auth client:
 * `vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"))`.
 */

/** Signs in staff (a Tutor unless told) over the fake staff API and opens /tutor. */
export async function openTutorDashboard(role: Role = "Tutor", options: Parameters<typeof fakeStaffApi>[0] = {}) {
  const profile = makeProfile({ id: role === "Admin" ? "admin-1" : "tutor-1", role });
  setSession(signedInAs(profile.id));
  const api = fakeStaffApi({ viewerId: profile.id, ...options });
  const fetchMock = stubApi(profile, api.handler);
  const app = renderApp("/tutor");
  await screen.findByRole("heading", { level: 1, name: "Tutor Dashboard" });
  return { api, fetchMock, ...app };
}

/** The search box of the user picker. */
export const searchBox = () => screen.getByRole("combobox", { name: "Search for a student" });

/** Types into the picker and picks the match whose option reads `name` (display name then email). */
export async function pickUser(search: string, name: string | RegExp) {
  fireEvent.change(searchBox(), { target: { value: search } });
  const list = await screen.findByRole("listbox", { name: "Matching users" });
  fireEvent.click(await within(list).findByRole("option", { name }));
}

/** The status select of a task, by its accessible name ("Status of Read the setting, Day 1"). */
export const statusSelect = (name: string) =>
  screen.getByLabelText(`Status of ${name}`, { selector: "[role=combobox]" });

/** Every task status select on the page (found by label: role queries over the whole grid are slow). */
export const allStatusSelects = () => screen.queryAllByLabelText(/^Status of /, { selector: "[role=combobox]" });

export function chooseStatus(task: string, status: "Not started" | "In progress" | "Completed") {
  const select = statusSelect(task);
  fireEvent.click(select);
  const list = document.getElementById(select.getAttribute("aria-controls") ?? "");
  if (!list) throw new Error(`The status select of ${task} did not open.`);
  fireEvent.click(within(list).getByRole("option", { name: status }));
}

/** The toast store outlives a test's render: close the toast on screen so the next test starts clean. */
export function resetStaffTest() {
  const { result, unmount } = renderHook(() => useCurrentToast());
  if (result.current) dismissToast(result.current.id);
  unmount();
  vi.unstubAllGlobals();
  setSession(signedOut);
}
