// Tiny rasteriser for the media generator: the colour palette, the Canvas class and cubic Bézier points.

const hex = (h) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16));
export const C = {
  dark: "#0b3b38",
  deeper: "#072a28",
  teal: "#0f766e",
  tealLight: "#14b8a6",
  amber: "#f59e0b",
  white: "#ffffff",
  mint: "#cdeee8",
};

// ------------------------------------------------------------------------------- tiny rasteriser
// Flat shapes with 4x4 supersampled anti-aliasing into a float RGB buffer, written as raw rgb24 for ffmpeg.

export class Canvas {
  constructor(w, h, bg) {
    this.w = w;
    this.h = h;
    this.px = new Float32Array(w * h * 3);
    const [r, g, b] = hex(bg);
    for (let i = 0; i < w * h; i++) {
      this.px[i * 3] = r;
      this.px[i * 3 + 1] = g;
      this.px[i * 3 + 2] = b;
    }
  }

  // inside(x, y) in pixel space; bbox [x0, y0, x1, y1]
  fill(bbox, inside, color, alpha = 1) {
    const [r, g, b] = hex(color);
    const x0 = Math.max(0, Math.floor(bbox[0]));
    const y0 = Math.max(0, Math.floor(bbox[1]));
    const x1 = Math.min(this.w, Math.ceil(bbox[2]));
    const y1 = Math.min(this.h, Math.ceil(bbox[3]));
    const N = 4;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        let hits = 0;
        for (let sy = 0; sy < N; sy++) {
          for (let sx = 0; sx < N; sx++) if (inside(x + (sx + 0.5) / N, y + (sy + 0.5) / N)) hits++;
        }
        if (!hits) continue;
        const a = (alpha * hits) / (N * N);
        const i = (y * this.w + x) * 3;
        this.px[i] += (r - this.px[i]) * a;
        this.px[i + 1] += (g - this.px[i + 1]) * a;
        this.px[i + 2] += (b - this.px[i + 2]) * a;
      }
    }
  }

  rect(x, y, w, h, color, alpha = 1, radius = 0) {
    const rr = Math.min(radius, w / 2, h / 2);
    this.fill(
      [x, y, x + w, y + h],
      (px, py) => {
        if (px < x || px > x + w || py < y || py > y + h) return false;
        if (!rr) return true;
        const cx = Math.min(Math.max(px, x + rr), x + w - rr);
        const cy = Math.min(Math.max(py, y + rr), y + h - rr);
        return (px - cx) ** 2 + (py - cy) ** 2 <= rr * rr;
      },
      color,
      alpha,
    );
  }

  circle(cx, cy, r, color, alpha = 1) {
    this.fill([cx - r, cy - r, cx + r, cy + r], (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r, color, alpha);
  }

  polygon(pts, color, alpha = 1) {
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const inside = (x, y) => {
      let c = false;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const [xi, yi] = pts[i];
        const [xj, yj] = pts[j];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
      }
      return c;
    };
    this.fill([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], inside, color, alpha);
  }

  // round-capped stroke along a polyline
  stroke(pts, width, color, alpha = 1) {
    const hw = width / 2;
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const inside = (x, y) => {
      for (let i = 1; i < pts.length; i++) {
        const [ax, ay] = pts[i - 1];
        const [bx, by] = pts[i];
        const dx = bx - ax;
        const dy = by - ay;
        const len2 = dx * dx + dy * dy || 1;
        const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
        if ((x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= hw * hw) return true;
      }
      return false;
    };
    this.fill(
      [Math.min(...xs) - hw, Math.min(...ys) - hw, Math.max(...xs) + hw, Math.max(...ys) + hw],
      inside,
      color,
      alpha,
    );
  }

  toRgb24() {
    const out = Buffer.alloc(this.w * this.h * 3);
    for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(this.px[i])));
    return out;
  }
}

export const cubic = (p0, p1, p2, p3, steps = 24) =>
  Array.from({ length: steps + 1 }, (_, i) => {
    const t = i / steps;
    const u = 1 - t;
    return [0, 1].map((k) => u * u * u * p0[k] + 3 * u * u * t * p1[k] + 3 * u * t * t * p2[k] + t * t * t * p3[k]);
  });
