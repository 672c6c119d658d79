import {
  type ComponentProps,
  createContext,
  type Dispatch,
  type SetStateAction,
  useContext,
  useLayoutEffect,
  useState,
} from "react";
import { cn } from "#web/lib/cn";

type ImageStatus = "idle" | "loading" | "loaded" | "error";

const AvatarContext = createContext<[ImageStatus, Dispatch<SetStateAction<ImageStatus>>] | null>(null);

function useAvatar(part: string) {
  const context = useContext(AvatarContext);
  if (!context) throw new Error(`${part} must be inside an Avatar`);
  return context;
}

/**
 * A user's picture, or their initials until it has loaded (and if it cannot): the image is shown only
 * once the browser has it, so a slow or broken one never shows as a broken image. As Radix's Avatar
 * does, without its shared code on every signed-in page.
 */
export function Avatar({ className, ...props }: ComponentProps<"span">) {
  const status = useState<ImageStatus>("idle");
  return (
    <AvatarContext.Provider value={status}>
      <span className={cn("relative flex size-10 shrink-0 overflow-hidden rounded-full", className)} {...props} />
    </AvatarContext.Provider>
  );
}

export function AvatarImage({ className, src, referrerPolicy, crossOrigin, ...props }: ComponentProps<"img">) {
  const [status, setStatus] = useAvatar("AvatarImage");
  useLayoutEffect(() => {
    if (!src) {
      setStatus("error");
      return;
    }
    const image = new window.Image();
    const settled = () => setStatus(statusOf(image));
    const failed = () => setStatus("error");
    image.addEventListener("load", settled);
    image.addEventListener("error", failed);
    if (referrerPolicy) image.referrerPolicy = referrerPolicy;
    image.crossOrigin = crossOrigin ?? null;
    image.src = src;
    // A picture the browser already has shows at once.
    setStatus(statusOf(image));
    return () => {
      image.removeEventListener("load", settled);
      image.removeEventListener("error", failed);
      setStatus("idle");
    };
  }, [src, referrerPolicy, crossOrigin, setStatus]);
  if (status !== "loaded") return null;
  return (
    // biome-ignore lint/a11y/useAltText: the caller gives alt (UserAvatar does, empty when the name is beside it).
    <img
      className={cn("aspect-square size-full object-cover", className)}
      src={src}
      referrerPolicy={referrerPolicy}
      crossOrigin={crossOrigin}
      {...props}
    />
  );
}

const statusOf = (image: HTMLImageElement): ImageStatus =>
  image.complete ? (image.naturalWidth > 0 ? "loaded" : "error") : "loading";

export function AvatarFallback({ className, ...props }: ComponentProps<"span">) {
  const [status] = useAvatar("AvatarFallback");
  if (status === "loaded") return null;
  return (
    <span
      className={cn(
        "flex size-full items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground",
        className,
      )}
      {...props}
    />
  );
}
