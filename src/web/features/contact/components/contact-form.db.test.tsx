import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { contactMessage } from "#server/db/schema";
import { CONTACT_MESSAGES_PER_HOUR } from "#server/modules/contact/contact.service";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { site } from "#web/config/site";

const app = await connectApp();

// The limit counts an address's messages of the last hour, and every request of this file comes
// from the same one: each test starts with none sent.
beforeEach(async () => {
  await app.t.db.delete(contactMessage);
});

async function openContact() {
  renderApp("/contact");
  await screen.findByRole("heading", { level: 1, name: "Contact Us" });
}

function fill(values: { fullName: string; email: string; message: string }) {
  fireEvent.change(screen.getByLabelText("Full name"), { target: { value: values.fullName } });
  fireEvent.change(screen.getByLabelText(/^Email address/), { target: { value: values.email } });
  fireEvent.change(screen.getByLabelText("Message"), { target: { value: values.message } });
  fireEvent.click(screen.getByRole("button", { name: "Send Message" }));
}

const posts = () => app.requests.filter((request) => request.method === "POST" && request.path === "/api/contact");

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
    await openContact();
    fill(good);
    expect(await screen.findByText("Message Sent!")).toBeInTheDocument();
    expect(screen.getByText("Thank you for reaching out. We'll get back to you soon.")).toBeInTheDocument();
    const [post] = posts();
    expect(post?.body).toEqual({
      fullName: "Aisyah Rahman",
      email: "aisyah@example.com",
      message: "Boleh saya belajar di Sabah?",
    });
    expect(screen.getByLabelText("Full name")).toHaveValue("");
    expect(screen.getByLabelText(/^Email address/)).toHaveValue("");
    expect(screen.getByLabelText("Message")).toHaveValue("");
  });

  it("does not send fields holding only spaces, and says which ones to fill", async () => {
    await openContact();
    fill({ fullName: "   ", email: "aisyah@example.com", message: " \n " });
    expect(await screen.findByText("Please enter your full name.")).toBeInTheDocument();
    expect(screen.getByText("Please write a message.")).toBeInTheDocument();
    expect(screen.queryByText("Please enter your email address.")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Full name")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Full name")).toHaveAccessibleDescription("Please enter your full name.");
    expect(screen.getByLabelText("Full name")).toHaveFocus();
    expect(posts()).toHaveLength(0);

    fireEvent.change(screen.getByLabelText("Full name"), { target: { value: "Aisyah" } });
    expect(screen.queryByText("Please enter your full name.")).not.toBeInTheDocument();
  });

  it("tells a sender past the limit when to try again", async () => {
    // The hour's messages, sent from this address before the page is opened.
    for (let sent = 0; sent < CONTACT_MESSAGES_PER_HOUR; sent += 1) {
      await app.send("POST", "/api/contact", { fullName: "Aisyah Rahman", email: "aisyah@example.com", message: "Hi" });
    }
    await openContact();
    fill(good);
    expect(await screen.findByText("Too Many Messages")).toBeInTheDocument();
    expect(
      screen.getByText(/^You have sent several messages in a short time\. Please try again in \d+ minutes?\.$/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Message")).toHaveValue(good.message);
  });

  it("shows the server's reason when the message is refused", async () => {
    await openContact();
    fill({ ...good, email: "aisyah@example" });
    expect(await screen.findByText("Message Not Sent")).toBeInTheDocument();
    expect(screen.getByText("Email address must be a valid email address.")).toBeInTheDocument();
  });

  it("disables Send Message while the message is on its way", async () => {
    await openContact();
    // Answered later, when the test lets it through.
    const answer = app.holdRequests((request) => request.method === "POST" && request.path === "/api/contact");
    fill(good);
    await waitFor(() => expect(screen.getByRole("button", { name: "Send Message" })).toBeDisabled());
    answer();
    expect(await screen.findByText("Message Sent!")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send Message" })).toBeEnabled();
  });
});
