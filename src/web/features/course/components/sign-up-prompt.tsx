import { Save } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card";
import { paths } from "../../../config/paths";

/** Shown to visitors on chapter pages (spec section 6): the course is open, saving progress needs an account. */
export function SignUpPrompt() {
  return (
    <Card className="border-primary/40 bg-secondary/40">
      <CardHeader className="flex-row items-start gap-4">
        <Save aria-hidden className="size-7 shrink-0 text-primary" />
        <div className="space-y-1.5">
          <CardTitle>Save your progress</CardTitle>
          <CardDescription className="text-base text-foreground">
            Sign up to save your progress, unlock the next days and earn badges as you go.
          </CardDescription>
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
