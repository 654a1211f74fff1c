/** The product version, read from the package.json next to the bundle (dist/cli.js → package.json). */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export function productVersion(): string {
  for (let dir = __dirname, i = 0; i < 6; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "beam-flink-lint" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // Not in this folder; look further up.
    }
  }
  return "0.0.0";
}
