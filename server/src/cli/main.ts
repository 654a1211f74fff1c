/** Entry point of dist/cli.js (`beam-flink-lint`). */
import { prepareParsers } from "../node/parsers";
import { runCli } from "./run";

// `beam-flink-lint | head` closes the pipe early; that ends the run quietly instead of with a stack trace.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
  process.exit(process.exitCode ?? 0);
});

const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "";
// The Scala, Kotlin and Python parsers start asynchronously (about 20 ms); everything after that is synchronous.
prepareParsers().then(() => {
  process.exitCode = runCli(process.argv.slice(2), {
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    color: process.stdout.isTTY === true && !noColor,
  });
});
