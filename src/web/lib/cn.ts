import { type ClassValue, clsx } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names; later Tailwind utilities win over earlier ones, so callers can override variants. */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}
