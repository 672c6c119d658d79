/** What went wrong with a field, announced as it appears; pass it as the field's hint. */
export function ProblemText({ children }: { children: string | null }) {
  if (!children) return null;
  return (
    <span role="alert" className="font-medium text-destructive">
      {children}
    </span>
  );
}

/** Stable, so React calls it when the element appears rather than on every render. */
export const focusOnMount = (element: HTMLElement | null) => element?.focus();
