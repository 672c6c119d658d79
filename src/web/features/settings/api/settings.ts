import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { DailyGoalUnit } from "#course/review-rules";
import { ApiError, api } from "#web/lib/api";
import { sessionQuery } from "#web/lib/session";
import { getTheme, setTheme, type Theme } from "#web/lib/theme";

/** The account's settings (GET/PATCH /api/settings). */
export interface Settings {
  theme: Theme;
  emailNotifications: boolean;
  twoFactorEnabled: boolean;
  /** The daily review goal: `dailyGoal` reviews, or minutes. */
  dailyGoalUnit: DailyGoalUnit;
  dailyGoal: number;
  /** Where the account's days begin and end, and its reminder hour is counted (an IANA name). */
  timeZone: string;
  /** The local hour (0-23) of the daily review reminder email. */
  reminderHour: number;
}

export type SettingsChanges = Partial<Omit<Settings, "twoFactorEnabled">>;

interface SettingsResponse {
  settings: Settings;
}

export const settingsQueryKey = ["settings"] as const;

export const settingsQuery = queryOptions({
  queryKey: settingsQueryKey,
  queryFn: async () => (await api<SettingsResponse>("/api/settings")).settings,
  staleTime: 60_000,
});

export function useSettings() {
  return useQuery(settingsQuery);
}

/**
 * Saves a change and shows it at once: the cached settings change before the server answers and go
 * back to what they were if it refuses (the caller tells the user).
 */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: SettingsChanges) =>
      (await api<SettingsResponse>("/api/settings", { method: "PATCH", body: changes })).settings,
    onMutate: async (changes) => {
      // A read still on its way must not overwrite the change with the old value.
      await queryClient.cancelQueries({ queryKey: settingsQueryKey });
      const previous = queryClient.getQueryData<Settings>(settingsQueryKey);
      if (previous) queryClient.setQueryData<Settings>(settingsQueryKey, { ...previous, ...changes });
      return { previous };
    },
    onError: (_error, _changes, context) => {
      if (context?.previous) queryClient.setQueryData(settingsQueryKey, context.previous);
    },
    onSuccess: (settings) => queryClient.setQueryData(settingsQueryKey, settings),
  });
}

/**
 * The account's theme wins over the device's: once per app load and signed-in user, a theme chosen on
 * another device is applied here and stored on this device, so public/theme-init.js paints it
 * before the app starts from then on. Mounted once, in the root layout.
 */
export function useAdoptAccountTheme() {
  const userId = useQuery(sessionQuery).data?.user.id;
  const { data: settings } = useQuery({ ...settingsQuery, enabled: userId !== undefined });
  const adoptedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!userId || !settings || adoptedFor.current === userId) return;
    adoptedFor.current = userId;
    if (settings.theme !== getTheme()) setTheme(settings.theme);
  }, [userId, settings]);
}

/** What GET /api/account/sessions lists: the account's sessions that have not expired. */
export interface AccountSession {
  id: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  /** The session of the browser asking. */
  current: boolean;
}

export const accountSessionsQueryKey = ["account", "sessions"] as const;

export function useAccountSessions() {
  return useQuery({
    queryKey: accountSessionsQueryKey,
    queryFn: async () => (await api<{ sessions: AccountSession[] }>("/api/account/sessions")).sessions,
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ revoked: number }>("/api/account/sessions/revoke-others", { method: "POST" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountSessionsQueryKey }),
  });
}

/**
 * The server's answer to reading the export or the device list on a session that signed in too long
 * ago: the password must be entered again (useConfirmPassword), then the read repeated.
 */
export function needsPassword(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.code === "PASSWORD_REQUIRED";
}

export function useConfirmPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      api<{ confirmed: true }>("/api/account/confirm-password", { method: "POST", body: { password } }),
    // Whichever read asked for it, the device list is readable now too. Not awaited: the caller's
    // own retry need not wait for the list.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountSessionsQueryKey });
    },
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (password: string) => api<{ deleted: true }>("/api/account", { method: "DELETE", body: { password } }),
  });
}

const EXPORT_PATH = "/api/account/export";
const EXPORT_FALLBACK_FILENAME = "jalan-my-data.json";

/** The file name a Content-Disposition header gives (RFC 6266: filename* wins over filename). */
export function filenameFromContentDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed encoding: fall through to the plain name.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/.exec(header);
  return plain?.[1] ?? plain?.[2] ?? null;
}

/**
 * The export is a file to save, not an answer to read: it is fetched as bytes with the server's
 * file name. Errors still carry the server's message as ApiError, as api() does.
 */
async function fetchExport(): Promise<{ blob: Blob; filename: string }> {
  let response: Response;
  try {
    response = await fetch(EXPORT_PATH, { credentials: "same-origin", headers: { accept: "application/json" } });
  } catch {
    throw new ApiError(0, "NETWORK", "We could not reach the server. Check your connection and try again.");
  }
  if (!response.ok) {
    const payload = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    throw new ApiError(response.status, payload?.error?.code ?? "ERROR", payload?.error?.message ?? "");
  }
  const filename =
    filenameFromContentDisposition(response.headers.get("content-disposition")) ?? EXPORT_FALLBACK_FILENAME;
  return { blob: await response.blob(), filename };
}

/** Saves a file the way a download link would, without leaving the page. */
function saveFile({ blob, filename }: { blob: Blob; filename: string }) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the URL is released once the browser has read it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function useExportData() {
  return useMutation({
    mutationFn: async () => {
      const file = await fetchExport();
      saveFile(file);
      return file.filename;
    },
  });
}
