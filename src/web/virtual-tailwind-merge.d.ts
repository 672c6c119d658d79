/** tailwind-merge's configuration kept to the app's class groups (scripts/vite-tailwind-merge.ts). */
declare module "virtual:jalan-tailwind-merge-config" {
  const config: () => import("tailwind-merge").Config<string, string>;
  export default config;
}
