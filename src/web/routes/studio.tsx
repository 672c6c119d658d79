import { Page } from "#web/components/page";
import { StudioPage } from "#web/features/studio/components/studio-page";

export function Component() {
  return (
    <Page
      title="Voice studio"
      intro="Record the course's lines in your own voice, trim each take, and review other voices' takes. A reviewed take replaces the synthetic voice everywhere learners hear the line."
    >
      <StudioPage />
    </Page>
  );
}
