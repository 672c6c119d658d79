import { Page } from "#web/components/page";
import { ContactInbox } from "#web/features/admin/components/contact-inbox";
import { UsersTable } from "#web/features/admin/components/users-table";

export function Component() {
  return (
    <Page
      title="Admin Dashboard"
      intro="Manage who can teach and administer Jalan, and read messages from the contact form."
    >
      <div className="grid gap-8">
        <UsersTable />
        <ContactInbox />
      </div>
    </Page>
  );
}
