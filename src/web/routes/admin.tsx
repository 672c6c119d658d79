import { Page } from "#web/components/page";
import { ContactInbox } from "#web/features/admin/components/contact-inbox";
import { TutorsRatings } from "#web/features/admin/components/tutors-ratings";
import { UsersTable } from "#web/features/admin/components/users-table";
import { VoiceCoverage } from "#web/features/admin/components/voice-coverage";

export function Component() {
  return (
    <Page
      title="Admin Dashboard"
      intro="Manage who can teach and administer Jalan, see how learners rate the tutors' sessions, follow the course's native voices, and read messages from the contact form."
    >
      <div className="grid gap-8">
        <UsersTable />
        <TutorsRatings />
        <VoiceCoverage />
        <ContactInbox />
      </div>
    </Page>
  );
}
