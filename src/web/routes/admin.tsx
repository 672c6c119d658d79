import { Page } from "../components/page";
import { ContactInbox } from "../features/admin/components/contact-inbox";

export function Component() {
  return (
    <Page title="Admin Dashboard" intro="Messages from the contact form. User roles will be managed here too.">
      <div className="grid gap-8">
        <ContactInbox />
      </div>
    </Page>
  );
}
