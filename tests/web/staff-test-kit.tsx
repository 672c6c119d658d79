import { fireEvent, screen, within } from "@testing-library/react";
import type { ProgressMap } from "#course/progress-rules";
import type { AppInProcess } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { type StoredAccount, storeAccounts } from "#tests/web/staff-db-test-kit";

/**
 * Shared set-up for the Tutor Dashboard tests against the app in process
 * (tests/web/app-in-process.ts). Each test file starts every test with no accounts
 * (startEachTestWithNoAccounts, tests/web/staff-db-test-kit.ts), so the picker lists only the
 * accounts made here.
 */

/** The accounts the staff tests meet: two learners, a tutor and an admin. */
export interface StaffTestAccounts {
  /** Learner Aisyah Rahman, aisyah@example.com. */
  aisyah: StoredAccount;
  /** Learner Ben Carter, ben@example.com, whose nickname is Benny. */
  ben: StoredAccount;
  /** Tutor Farid Ismail, farid@example.com: signed in when a Tutor opens the dashboard. */
  farid: StoredAccount;
  /** Admin Mei Lin, mei@example.com: signed in when an Admin opens the dashboard. */
  mei: StoredAccount;
}

const FARID = { firstName: "Farid", lastName: "Ismail", email: "farid@example.com" };
const MEI = { firstName: "Mei", lastName: "Lin", email: "mei@example.com" };

/**
 * Makes the staff tests' accounts, stores each learner's `progress`, then signs in Farid (a Tutor)
 * or Mei (an Admin) through the API; the others are only listed, so they are stored
 * (storeAccounts, tests/web/staff-db-test-kit.ts).
 */
export async function signInStaff(
  app: AppInProcess,
  role: "Tutor" | "Admin" = "Tutor",
  { progress = {} }: { progress?: Partial<Record<"aisyah" | "ben", ProgressMap>> } = {},
): Promise<StaffTestAccounts> {
  const [aisyah, ben, other] = await storeAccounts(app, [
    { firstName: "Aisyah", lastName: "Rahman", email: "aisyah@example.com" },
    { firstName: "Ben", lastName: "Carter", nickname: "Benny", email: "ben@example.com" },
    role === "Tutor" ? { ...MEI, role: "Admin" } : { ...FARID, role: "Tutor" },
  ]);
  if (progress.aisyah) await app.seedProgress(aisyah!.id, progress.aisyah);
  if (progress.ben) await app.seedProgress(ben!.id, progress.ben);
  const viewer = await app.signInAs(role, role === "Tutor" ? FARID : MEI);
  const { id, firstName, lastName, email } = viewer;
  const signedIn: StoredAccount = { id, firstName, lastName, nickname: null, email, role };
  return role === "Tutor"
    ? { aisyah: aisyah!, ben: ben!, farid: signedIn, mei: other! }
    : { aisyah: aisyah!, ben: ben!, farid: other!, mei: signedIn };
}

/** Signs in staff (Farid, a Tutor, unless told) with the staff tests' accounts and opens /tutor. */
export async function openTutorDashboard(
  app: AppInProcess,
  role: "Tutor" | "Admin" = "Tutor",
  options: Parameters<typeof signInStaff>[2] = {},
) {
  const accounts = await signInStaff(app, role, options);
  const rendered = renderApp("/tutor");
  await screen.findByRole("heading", { level: 1, name: "Tutor Dashboard" });
  return { ...accounts, ...rendered };
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
