import { Page } from "#web/components/page";
import { TutorHoursPage } from "#web/features/sessions/components/tutor-hours-form";

export function Component() {
  return (
    <Page
      title="Your hours"
      intro="When learners can book a live session with you, in your own time zone, and what they read about you when they choose."
    >
      <TutorHoursPage />
    </Page>
  );
}
