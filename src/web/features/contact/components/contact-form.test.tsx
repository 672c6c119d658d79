import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { site } from "#web/config/site";
import { json, stubApi } from "#web/testing/fake-api";
import { renderApp } from "#web/testing/render-app";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openContact(handler?: Parameters<typeof stubApi>[1]) {
  const fetchMock = stubApi(null, handler);
  renderApp("/contact");
  await screen.findByRole("heading", { level: 1, name: "Contact Us" });
  return fetchMock;
}

function fill(values: { fullName: string; email: string; message: string }) {
  fireEvent.change(screen.getByLabelText("Full name"), { target: { value: values.fullName } });
  fireEvent.change(screen.getByLabelText(/^Email address/), { target: { value: values.email } });
  fireEvent.change(screen.getByLabelText("Message"), { target: { value: values.message } });
  fireEvent.click(screen.getByRole("button", { name: "Send Message" }));
}

const posts = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === "POST");

const good = { fullName: " Aisyah Rahman ", email: "aisyah@example.com ", message: "Boleh saya belajar di Sabah?" };

describe("contact page", () => {
  it("has labelled, required fields, the contact email and the company's site", async () => {
    await openContact();
    for (const label of ["Full name", /^Email address/, "Message"]) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
    expect(screen.getByLabelText(/^Email address/)).toHaveAttribute("type", "email");
    expect(screen.getByLabelText("Message").tagName).toBe("TEXTAREA");
    const page = within(screen.getByRole("main"));
    expect(page.getByRole("link", { name: site.contactEmail })).toHaveAttribute("href", `mailto:${site.contactEmail}`);
    expect(page.getByRole("link", { name: new RegExp(`^${site.companyName}.*opens in a new tab`) })).toHaveAttribute(
      "href",
      site.companyUrl,
    );
    await waitFor(() => expect(document.title).toBe("Contact Us · Jalan"));
  });

  it("sends the trimmed message, thanks the sender and clears the form", async () => {
    const fetchMock = await openContact(({ method, path }) =>
      method === "POST" && path === "/api/contact" ? json(201, { ok: true }) : undefined,
    );
    fill(good);
    expect(await screen.findByText("Message Sent!")).toBeInTheDocument();
    expect(screen.getByText("Thank you for reaching out. We'll get back to you soon.")).toBeInTheDocument();
    const [post] = posts(fetchMock);
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      fullName: "Aisyah Rahman",
      email: "aisyah@example.com",
      message: "Boleh saya belajar di Sabah?",
    });
    expect(screen.getByLabelText("Full name")).toHaveValue("");
    expect(screen.getByLabelText(/^Email address/)).toHaveValue("");
    expect(screen.getByLabelText("Message")).toHaveValue("");
  });

  it("does not send fields holding only spaces, and says which ones to fill", async () => {
    const fetchMock = await openContact();
    fill({ fullName: "   ", email: "aisyah@example.com", message: " \n " });
    expect(await screen.findByText("Please enter your full name.")).toBeInTheDocument();
    expect(screen.getByText("Please write a message.")).toBeInTheDocument();
    expect(screen.queryByText("Please enter your email address.")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Full name")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Full name")).toHaveAccessibleDescription("Please enter your full name.");
    expect(screen.getByLabelText("Full name")).toHaveFocus();
    expect(posts(fetchMock)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText("Full name"), { target: { value: "Aisyah" } });
    expect(screen.queryByText("Please enter your full name.")).not.toBeInTheDocument();
  });

  it("tells a sender past the limit when to try again", async () => {
    const message = "You have sent several messages in a short time. Please try again in 42 minutes.";
    await openContact(({ method }) =>
      method === "POST" ? json(429, { error: { code: "TOO_MANY_REQUESTS", message } }) : undefined,
    );
    fill(good);
    expect(await screen.findByText("Too Many Messages")).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText("Message")).toHaveValue(good.message);
  });

  it("shows the server's reason when the message is refused", async () => {
    await openContact(({ method }) =>
      method === "POST"
        ? json(400, {
            error: {
              code: "BAD_REQUEST",
              message: "The request is not valid.",
              issues: [{ path: "email", message: "Email address must be a valid email address." }],
            },
          })
        : undefined,
    );
    fill({ ...good, email: "aisyah@example" });
    expect(await screen.findByText("Message Not Sent")).toBeInTheDocument();
    expect(screen.getByText("Email address must be a valid email address.")).toBeInTheDocument();
  });

  it("disables Send Message while the message is on its way", async () => {
    let answer: (response: Response) => void = () => {};
    await openContact(({ method }) => {
      if (method !== "POST") return undefined;
      // Answered later, by the test.
      return new Promise<Response>((resolve) => {
        answer = resolve;
      }) as unknown as Response;
    });
    fill(good);
    await waitFor(() => expect(screen.getByRole("button", { name: "Send Message" })).toBeDisabled());
    answer(json(201, { ok: true }));
    expect(await screen.findByText("Message Sent!")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send Message" })).toBeEnabled();
  });
});
