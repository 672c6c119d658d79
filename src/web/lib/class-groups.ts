/**
 * The groups of Tailwind utilities the app's class names use, as tailwind-merge names them
 * (src/web/lib/cn.test.ts fails, naming the group, when a class of another group is used).
 * tailwind-merge builds a lookup of every group it knows on its first call, which lands in the
 * first render after a page has painted: about 100 ms on a mid-range phone for all 379 groups,
 * about half that for these. The build ships tailwind-merge's definitions of these groups only
 * (scripts/vite-tailwind-merge.ts), not its whole configuration: about 4 KB gzip less on every page.
 */
export const CLASS_GROUPS = `
  aspect display sr object-fit overflow overflow-x overflow-y position inset inset-x top right bottom
  left z basis flex-direction flex-wrap flex shrink grid-cols col-start-end gap gap-x gap-y justify-content
  justify-items justify-self align-content align-items align-self place-items p px py pt pr pb pl mx my mt mr mb ml space-y
  size w min-w max-w h min-h max-h font-size font-weight font-family tracking leading list-style-type
  text-alignment text-color text-decoration text-decoration-thickness text-decoration-color
  underline-offset text-overflow line-clamp vertical-align whitespace break bg-color gradient-from gradient-to
  rounded border-w border-w-t border-w-b border-w-l divide-y border-style border-color border-color-t
  border-color-b border-color-l divide-color outline-style outline-w outline-offset outline-color shadow shadow-color opacity
  backdrop-blur border-collapse transition duration animate backface perspective rotate-y
  transform-style translate-x translate-y cursor pointer-events select appearance fill ring-w ring-color accent
  scroll-mt fvn-spacing
`
  .trim()
  .split(/\s+/);
