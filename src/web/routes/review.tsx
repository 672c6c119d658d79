import { Page } from "../components/page";
import { ReviewPage, reviewMeta } from "../features/review/components/review-page";

export function Component() {
  return (
    <Page title={reviewMeta.title} intro={reviewMeta.description}>
      <ReviewPage />
    </Page>
  );
}
