import { UserRound } from "lucide-react";
import { useState } from "react";
import type { UserSummary } from "#server/modules/users/users.contract";
import { LoadFailed } from "#web/components/load-failed";
import { useUserProgress } from "#web/features/staff/api/staff";
import { LearnerFeedback } from "./learner-feedback";
import { LearnerStruggles } from "./learner-struggles";
import { ProgressGrid } from "./progress-grid";
import { ResetProgressDialog } from "./reset-progress-dialog";
import { SpeakingQueue } from "./speaking-queue";
import { UserPicker, userName } from "./user-picker";

/**
 * The Tutor Dashboard: what learners sent waiting to be heard; then pick any user, see and correct
 * their progress, or reset it; below the progress, what they struggle with in their review, and the
 * feedback they received, which its tutor may correct or withdraw.
 */
export function TutorDashboard({
  student: chosen,
  onStudentChange,
}: {
  /** The user shown, when the page chooses it (the tutor's week opens a waiting learner). */
  student?: UserSummary | null;
  onStudentChange?: (student: UserSummary | null) => void;
} = {}) {
  const [own, setOwn] = useState<UserSummary | null>(null);
  const student = chosen === undefined ? own : chosen;
  const setStudent = onStudentChange ?? setOwn;
  return (
    <div className="grid gap-8">
      <SpeakingQueue />
      <UserPicker value={student} onChange={setStudent} className="max-w-xl" />
      {student ? (
        <div key={student.id} className="grid gap-12">
          <StudentProgress student={student} />
          <LearnerStruggles learner={student} headingLevel={2} />
          <LearnerFeedback learner={student} headingLevel={2} />
        </div>
      ) : (
        <section
          aria-labelledby="no-user-selected"
          className="grid justify-items-center gap-2 rounded-lg border border-dashed px-6 py-12 text-center"
        >
          <UserRound aria-hidden className="size-10 text-muted-foreground" />
          <h2 id="no-user-selected" className="text-xl font-semibold">
            No User Selected
          </h2>
          <p className="text-muted-foreground">Please select a user from the dropdown to view their progress.</p>
        </section>
      )}
    </div>
  );
}

function StudentProgress({ student }: { student: UserSummary }) {
  const progress = useUserProgress(student.id);
  const name = userName(student);
  return (
    <section aria-labelledby="student-progress" aria-busy={progress.isFetching} className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="student-progress" className="min-w-0 break-words text-2xl font-semibold">
          Progress of {name}
        </h2>
        <ResetProgressDialog user={student} />
      </div>
      {progress.isError && !progress.isFetching ? (
        <LoadFailed what={`The progress of ${name}`} onRetry={() => void progress.refetch()} />
      ) : progress.data && !progress.isError ? (
        <ProgressGrid userId={student.id} progress={progress.data} />
      ) : (
        <p role="status" className="text-muted-foreground">
          Loading progress…
        </p>
      )}
    </section>
  );
}
