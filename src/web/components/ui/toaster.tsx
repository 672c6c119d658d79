import { dismissToast, useCurrentToast } from "#web/lib/toast";
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from "./toast";

/** Renders the toast from the toast store; mounted once, at the app's root. */
export function Toaster() {
  const current = useCurrentToast();
  return (
    <ToastProvider>
      {current && (
        <Toast
          key={current.id}
          variant={current.variant}
          open={current.open}
          // Errors interrupt a screen reader; confirmations wait their turn.
          type={current.variant === "destructive" ? "foreground" : "background"}
          onOpenChange={(open) => {
            if (!open) dismissToast(current.id);
          }}
        >
          <div className="grid gap-1">
            <ToastTitle>{current.title}</ToastTitle>
            {current.description && <ToastDescription>{current.description}</ToastDescription>}
          </div>
          <ToastClose />
        </Toast>
      )}
      <ToastViewport />
    </ToastProvider>
  );
}
