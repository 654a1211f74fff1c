/**
 * Dockerfiles: the Flink version of `FROM flink:1.19.1-scala_2.12-java17` (also `apache/flink`, `--platform=…`
 * flags, and tags built from an `ARG` with a default). Where the version comes from an ARG, the evidence points at
 * the ARG's default, which is where the version is defined.
 */
import { emptyFacts, type FileFacts } from "../model";
import { LineIndex, type Range } from "../text";
import { flinkImageVersion } from "./images";

interface ArgDefault {
  value: string;
  line: number;
  character: number;
}

export function readDockerfile(file: string, text: string): FileFacts {
  const facts = emptyFacts(file, "dockerfile", text);
  const index = new LineIndex(text);
  const args = new Map<string, ArgDefault>();
  for (let line = 0; line < index.lineCount; line++) {
    const lineText = index.lineText(line);
    const arg = /^\s*ARG\s+([A-Za-z_][A-Za-z0-9_]*)=("?)([^"\s]*)\2/i.exec(lineText);
    if (arg) {
      const valueStart = lineText.indexOf("=", arg.index) + 1 + arg[2].length;
      args.set(arg[1], { value: arg[3], line, character: valueStart });
      continue;
    }
    const from = /^(\s*FROM\s+(?:--\S+\s+)*)(\S+)/i.exec(lineText);
    if (!from) continue;
    const found = fromImage(from[2], args);
    if (!found) continue;
    const { version, resolved, used } = found;
    const text = resolved.slice(version.offset, version.offset + version.length);
    let range: Range;
    if (resolved === from[2]) range = at(line, from[1].length + version.offset, version.length);
    else if (used?.value.includes(text)) range = at(used.line, used.character + used.value.indexOf(text), text.length);
    else range = at(line, from[1].length, from[2].length);
    facts.flinkVersions.push({ minor: version.minor, full: version.full, source: "image", location: { file, range } });
  }
  return facts;
}

function at(line: number, character: number, length: number): Range {
  return { start: { line, character }, end: { line, character: character + length } };
}

/** Substitutes `$NAME`, `${NAME}` and `${NAME:-default}` and reads the Flink version of the image. */
function fromImage(image: string, args: Map<string, ArgDefault>) {
  let used: ArgDefault | undefined;
  const resolved = image.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (_, a, d, b) => {
      const def = args.get(a ?? b);
      if (!def) return d ?? "";
      used = def;
      return def.value;
    },
  );
  const version = flinkImageVersion(resolved);
  return version && { version, resolved, used };
}
