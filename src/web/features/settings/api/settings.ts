import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import type { Settings } from "#server/modules/settings/settings.contract";
import { ApiError, apiClient, call, callForResponse } from "#web/lib/api";
import { accountSessionsQueryKey, settingsQueryKey } from "#web/lib/query-keys";
import { saveFile } from "#web/lib/save-file";

export type { Settings };

/** What a change may set: any of the settings but two-factor, which Better Auth turns on and off. */
export type SettingsChanges = InferRequestType<typeof apiClient.settings.$patch>["json"];

export const settingsQuery = queryOptions({
  queryKey: settingsQueryKey,
  queryFn: async () => (await call(apiClient.settings.$get())).settings,
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
    mutationFn: async (changes: SettingsChanges) => (await call(apiClient.settings.$patch({ json: changes }))).settings,
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

/** One of the account's sessions that have not expired, as the device list shows it. */
export type AccountSession = InferResponseType<typeof apiClient.account.sessions.$get, 200>["sessions"][number];

export function useAccountSessions() {
  return useQuery({
    queryKey: accountSessionsQueryKey,
    queryFn: async () => (await call(apiClient.account.sessions.$get())).sessions,
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(apiClient.account.sessions["revoke-others"].$post()),
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
    mutationFn: (password: string) => call(apiClient.account["confirm-password"].$post({ json: { password } })),
    // Whichever read asked for it, the device list is readable now too. Not awaited: the caller's
    // own retry need not wait for the list.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountSessionsQueryKey });
    },
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (password: string) => call(apiClient.account.$delete({ json: { password } })),
  });
}

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

/** The export is a file to save, not an answer to read: it is read as bytes with the server's file name. */
async function fetchExport(): Promise<{ blob: Blob; filename: string }> {
  const response = await callForResponse(apiClient.account.export.$get());
  const filename =
    filenameFromContentDisposition(response.headers.get("content-disposition")) ?? EXPORT_FALLBACK_FILENAME;
  return { blob: await response.blob(), filename };
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
