import { useEffect, useSyncExternalStore } from "react";
import { describeError } from "./api";

export type ToastVariant = "default" | "destructive";

export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  /** False once dismissed; the toast stays in the store so its exit animation can play. */
  open: boolean;
}

/** The spec shows one toast at a time: a new toast replaces the one on screen. */
let current: ToastMessage | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function toast({
  title,
  description,
  variant = "default",
}: {
  title: string;
  description?: string;
  variant?: ToastVariant;
}) {
  current = { id: nextId++, title, description, variant, open: true };
  emit();
}

/** One toast per failed read, with the server's words when it gave some (the spec's error toasts). */
export function useErrorToast(error: Error | null, title: string, fallback: string) {
  useEffect(() => {
    if (error) toast({ title, description: describeError(error, fallback), variant: "destructive" });
  }, [error, title, fallback]);
}

export function dismissToast(id: number) {
  if (current?.id !== id || !current.open) return;
  current = { ...current, open: false };
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useCurrentToast(): ToastMessage | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}

/** Forgets the toast on screen, if any: each page test starts with none (tests/setup-web.ts). */
export function clearToasts() {
  current = null;
  emit();
}
