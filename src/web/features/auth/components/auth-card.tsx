import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "#web/components/ui/card";
import { useDocumentTitle } from "#web/lib/use-document-title";

/** The frame every account page shares: a centred card whose title is the page's h1. */
export function AuthCard({
  title,
  pageTitle = title,
  description,
  footer,
  children,
}: {
  title: string;
  pageTitle?: string;
  description?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(pageTitle);
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1 className="text-2xl">{title}</h1>
          </CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent>{children}</CardContent>
        {footer && <CardFooter className="flex-col items-start gap-2 text-sm">{footer}</CardFooter>}
      </Card>
    </div>
  );
}
