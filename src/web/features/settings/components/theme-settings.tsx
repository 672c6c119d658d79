import { Monitor, Moon, Sun } from "lucide-react";
import { useId } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { Label } from "#web/components/ui/label";
import { RadioGroup, RadioGroupItem } from "#web/components/ui/radio-group";
import { useUpdateSettings } from "#web/features/settings/api/settings";
import { describeError } from "#web/lib/api";
import { getTheme, isTheme, setTheme, type Theme, useTheme } from "#web/lib/theme";
import { toast } from "#web/lib/toast";

const OPTIONS: readonly { value: Theme; label: string; icon: typeof Sun }[] = [
  { value: "light", label: "Light", icon: Sun },
  { value: "dark", label: "Dark", icon: Moon },
  { value: "system", label: "System", icon: Monitor },
];

export function ThemeSettings() {
  const id = useId();
  const theme = useTheme();
  const update = useUpdateSettings();

  function choose(value: string) {
    if (!isTheme(value)) return;
    const previous = getTheme();
    setTheme(value);
    update.mutate(
      { theme: value },
      {
        onError: (error) => {
          // What the page shows stays what the account holds; a later choice is left alone.
          if (getTheme() === value) setTheme(previous);
          toast({
            title: "Update Failed",
            description: describeError(error, "Could not save your theme."),
            variant: "destructive",
          });
        },
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle id={`${id}-title`}>Theme</CardTitle>
        <CardDescription id={`${id}-description`}>
          Saved to your account, so your other devices use it too. System follows your device's setting.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <RadioGroup
          value={theme}
          onValueChange={choose}
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-description`}
          className="sm:grid-cols-3"
        >
          {OPTIONS.map(({ value, label, icon: Icon }) => (
            <div
              key={value}
              className="flex items-center gap-3 rounded-md border px-4 py-3 has-data-[state=checked]:border-primary"
            >
              <RadioGroupItem value={value} id={`${id}-${value}`} />
              <Label htmlFor={`${id}-${value}`} className="flex flex-1 cursor-pointer items-center gap-2 py-1">
                <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
                {label}
              </Label>
            </div>
          ))}
        </RadioGroup>
      </CardContent>
    </Card>
  );
}
