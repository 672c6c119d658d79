// Open Graph image: generateOgImage renders public/images/og-image.png (1200x630).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findFont, IMAGES_DIR, ROOT, run } from "./media-tools.mjs";
import { renderCard } from "./slides.mjs";

export function generateOgImage() {
  const w = 1200;
  const h = 630;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "jalan-og-"));
  const fonts = { bold: findFont("bold"), regular: findFont("regular") };
  const png = path.join(tmp, "og.png");
  renderCard(
    {
      kicker: "Learn Malaysian Malay",
      title: "Jalan",
      titleSize: 124,
      subtitle: "Speak Malay, live the story.",
      subtitleSize: 46,
    },
    w,
    h,
    tmp,
    "og",
    png,
    fonts,
  );
  fs.mkdirSync(IMAGES_DIR, { recursive: true });
  const out = path.join(IMAGES_DIR, "og-image.png");
  run("ffmpeg", [
    ...["-y", "-v", "error", "-i", png, "-filter_complex"],
    "split[a][b];[a]palettegen=max_colors=96:stats_mode=single[p];[b][p]paletteuse=dither=none",
    ...["-frames:v", "1", "-pix_fmt", "pal8", out],
  ]);
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`  ${path.relative(ROOT, out)}  ${fs.statSync(out).size} bytes`);
}
