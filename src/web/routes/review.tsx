import { Page } from "#web/components/page";
import { ReviewPage, reviewMeta } from "#web/features/review/components/review-page";

export function Component() {
  return (
    <Page title={reviewMeta.title} intro={reviewMeta.description}>
      <ReviewPage />
    </Page>
  );
}
