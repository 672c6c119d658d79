import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AVATAR_MAX_BYTES } from "#course/account-rules";
import { authClient } from "#web/lib/auth-client";
import type { Profile } from "#web/lib/profile";
import { json, makeProfile, stubApi } from "#web/testing/fake-api";
import { setSession, signedInAs, signedOut } from "#web/testing/fake-auth-client";
import { renderApp } from "#web/testing/render-app";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

let profile: Profile;

beforeEach(() => {
  profile = makeProfile();
  setSession(signedInAs(profile.id));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(authClient.changePassword).mockClear();
  setSession(signedOut);
});

async function openProfile(handler?: Parameters<typeof stubApi>[1]) {
  const fetchMock = stubApi(profile, handler);
  const app = renderApp("/profile");
  await screen.findByRole("heading", { level: 1, name: "Profile" });
  return { ...app, fetchMock };
}

const image = (bytes: number) => new File([new Uint8Array(bytes)], "me.png", { type: "image/png" });

describe("profile page", () => {
  it("shows the names, the optional nickname and the email, which cannot be edited", async () => {
    await openProfile();
    expect(screen.getByLabelText("First name")).toHaveValue("Siti");
    expect(screen.getByLabelText("First name")).toBeRequired();
    expect(screen.getByLabelText("Last name")).toBeRequired();
    expect(screen.getByLabelText("Nickname (optional)")).not.toBeRequired();
    expect(screen.getByLabelText("Email")).toHaveValue("siti@example.com");
    expect(screen.getByLabelText("Email")).toHaveAttribute("readonly");
    expect(screen.getByLabelText("Profile picture")).toHaveAttribute("accept", "image/png,image/jpeg");
    await waitFor(() => expect(document.title).toBe("Profile · Jalan"));
  });

  it("refuses a picture over 1MB without uploading it", async () => {
    const { fetchMock } = await openProfile();
    fireEvent.change(screen.getByLabelText("Profile picture"), { target: { files: [image(AVATAR_MAX_BYTES + 1)] } });
    expect(await screen.findByText("File Too Large")).toBeInTheDocument();
    expect(screen.getByText("Please upload an image smaller than 1MB.")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "PUT")).toBe(false);
  });

  it("uploads a picture at once and keeps the new profile", async () => {
    const avatar = { small: "/media/avatars/user-1-1-100.webp", large: "/media/avatars/user-1-1-200.webp" };
    const { fetchMock, queryClient } = await openProfile(({ method, path }) =>
      method === "PUT" && path === "/api/profile/avatar" ? json(200, { profile: { ...profile, avatar } }) : undefined,
    );
    fireEvent.change(screen.getByLabelText("Profile picture"), { target: { files: [image(AVATAR_MAX_BYTES)] } });
    expect(await screen.findByText("Profile Updated!")).toBeInTheDocument();
    const upload = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    const body = upload?.[1]?.body;
    expect(body instanceof FormData && body.get("avatar")).toBeInstanceOf(File);
    expect(queryClient.getQueryData<Profile>(["profile"])?.avatar).toEqual(avatar);
  });

  it("shows the server's message when an upload is refused", async () => {
    await openProfile(({ method }) =>
      method === "PUT"
        ? json(415, { error: { code: "UNSUPPORTED_MEDIA_TYPE", message: "Please upload a PNG or JPEG image." } })
        : undefined,
    );
    fireEvent.change(screen.getByLabelText("Profile picture"), { target: { files: [image(10)] } });
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Please upload a PNG or JPEG image.")).toBeInTheDocument();
  });

  it("saves the names and nickname, and the header shows the new name", async () => {
    const { fetchMock } = await openProfile(({ method, body }) =>
      method === "PATCH" ? json(200, { profile: { ...profile, ...(body as object) } }) : undefined,
    );
    fireEvent.change(screen.getByLabelText("Nickname (optional)"), { target: { value: " Kak Siti " } });
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("Profile Updated!")).toBeInTheDocument();
    expect(screen.getByText("Your information has been saved successfully.")).toBeInTheDocument();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === "PATCH");
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({
      firstName: "Siti",
      lastName: "Nurhaliza",
      nickname: "Kak Siti",
    });
    expect(await screen.findByRole("button", { name: "Account menu for Kak Siti" })).toHaveTextContent("K");
  });

  it("shows the server's message when saving fails", async () => {
    await openProfile(({ method }) =>
      method === "PATCH"
        ? json(400, {
            error: {
              code: "BAD_REQUEST",
              message: "The request is not valid.",
              issues: [{ path: "nickname", message: "Nickname must be at most 50 characters." }],
            },
          })
        : undefined,
    );
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Nickname must be at most 50 characters.")).toBeInTheDocument();
  });
});

describe("update password form", () => {
  function fillPasswords(current: string, next: string, confirmation: string) {
    fireEvent.change(screen.getByLabelText("Current password"), { target: { value: current } });
    fireEvent.change(screen.getByLabelText("New password"), { target: { value: next } });
    fireEvent.change(screen.getByLabelText("Confirm new password"), { target: { value: confirmation } });
    fireEvent.click(screen.getByRole("button", { name: "Update Password" }));
  }

  it("refuses a new password under six characters", async () => {
    await openProfile();
    fillPasswords("old-password", "teh12", "teh12");
    expect(await screen.findByText("Password Too Short")).toBeInTheDocument();
    expect(screen.getByText("Please use a password with at least 6 characters.")).toBeInTheDocument();
    expect(authClient.changePassword).not.toHaveBeenCalled();
  });

  it("refuses a confirmation that differs", async () => {
    await openProfile();
    fillPasswords("old-password", "teh-tarik", "teh-tarek");
    expect(await screen.findByText("Passwords Do Not Match")).toBeInTheDocument();
    expect(screen.getByText("Please ensure both password fields are identical.")).toBeInTheDocument();
    expect(authClient.changePassword).not.toHaveBeenCalled();
  });

  it("changes the password, signs out other devices and clears the fields", async () => {
    await openProfile();
    fillPasswords("old-password", "teh-tarik", "teh-tarik");
    expect(await screen.findByText("Password Updated!")).toBeInTheDocument();
    expect(screen.getByText("Your password has been changed successfully.")).toBeInTheDocument();
    expect(authClient.changePassword).toHaveBeenCalledWith({
      currentPassword: "old-password",
      newPassword: "teh-tarik",
      revokeOtherSessions: true,
    });
    expect(screen.getByLabelText("New password")).toHaveValue("");
  });

  it("shows the server's message when the change is refused", async () => {
    vi.mocked(authClient.changePassword).mockResolvedValueOnce({
      data: null,
      error: { message: "Invalid password", status: 400, statusText: "Bad Request" },
    } as never);
    await openProfile();
    fillPasswords("wrong-password", "teh-tarik", "teh-tarik");
    expect(await screen.findByText("Password Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Invalid password")).toBeInTheDocument();
    expect(screen.getByLabelText("New password")).toHaveValue("teh-tarik");
  });
});
