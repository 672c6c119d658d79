import { Page } from "#web/components/page";
import { TutorDashboard } from "#web/features/staff/components/tutor-dashboard";

export function Component() {
  return (
    <Page
      title="Tutor Dashboard"
      intro="Pick a student to see their progress, correct a task's status or reset it all, and see what they struggle with in their review. Day locking does not apply here."
    >
      <TutorDashboard />
    </Page>
  );
}
