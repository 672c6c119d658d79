import { getDefaultConfig, validators } from "tailwind-merge";
import type { Plugin } from "vite";
import { CLASS_GROUPS } from "#web/lib/class-groups";

const CONFIG_ID = "virtual:jalan-tailwind-merge-config";
const RESOLVED_ID = `\0${CONFIG_ID}`;

/**
 * `virtual:jalan-tailwind-merge-config`: tailwind-merge's default configuration kept to the class
 * groups the app uses (src/web/lib/class-groups.ts), written out as code at build time. The default
 * configuration is one function holding every group tailwind-merge knows (about 4 KB gzip of every
 * page); this module holds the same definitions of the app's groups only, so `cn` merges as it
 * would with them (src/web/lib/cn.test.ts compares it with tailwind-merge's full configuration).
 */
export function tailwindMergeConfig(): Plugin {
  return {
    name: "jalan-tailwind-merge-config",
    resolveId: (id) => (id === CONFIG_ID ? RESOLVED_ID : undefined),
    load: (id) => (id === RESOLVED_ID ? configSource(CLASS_GROUPS) : undefined),
  };
}

type ThemeGetter = ((theme: unknown) => unknown) & { isThemeGetter: true; themeKey: string };
const isThemeGetter = (value: unknown): value is ThemeGetter =>
  typeof value === "function" && "isThemeGetter" in value && value.isThemeGetter === true;

/** The module's source: the kept groups, and the theme scales their definitions read. */
export function configSource(groups: readonly string[]): string {
  const config = getDefaultConfig();
  const validatorNames = new Map<unknown, string>(Object.entries(validators).map(([name, fn]) => [fn, name]));
  const themeKeys = new Set<string>();
  const code = (value: unknown): string => {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      return JSON.stringify(value);
    }
    if (Array.isArray(value)) return `[${value.map(code).join(",")}]`;
    if (isThemeGetter(value)) {
      themeKeys.add(value.themeKey);
      return `fromTheme(${JSON.stringify(value.themeKey)})`;
    }
    if (typeof value === "function") {
      const name = validatorNames.get(value);
      if (!name) throw new Error(`tailwind-merge's configuration holds a function that is no validator: ${value}`);
      return `validators.${name}`;
    }
    if (value && typeof value === "object") {
      return `{${Object.entries(value)
        .map(([key, entry]) => `${JSON.stringify(key)}:${code(entry)}`)
        .join(",")}}`;
    }
    throw new Error(`tailwind-merge's configuration holds a value that cannot be written out: ${String(value)}`);
  };
  const kept = new Set(groups);
  const only = (record: object) => Object.fromEntries(Object.entries(record).filter(([group]) => kept.has(group)));
  const pruned: Record<string, string> = {
    classGroups: code(only(config.classGroups)),
    conflictingClassGroups: code(only(config.conflictingClassGroups)),
    conflictingClassGroupModifiers: code(only(config.conflictingClassGroupModifiers)),
  };
  // The theme scales the kept groups read, and the scales those read in turn.
  const scales: Record<string, unknown> = config.theme;
  const theme: string[] = [];
  const written = new Set<string>();
  for (let next = [...themeKeys]; next.length > 0; next = [...themeKeys].filter((key) => !written.has(key))) {
    for (const key of next) {
      written.add(key);
      theme.push(`${JSON.stringify(key)}:${code(scales[key])}`);
    }
  }
  pruned.theme = `{${theme.join(",")}}`;
  const entries = Object.entries(config).map(
    ([key, value]) => `  ${JSON.stringify(key)}: ${pruned[key] ?? code(value)},`,
  );
  return ['import { fromTheme, validators } from "tailwind-merge";', "export default () => ({", ...entries, "});"].join(
    "\n",
  );
}
