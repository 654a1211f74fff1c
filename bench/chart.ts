/** A small SVG chart of editing latency against file size (both axes logarithmic), written next to RESULTS.md. */
import type { EditingResult } from "./editing";

const W = 720;
const H = 360;
const M = { left: 72, right: 190, top: 20, bottom: 44 };

interface Series {
  name: string;
  color: string;
  marker: "circle" | "square" | "diamond";
  points: { x: number; y: number }[];
}

function decades(min: number, max: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) out.push(10 ** e);
  return out;
}

function marker(kind: Series["marker"], x: number, y: number, color: string): string {
  if (kind === "circle") return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="4" fill="${color}"/>`;
  if (kind === "square")
    return `<rect x="${(x - 3.5).toFixed(1)}" y="${(y - 3.5).toFixed(1)}" width="7" height="7" fill="${color}"/>`;
  return `<path d="M${x.toFixed(1)} ${(y - 5).toFixed(1)}l5 5-5 5-5-5z" fill="${color}"/>`;
}

function label(ms: number): string {
  return ms >= 1 ? `${ms} ms` : `${ms * 1000} µs`;
}

export function latencyChart(results: EditingResult[]): string {
  const kb = (r: EditingResult) => r.bytes / 1024;
  const series: Series[] = [
    {
      name: "this server, p50",
      color: "#1f77b4",
      marker: "circle",
      points: results.map((r) => ({ x: kb(r), y: r.ours.p50 })),
    },
    {
      name: "this server, p95",
      color: "#9ecae1",
      marker: "circle",
      points: results.map((r) => ({ x: kb(r), y: r.ours.p95 })),
    },
    {
      name: "floor parser, p50",
      color: "#2ca02c",
      marker: "square",
      points: results.map((r) => ({ x: kb(r), y: r.floor.p50 })),
    },
    {
      name: "yaml-language-server, p50",
      color: "#d62728",
      marker: "diamond",
      points: results.filter((r) => r.peer).map((r) => ({ x: kb(r), y: r.peer?.p50 ?? 0 })),
    },
  ];
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => Math.max(p.y, 0.01)));
  const xTicks = decades(Math.min(...xs), Math.max(...xs));
  const yTicks = decades(Math.min(...ys), Math.max(...ys));
  const [x0, x1] = [Math.log10(xTicks[0]), Math.log10(xTicks[xTicks.length - 1])];
  const [y0, y1] = [Math.log10(yTicks[0]), Math.log10(yTicks[yTicks.length - 1])];
  const px = (x: number) => M.left + ((Math.log10(x) - x0) / (x1 - x0)) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - ((Math.log10(Math.max(y, 0.01)) - y0) / (y1 - y0)) * (H - M.top - M.bottom);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
  ];
  for (const t of xTicks) {
    out.push(
      `<line x1="${px(t).toFixed(1)}" y1="${M.top}" x2="${px(t).toFixed(1)}" y2="${H - M.bottom}" stroke="#ddd"/>`,
    );
    out.push(
      `<text x="${px(t).toFixed(1)}" y="${H - M.bottom + 16}" text-anchor="middle">${t >= 1 ? t : t.toFixed(1)} KB</text>`,
    );
  }
  for (const t of yTicks) {
    out.push(
      `<line x1="${M.left}" y1="${py(t).toFixed(1)}" x2="${W - M.right}" y2="${py(t).toFixed(1)}" stroke="#ddd"/>`,
    );
    out.push(`<text x="${M.left - 6}" y="${(py(t) + 4).toFixed(1)}" text-anchor="end">${label(t)}</text>`);
  }
  out.push(`<text x="${(M.left + W - M.right) / 2}" y="${H - 8}" text-anchor="middle">file size (log scale)</text>`);
  out.push(
    `<text x="14" y="${(M.top + H - M.bottom) / 2}" text-anchor="middle" transform="rotate(-90 14 ${(M.top + H - M.bottom) / 2})">didChange → diagnostics (log scale)</text>`,
  );
  series.forEach((s, i) => {
    for (const p of s.points) out.push(marker(s.marker, px(p.x), py(p.y), s.color));
    const ly = M.top + 10 + i * 18;
    out.push(marker(s.marker, W - M.right + 16, ly, s.color));
    out.push(`<text x="${W - M.right + 26}" y="${ly + 4}">${s.name}</text>`);
  });
  out.push("</svg>", "");
  return out.join("\n");
}
