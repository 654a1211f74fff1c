/**
 * `target.push(...items)` passes every item as an argument, and V8 refuses a call with more than about a hundred
 * thousand arguments ("Maximum call stack size exceeded"): a 130,000-line file makes that many findings. This
 * appends one by one.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/**
 * Appends `value` to the list `map` keeps under `key`, creating it. `map.set(k, [...(map.get(k) ?? []), v])` copies
 * the list on every call, which is quadratic when one key collects many values (30,000 duplicate keys).
 */
export function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
