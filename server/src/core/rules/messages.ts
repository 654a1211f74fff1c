/**
 * Finding messages are one sentence of at most MAX_MESSAGE characters saying what happens at run time; the rest
 * (why, versions, sources, how to fix) goes to the report's `details`. Keys and values in a message come from the
 * user's files and may be long, so a message with them has a shorter form to fall back on.
 */
export const MAX_MESSAGE = 120;

/** The first message that fits, else the last one (the shortest form). */
export function fitting(...forms: string[]): string {
  for (const m of forms) if (m.length <= MAX_MESSAGE) return m;
  return forms[forms.length - 1];
}
