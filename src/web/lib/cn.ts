import appConfig from "virtual:jalan-tailwind-merge-config";
import { type ClassValue, clsx } from "clsx";
import { createTailwindMerge } from "tailwind-merge";

// tailwind-merge's configuration kept to the class groups the app uses (lib/class-groups.ts).
const merge = createTailwindMerge(appConfig);

/** Joins class names; later Tailwind utilities win over earlier ones, so callers can override variants. */
export function cn(...inputs: ClassValue[]) {
  return merge(clsx(inputs));
}
