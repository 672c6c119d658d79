import { Construction } from "lucide-react";
import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card";

/**
 * A notice for a part of the course that is not built yet: an icon, a short "under construction"
 * line, and whatever the page adds below it (usually a link on to what the learner can do next).
 */
export function UnderConstruction({ title, children }: { title?: string; children?: ReactNode }) {
  return (
    <Card role="note" aria-label={title ?? "Under construction"} className="border-dashed">
      <CardHeader className="flex-row items-start gap-4">
        <Construction aria-hidden className="size-8 shrink-0 text-primary" />
        <div className="space-y-1.5">
          {title && <CardTitle>{title}</CardTitle>}
          <p className="text-muted-foreground">This part of the course is under construction.</p>
        </div>
      </CardHeader>
      {children && <CardContent className="space-y-4">{children}</CardContent>}
    </Card>
  );
}
