import { useQueryClient } from "@tanstack/react-query";
import { useId, useMemo } from "react";
import {
  DAILY_GOAL_CHOICES,
  DAILY_GOAL_UNITS,
  type DailyGoalUnit,
  DEFAULT_DAILY_GOAL,
  NEW_CARDS_PER_DAY_CHOICES,
} from "#course/review-rules";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { Label } from "#web/components/ui/label";
import { RadioGroup, RadioGroupItem } from "#web/components/ui/radio-group";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#web/components/ui/select";
import { type SettingsChanges, useSettings, useUpdateSettings } from "#web/features/settings/api/settings";
import { describeError } from "#web/lib/api";
import { reviewSummaryQueryKey } from "#web/lib/query-keys";
import { deviceTimeZone } from "#web/lib/time-zone";
import { toast } from "#web/lib/toast";

const UNIT_LABELS: Record<DailyGoalUnit, string> = { reviews: "Reviews", minutes: "Minutes" };

const isUnit = (value: string): value is DailyGoalUnit => (DAILY_GOAL_UNITS as readonly string[]).includes(value);

const goalLabel = (amount: number, unit: DailyGoalUnit) => `${amount} ${amount === 1 ? unit.slice(0, -1) : unit}`;

/** The goals offered in a unit, with the account's own when it is not one of them (set before, or elsewhere). */
function goalChoices(unit: DailyGoalUnit, current: number | undefined): number[] {
  const choices = [...DAILY_GOAL_CHOICES[unit]];
  if (current !== undefined && !choices.includes(current)) choices.push(current);
  return choices.sort((a, b) => a - b);
}

/** The new cards a day offered, with the account's own when it is not one of them (set through the API). */
function newCardChoices(current: number | undefined): number[] {
  const choices = [...NEW_CARDS_PER_DAY_CHOICES];
  if (current !== undefined && !choices.includes(current)) choices.push(current);
  return choices.sort((a, b) => a - b);
}

const newCardsLabel = (amount: number) => (amount === 1 ? "1 new card" : `${amount} new cards`);

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const hourFormat = new Intl.DateTimeFormat("en-GB", {
  hour: "numeric",
  minute: "2-digit",
  hourCycle: "h12",
  timeZone: "UTC",
});
/** An hour of the day as a clock reads it: 19 is "7:00 pm". */
const hourLabel = (hour: number) => hourFormat.format(Date.UTC(2000, 0, 1, hour));

/** "Asia/Kuala_Lumpur" as people write it: "Asia/Kuala Lumpur". */
const zoneLabel = (timeZone: string) => timeZone.replaceAll("_", " ");

/**
 * Every time zone this browser knows, with the account's and the device's among them (a runtime may
 * list neither "UTC" nor an older name). A browser that cannot list them offers those two.
 */
function timeZoneChoices(current: string | undefined, device: string | undefined): string[] {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const zones = new Set(known);
  for (const zone of [current, device]) if (zone) zones.add(zone);
  return [...zones].sort();
}

/**
 * The daily review goal (reviews or minutes, and how many), the new cards a day, the account's time zone (where its day
 * is counted when the device does not say, and where the reminder's hour is), and that hour. Each
 * choice is saved as it is made and shown at once; a refused one goes back with a toast.
 */
export function DailyReviewSettings() {
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useSettings();
  const update = useUpdateSettings();
  const data = settings.data;
  const device = deviceTimeZone();
  // Some 400 zones: drawn once per account zone, not again with every change the page makes.
  const zoneItems = useMemo(
    () =>
      timeZoneChoices(data?.timeZone, device).map((zone) => (
        <SelectItem key={zone} value={zone}>
          {zoneLabel(zone)}
        </SelectItem>
      )),
    [data?.timeZone, device],
  );

  function save(changes: SettingsChanges) {
    update.mutate(changes, {
      onSuccess: () => {
        // The summary's goal, goal met and streak are counted with the goal and the zone.
        if (changes.reminderHour === undefined) void queryClient.invalidateQueries({ queryKey: reviewSummaryQueryKey });
      },
      onError: (error) =>
        toast({
          title: "Update Failed",
          description: describeError(error, "Could not save your daily review settings."),
          variant: "destructive",
        }),
    });
  }

  function chooseUnit(value: string) {
    if (!isUnit(value) || value === data?.dailyGoalUnit) return;
    // A new unit starts from its own default goal, as the server would give it.
    save({ dailyGoalUnit: value, dailyGoal: DEFAULT_DAILY_GOAL[value] });
  }

  const unit = data?.dailyGoalUnit ?? "reviews";

  return (
    <Card id="daily-review" className="scroll-mt-20">
      <CardHeader>
        <CardTitle>Daily review</CardTitle>
        <CardDescription>A goal for each day's review, and a reminder when cards are waiting.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="grid gap-3">
          <p id={`${id}-unit`} className="text-sm font-medium">
            Count my daily goal in
          </p>
          <RadioGroup
            value={data?.dailyGoalUnit ?? ""}
            onValueChange={chooseUnit}
            aria-labelledby={`${id}-unit`}
            disabled={!data}
            className="sm:grid-cols-2"
          >
            {DAILY_GOAL_UNITS.map((value) => (
              <div
                key={value}
                className="flex items-center gap-3 rounded-md border px-4 py-3 has-data-[state=checked]:border-primary"
              >
                <RadioGroupItem value={value} id={`${id}-unit-${value}`} />
                <Label htmlFor={`${id}-unit-${value}`} className="flex-1 cursor-pointer py-1">
                  {UNIT_LABELS[value]}
                </Label>
              </div>
            ))}
          </RadioGroup>
        </div>

        <div className="grid gap-2 sm:max-w-xs">
          <Label htmlFor={`${id}-goal`}>Daily goal</Label>
          <Select
            value={data ? String(data.dailyGoal) : ""}
            onValueChange={(value) => {
              const amount = Number(value);
              if (amount !== data?.dailyGoal) save({ dailyGoal: amount });
            }}
            disabled={!data}
          >
            <SelectTrigger id={`${id}-goal`} aria-describedby={`${id}-goal-hint`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {goalChoices(unit, data?.dailyGoal).map((amount) => (
                <SelectItem key={amount} value={String(amount)}>
                  {goalLabel(amount, unit)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <p id={`${id}-goal-hint`} className="text-sm text-muted-foreground">
            A new goal counts from today. The days before keep the goal they had, and your streak with them.
          </p>
        </div>

        <div className="grid gap-2 sm:max-w-xs">
          <Label htmlFor={`${id}-new-cards`}>New cards a day</Label>
          <Select
            value={data ? String(data.newCardsPerDay) : ""}
            onValueChange={(value) => {
              const newCardsPerDay = Number(value);
              if (newCardsPerDay !== data?.newCardsPerDay) save({ newCardsPerDay });
            }}
            disabled={!data}
          >
            <SelectTrigger id={`${id}-new-cards`} aria-describedby={`${id}-new-cards-hint`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {newCardChoices(data?.newCardsPerDay).map((amount) => (
                <SelectItem key={amount} value={String(amount)}>
                  {newCardsLabel(amount)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <p id={`${id}-new-cards-hint`} className="text-sm text-muted-foreground">
            Cards of phrases you have met join your review at most this many a day, oldest first. Cards you have started
            always come back when due.
          </p>
        </div>

        <div className="grid gap-2">
          <Label htmlFor={`${id}-zone`}>Time zone</Label>
          <div className="flex flex-wrap items-center gap-3">
            <Select
              value={data?.timeZone ?? ""}
              onValueChange={(timeZone) => {
                if (timeZone !== data?.timeZone) save({ timeZone });
              }}
              disabled={!data}
            >
              <SelectTrigger id={`${id}-zone`} aria-describedby={`${id}-zone-hint`} className="sm:max-w-xs">
                <SelectValue />
              </SelectTrigger>
              <SelectContent className="max-h-80">{zoneItems}</SelectContent>
            </Select>
            {data && device && device !== data.timeZone && (
              <Button variant="outline" onClick={() => save({ timeZone: device })}>
                Use this device's time zone ({zoneLabel(device)})
              </Button>
            )}
          </div>
          <p id={`${id}-zone-hint`} className="text-sm text-muted-foreground">
            Your reminder comes at its hour in this time zone.
          </p>
        </div>

        <div className="grid gap-2">
          <Label htmlFor={`${id}-hour`}>Reminder time</Label>
          <Select
            value={data ? String(data.reminderHour) : ""}
            onValueChange={(value) => {
              const reminderHour = Number(value);
              if (reminderHour !== data?.reminderHour) save({ reminderHour });
            }}
            disabled={!data}
          >
            <SelectTrigger
              id={`${id}-hour`}
              aria-describedby={`${id}-hour-hint${data?.emailNotifications === false ? ` ${id}-hour-off` : ""}`}
              className="sm:max-w-xs"
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent className="max-h-80">
              {HOURS.map((hour) => (
                <SelectItem key={hour} value={String(hour)}>
                  {hourLabel(hour)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <p id={`${id}-hour-hint`} className="text-sm text-muted-foreground">
            We email you a reminder once a day at this time when you have reviews due and have not reviewed yet that
            day. It is sent only while Email notifications are on.
          </p>
          {data?.emailNotifications === false && (
            <p id={`${id}-hour-off`} className="text-sm font-medium">
              Email notifications are off, so no reminder is sent.
            </p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
