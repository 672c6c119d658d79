import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { unsubscribeTokenOf } from "#tests/unsubscribe-token";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();

const unsubscribePosts = () =>
  app.requests.filter((request) => request.method === "POST" && request.path === "/api/reminders/unsubscribe");

async function openUnsubscribe(search: string) {
  renderApp(`/unsubscribe${search}`);
  expect(await screen.findByRole("heading", { level: 1, name: "Stop review reminder emails?" })).toBeInTheDocument();
}

async function emailNotificationsOf(user: { email: string; password: string }) {
  await app.signIn(user);
  const { settings } = (await (await app.fetch("/api/settings")).json()) as {
    settings: { emailNotifications: boolean };
  };
  return settings.emailNotifications;
}

describe("the unsubscribe page", () => {
  it("turns a signed-out learner's email notifications off once they confirm, and points to Settings", async () => {
    const learner = await app.createUser("Student");
    await openUnsubscribe(`?token=${await unsubscribeTokenOf(app.t, learner.id)}`);
    // Opening the link changes nothing: a mail scanner may open it.
    expect(unsubscribePosts()).toEqual([]);

    fireEvent.click(screen.getByRole("button", { name: "Stop reminder emails" }));
    const done = await screen.findByRole("heading", { name: "Reminder emails are off" });
    await waitFor(() => expect(done).toHaveFocus());
    expect(screen.getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/settings");
    expect(unsubscribePosts()).toHaveLength(1);
    expect(await emailNotificationsOf(learner)).toBe(false);
  });

  it("works for the learner signed in too", async () => {
    const learner = await app.signInLearner();
    await openUnsubscribe(`?token=${await unsubscribeTokenOf(app.t, learner.id)}`);
    fireEvent.click(screen.getByRole("button", { name: "Stop reminder emails" }));
    expect(await screen.findByRole("heading", { name: "Reminder emails are off" })).toBeInTheDocument();
    expect(await emailNotificationsOf(learner)).toBe(false);
  });

  it("shows the server's message for a token it did not make, and changes nothing", async () => {
    const learner = await app.createUser("Student");
    const forged = `${Buffer.from(learner.id).toString("base64url")}.not-the-signature`;
    await openUnsubscribe(`?token=${forged}`);
    fireEvent.click(screen.getByRole("button", { name: "Stop reminder emails" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This unsubscribe link is not valid.");
    expect(screen.queryByRole("heading", { name: "Reminder emails are off" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Stop reminder emails" })).toBeEnabled();
    expect(await emailNotificationsOf(learner)).toBe(true);
  });

  it("shows the server's message for a link without a token", async () => {
    await openUnsubscribe("");
    fireEvent.click(screen.getByRole("button", { name: "Stop reminder emails" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This unsubscribe link is not valid.");
  });
});
