import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { useDeviceOutbox } from "./lib/offline/use-device-outbox";
import { useCurrentToast } from "./lib/toast";

// Radix Toast (about 8 KB gzip) loads with the first toast, not with the first page.
const Toaster = lazy(() => import("./components/ui/toaster").then((module) => ({ default: module.Toaster })));

/** Mounts the toaster once the first toast is raised, and keeps it mounted so later toasts animate. */
function DeferredToaster() {
  const current = useCurrentToast();
  const [needed, setNeeded] = useState(false);
  if (current && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

/** Sends the learner's writes kept on this device (decision 088). */
function DeviceOutbox() {
  useDeviceOutbox();
  return null;
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <DeviceOutbox />
      <DeferredToaster />
    </QueryClientProvider>
  );
}
