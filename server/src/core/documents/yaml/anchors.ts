/**
 * YAML anchors (`&name`) a deletion would take away from their aliases (`*name`): deleting `kubernetes.namespace:
 * &ns streaming` while `namespace: *ns` stays leaves an alias to nothing, and the manifest no longer loads.
 *
 * Read from the text: an anchor or alias is `&` or `*` where a node may start (after a blank, `[`, `{` or `,`), then
 * a name. Text in a quoted string that looks like one counts too, which can only make a fix unsafe, never unsafe
 * look safe.
 */
import { LineIndex, type Range } from "../../text";

const ANCHOR = /(?:^|[\s[{,])&([^\s[\]{},]+)/g;

function aliasPattern(name: string): RegExp {
  return new RegExp(`(?:^|[\\s[{,])\\*${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=$|[\\s\\]},])`, "g");
}

/** The anchors defined inside `range` of `text` that an alias outside it uses. */
export function anchorsUsedOutside(text: string, range: Range, index = new LineIndex(text)): string[] {
  const start = index.offsetAt(range.start);
  const end = index.offsetAt(range.end);
  const inside = text.slice(start, end);
  if (!inside.includes("&")) return [];
  const used: string[] = [];
  for (const m of inside.matchAll(ANCHOR)) {
    const name = m[1];
    const outside = text.slice(0, start) + " ".repeat(end - start) + text.slice(end);
    if (aliasPattern(name).test(outside) && !used.includes(name)) used.push(name);
  }
  return used;
}
