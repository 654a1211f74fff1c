/**
 * Preloaded (`node --require`) into the CLI and floor runs: writes the process's peak resident memory (KB) to the
 * file named by BFL_BENCH_MAXRSS when the process exits, however it exits.
 */
import { writeFileSync } from "node:fs";

const target = process.env.BFL_BENCH_MAXRSS;
if (target) process.on("exit", () => writeFileSync(target, String(process.resourceUsage().maxRSS)));
