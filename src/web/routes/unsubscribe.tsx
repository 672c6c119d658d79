import { useSearchParams } from "react-router";
import { Page } from "#web/components/page";
import { UnsubscribeConfirm } from "#web/features/review/components/unsubscribe-confirm";

export function Component() {
  const [searchParams] = useSearchParams();
  return (
    <Page title="Stop review reminders" heading="Stop review reminder emails?">
      <UnsubscribeConfirm token={searchParams.get("token") ?? ""} />
    </Page>
  );
}
