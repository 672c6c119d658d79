import { Page } from "#web/components/page";
import { ContactInbox } from "#web/features/admin/components/contact-inbox";
import { UsersTable } from "#web/features/admin/components/users-table";
import { VoiceCoverage } from "#web/features/admin/components/voice-coverage";

export function Component() {
  return (
    <Page
      title="Admin Dashboard"
      intro="Manage who can teach and administer Jalan, follow the course's native voices, and read messages from the contact form."
    >
      <div className="grid gap-8">
        <UsersTable />
        <VoiceCoverage />
        <ContactInbox />
      </div>
    </Page>
  );
}
