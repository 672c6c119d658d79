import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { authClient } from "#web/lib/auth-client";
import { stubApi } from "#web/testing/fake-api";
import { renderApp } from "#web/testing/render-app";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(authClient.signUp.email).mockClear();
});

async function fillSignUp(password: string) {
  stubApi(null);
  const app = renderApp("/signup");
  await screen.findByRole("heading", { level: 1, name: "Create your account" });
  fireEvent.change(screen.getByLabelText("First name"), { target: { value: "Alex" } });
  fireEvent.change(screen.getByLabelText("Last name"), { target: { value: "Tan" } });
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: "alex@example.com" } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: password } });
  fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
  return app;
}

describe("sign-up form", () => {
  it("labels every field and requires them, with an email-type email field", async () => {
    stubApi(null);
    renderApp("/signup");
    await screen.findByRole("heading", { level: 1, name: "Create your account" });
    for (const label of ["First name", "Last name", "Email", "Password"]) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
    await waitFor(() => expect(document.title).toBe("Sign up · Jalan"));
  });

  it("refuses a five-character password without calling the server", async () => {
    await fillSignUp("kopi5");
    expect(await screen.findByText("Password Too Short")).toBeInTheDocument();
    expect(screen.getByText("Your password must be at least 6 characters long.")).toBeInTheDocument();
    expect(authClient.signUp.email).not.toHaveBeenCalled();
  });

  it("signs up with the names as user fields, then asks to check email and goes to sign in", async () => {
    const { router } = await fillSignUp("kopi-c-peng");
    expect(await screen.findByText("Check Your Email!")).toBeInTheDocument();
    expect(screen.getByText("We've sent a confirmation link to your email address.")).toBeInTheDocument();
    expect(authClient.signUp.email).toHaveBeenCalledWith(
      expect.objectContaining({
        email: "alex@example.com",
        password: "kopi-c-peng",
        name: "Alex Tan",
        firstName: "Alex",
        lastName: "Tan",
      }),
    );
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome back" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
  });

  it("shows the server's message when sign-up fails and stays on the page", async () => {
    vi.mocked(authClient.signUp.email).mockResolvedValueOnce({
      data: null,
      error: { message: "Password is too common.", status: 400, statusText: "Bad Request" },
    } as never);
    const { router } = await fillSignUp("password");
    expect(await screen.findByText("Sign up Failed")).toBeInTheDocument();
    expect(screen.getByText("Password is too common.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/signup");
  });
});
