import { useRef, useState } from "react";
import type { UserSummary } from "#course/users";
import { Page } from "#web/components/page";
import { TutorRatings } from "#web/features/sessions/components/tutor-ratings";
import { TutorWeek } from "#web/features/sessions/components/tutor-week";
import { TutorDashboard } from "#web/features/staff/components/tutor-dashboard";

/**
 * The Tutor Dashboard opens on the tutor's own work (their week, who waits for a session, how learners
 * rated their sessions); the recordings waiting and the search over every learner follow. A waiting
 * learner opens below.
 */
export function Component() {
  const [student, setStudent] = useState<UserSummary | null>(null);
  const learners = useRef<HTMLDivElement>(null);
  return (
    <Page
      title="Tutor Dashboard"
      intro="Your sessions and who is waiting for one; then what learners sent you to hear. Below, pick a student to see their progress, correct a task's status or reset it all, see what they struggle with in their review, and correct or withdraw the feedback you sent them. Day locking does not apply here."
    >
      <div className="grid gap-12">
        <TutorWeek
          onOpenLearner={(learner) => {
            setStudent(learner);
            learners.current?.scrollIntoView({ behavior: "smooth", block: "start" });
          }}
        />
        <TutorRatings />
        <div ref={learners} className="border-t-2 pt-8">
          <TutorDashboard student={student} onStudentChange={setStudent} />
        </div>
      </div>
    </Page>
  );
}
