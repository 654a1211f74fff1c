/** Where the benchmark finds the built programs: out/bench/*.js sits two levels below the repository. */
import { join, resolve } from "node:path";

export const REPO = resolve(__dirname, "..", "..");

export function distFile(name: string): string {
  const dist = process.env.BFL_DIST_DIR ? resolve(REPO, process.env.BFL_DIST_DIR) : join(REPO, "dist");
  return join(dist, name);
}

/** A compiled file of the benchmark itself (next to this one). */
export function benchFile(name: string): string {
  return join(__dirname, name);
}
