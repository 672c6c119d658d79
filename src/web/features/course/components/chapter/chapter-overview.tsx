import { Page } from "#web/components/page";
import { SignUpPrompt } from "#web/components/sign-up-prompt";
import { paths } from "#web/config/paths";
import { useLearner } from "#web/features/course/api/progress";
import { Breadcrumbs } from "#web/features/course/components/breadcrumbs";
import type { ChapterSummary } from "#web/lib/course-outline";
import { BadgesPanel } from "./badges-panel";
import { DayTable } from "./day-table";

/** Title of a chapter's page: "Chapter 1: The First Steps". */
export function chapterPageTitle(chapter: ChapterSummary) {
  return `Chapter ${chapter.number}: ${chapter.title}`;
}

/**
 * A chapter's page (/chapter-1): its badges and its days. Visitors are asked to sign up. Until the
 * session is read the page shows what a visitor sees, as the build prerendered it.
 */
export function ChapterOverview({ chapter }: { chapter: ChapterSummary }) {
  const learner = useLearner({ asVisitorWhilePending: true });
  return (
    <Page title={chapterPageTitle(chapter)} intro={chapter.description} busy={learner.provisional}>
      <Breadcrumbs items={[{ label: "My Journey", to: paths.progress }, { label: `Chapter ${chapter.number}` }]} />
      <div className="space-y-8">
        {!learner.signedIn && <SignUpPrompt />}
        <BadgesPanel chapter={chapter} progress={learner.progress} completedDays={learner.completedDays} />
        <section aria-labelledby="days-heading" className="space-y-3">
          <h2 id="days-heading" className="text-2xl font-semibold tracking-tight">
            Days
          </h2>
          <DayTable
            chapter={chapter}
            progress={learner.progress}
            completedDays={learner.completedDays}
            viewer={learner}
          />
        </section>
      </div>
    </Page>
  );
}
