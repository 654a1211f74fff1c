/**
 * `target.push(...items)` passes every item as an argument, and V8 refuses a call with more than about a hundred
 * thousand arguments ("Maximum call stack size exceeded"): a 130,000-line file makes that many findings. This
 * appends one by one.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
