/** Path arithmetic on the core's `/`-separated absolute paths (the core has no `path` module). */

/** `dir` joined with a relative path (`./conf`, `../shared/flink-conf.yaml`), `.` and `..` resolved. */
export function resolvePath(dir: string, relative: string): string {
  const parts = relative.startsWith("/") ? [] : dir.split("/").filter(Boolean);
  for (const part of relative.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

export function folderOf(file: string): string {
  const i = file.lastIndexOf("/");
  return i <= 0 ? "/" : file.slice(0, i);
}

/** Whether `file` is `path` or lies below it. */
export function isAtOrUnder(file: string, path: string): boolean {
  return file === path || file.startsWith(path.endsWith("/") ? path : `${path}/`);
}

/** How many leading folders two files have in common (`/a/b/x.yaml` and `/a/c/y.yaml`: 2, counting the root). */
export function sharedFolders(a: string, b: string): number {
  const x = a.split("/").slice(0, -1);
  const y = b.split("/").slice(0, -1);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}
