import { type LucideIcon, Save } from "lucide-react";
import { Link } from "react-router";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { paths } from "#web/config/paths";

/**
 * Shown to visitors on chapter pages (spec section 6): the course is open, saving progress needs an
 * account. Other pages that need an account (the review) say why in their own words.
 */
export function SignUpPrompt({
  icon: Icon = Save,
  title = "Save your progress",
  description = "Sign up to save your progress, unlock the next days and earn badges as you go.",
}: {
  icon?: LucideIcon;
  title?: string;
  description?: string;
}) {
  return (
    <Card className="border-primary/40 bg-secondary/40">
      <CardHeader className="flex-row items-start gap-4">
        <Icon aria-hidden className="size-7 shrink-0 text-primary" />
        <div className="space-y-1.5">
          <CardTitle>{title}</CardTitle>
          <CardDescription className="text-base text-foreground">{description}</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        <Button asChild>
          <Link to={paths.signup}>Sign up</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.login}>Sign in</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
