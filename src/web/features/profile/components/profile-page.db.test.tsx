import { crc32 } from "node:zlib";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AVATAR_MAX_BYTES } from "#course/account-rules";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import type { Profile } from "#web/lib/profile";

const app = await connectApp();

/** Signs a learner in and opens /profile. */
async function openProfile() {
  const learner = await app.signInLearner({ firstName: "Siti", lastName: "Nurhaliza", password: "old-password" });
  const rendered = renderApp("/profile");
  await screen.findByRole("heading", { level: 1, name: "Profile" });
  return { ...rendered, learner };
}

const sent = (method: string) => app.requests.filter((request) => request.method === method);

/**
 * A real PNG of exactly `bytes` bytes: a private chunk inside the image (which decoders skip) fills
 * it up, as metadata does in a camera's file.
 */
async function image(bytes: number) {
  const png = await sharp({ create: { width: 300, height: 240, channels: 3, background: "#c8283c" } })
    .png()
    .toBuffer();
  const end = png.length - 12;
  const filler = Buffer.alloc(bytes - png.length - 12);
  const chunk = Buffer.concat([Buffer.alloc(4), Buffer.from("juNk"), filler, Buffer.alloc(4)]);
  chunk.writeUInt32BE(filler.length, 0);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, -4)), chunk.length - 4);
  const file = Buffer.concat([png.subarray(0, end), chunk, png.subarray(end)]);
  return new File([new Uint8Array(file)], "me.png", { type: "image/png" });
}

describe("profile page", () => {
  it("shows the names, the optional nickname and the email, which cannot be edited", async () => {
    const { learner } = await openProfile();
    expect(screen.getByLabelText("First name")).toHaveValue("Siti");
    expect(screen.getByLabelText("First name")).toBeRequired();
    expect(screen.getByLabelText("Last name")).toBeRequired();
    expect(screen.getByLabelText("Nickname (optional)")).not.toBeRequired();
    expect(screen.getByLabelText("Email")).toHaveValue(learner.email);
    expect(screen.getByLabelText("Email")).toHaveAttribute("readonly");
    expect(screen.getByLabelText("Profile picture")).toHaveAttribute("accept", "image/png,image/jpeg");
    await waitFor(() => expect(document.title).toBe("Profile · Jalan"));
  });

  it("refuses a picture over 1MB without uploading it", async () => {
    await openProfile();
    fireEvent.change(screen.getByLabelText("Profile picture"), {
      target: { files: [await image(AVATAR_MAX_BYTES + 1)] },
    });
    expect(await screen.findByText("File Too Large")).toBeInTheDocument();
    expect(screen.getByText("Please upload an image smaller than 1MB.")).toBeInTheDocument();
    expect(sent("PUT")).toEqual([]);
  });

  it("uploads a picture at once and keeps the new profile", async () => {
    const { queryClient } = await openProfile();
    fireEvent.change(screen.getByLabelText("Profile picture"), { target: { files: [await image(AVATAR_MAX_BYTES)] } });
    expect(await screen.findByText("Profile Updated!")).toBeInTheDocument();
    const [upload] = sent("PUT");
    const body = upload?.body;
    expect(body instanceof FormData && body.get("avatar")).toBeInstanceOf(File);
    const { profile } = await app.read<{ profile: Profile }>("/api/profile");
    expect(profile.avatar).not.toBeNull();
    expect(queryClient.getQueryData<Profile>(["profile"])?.avatar).toEqual(profile.avatar);
  });

  it("shows the server's message when an upload is refused", async () => {
    await openProfile();
    // Declared a PNG, but its bytes are no image the server takes.
    const notAnImage = new File([new Uint8Array(10)], "me.png", { type: "image/png" });
    fireEvent.change(screen.getByLabelText("Profile picture"), { target: { files: [notAnImage] } });
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Please upload a PNG or JPEG image.")).toBeInTheDocument();
  });

  it("saves the names and nickname, and the header shows the new name", async () => {
    await openProfile();
    fireEvent.change(screen.getByLabelText("Nickname (optional)"), { target: { value: " Kak Siti " } });
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("Profile Updated!")).toBeInTheDocument();
    expect(screen.getByText("Your information has been saved successfully.")).toBeInTheDocument();
    const [patch] = sent("PATCH");
    expect(patch?.body).toEqual({
      firstName: "Siti",
      lastName: "Nurhaliza",
      nickname: "Kak Siti",
    });
    expect(await screen.findByRole("button", { name: "Account menu for Kak Siti" })).toHaveTextContent("K");
  });

  it("shows the server's message when saving fails", async () => {
    await openProfile();
    const nickname = screen.getByLabelText("Nickname (optional)");
    // Past the field's maxlength (as a script could type), the server refuses: the message is under the field.
    fireEvent.change(nickname, { target: { value: "K".repeat(51) } });
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    await waitFor(() => expect(nickname).toHaveAttribute("aria-invalid", "true"));
    expect(nickname).toHaveAccessibleDescription(/^Nickname must be at most 50 characters\./);
    expect(screen.getByLabelText("First name")).not.toHaveAttribute("aria-invalid");
  });

  it("caps each name at the server's limit as it is typed", async () => {
    await openProfile();
    expect(screen.getByLabelText("First name")).toHaveAttribute("maxlength", "100");
    expect(screen.getByLabelText("Last name")).toHaveAttribute("maxlength", "100");
    expect(screen.getByLabelText("Nickname (optional)")).toHaveAttribute("maxlength", "50");
  });
});

describe("update password form", () => {
  const CHANGE_PASSWORD = "/api/auth/change-password";
  const changes = () => sent("POST").filter((request) => request.path === CHANGE_PASSWORD);

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
    expect(changes()).toEqual([]);
  });

  it("refuses a confirmation that differs", async () => {
    await openProfile();
    fillPasswords("old-password", "teh-tarik", "teh-tarek");
    expect(await screen.findByText("Passwords Do Not Match")).toBeInTheDocument();
    expect(screen.getByText("Please ensure both password fields are identical.")).toBeInTheDocument();
    expect(changes()).toEqual([]);
  });

  it("changes the password, signs out other devices and clears the fields", async () => {
    await openProfile();
    fillPasswords("old-password", "teh-tarik", "teh-tarik");
    expect(await screen.findByText("Password Updated!")).toBeInTheDocument();
    expect(screen.getByText("Your password has been changed successfully.")).toBeInTheDocument();
    expect(changes().map((request) => request.body)).toEqual([
      {
        currentPassword: "old-password",
        newPassword: "teh-tarik",
        revokeOtherSessions: true,
      },
    ]);
    expect(screen.getByLabelText("New password")).toHaveValue("");
  });

  it("shows the server's message when the change is refused", async () => {
    await openProfile();
    fillPasswords("wrong-password", "teh-tarik", "teh-tarik");
    expect(await screen.findByText("Password Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Invalid password")).toBeInTheDocument();
    expect(screen.getByLabelText("New password")).toHaveValue("teh-tarik");
  });
});
