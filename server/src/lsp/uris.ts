/**
 * The core names files by absolute `/`-separated paths; the protocol by URIs. Only `file:` URIs map to paths:
 * untitled buffers and other schemes have no project to belong to.
 */
import { fileURLToPath, pathToFileURL } from "node:url";

export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri).split("\\").join("/");
  } catch {
    return undefined;
  }
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}
