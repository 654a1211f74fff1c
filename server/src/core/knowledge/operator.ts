/**
 * What the Flink Kubernetes Operator's validator rejects, per operator release (operator-validation.json). Versions
 * compare in Maven order; an unknown operator version gets undefined answers, and the rules then say which
 * releases do what instead of deciding.
 */

import { inVersionRange } from "./mavenVersion";
import data from "./operator-validation.json";

export interface ForbiddenKey {
  key: string;
  /** The first operator release that rejects the key. */
  since: string;
  /** What the operator sets the key from. */
  takenFrom: string;
}

export interface LastStateHaCheck {
  since: string;
  removedIn: string;
  /** `kubernetes`: only Kubernetes HA satisfies the check; `any`: Kubernetes, ZooKeeper or a factory class. */
  ha: "kubernetes" | "any";
  /** The validator's message. */
  message: string;
}

export interface SavepointDirCheck {
  /** `savepointTriggerNonce` (spec.job) or an operator configuration key. */
  trigger: string;
  since: string;
  message: string;
}

export const FORBIDDEN_KEYS: readonly ForbiddenKey[] = data.forbiddenKeys;
export const LAST_STATE_HA_CHECKS: readonly LastStateHaCheck[] = data.lastStateNeedsHa as LastStateHaCheck[];
export const SAVEPOINT_DIR_CHECKS: readonly SavepointDirCheck[] = data.savepointDirRequired;
/** The newest operator release whose validator was read. */
export const OPERATOR_CHECKED_UP_TO: string = data.checkedUpTo;

/** Whether operator `version` (undefined = not known) rejects the key; undefined when the version decides. */
export function rejectsKey(key: ForbiddenKey, version: string | undefined): boolean | undefined {
  if (version === undefined) return key.since === "1.0.0" ? true : undefined;
  return inVersionRange(version, { introduced: key.since });
}

/** The last-state HA check of operator `version`; undefined when that release has none (or the version is unknown). */
export function lastStateHaCheck(version: string): LastStateHaCheck | undefined {
  return LAST_STATE_HA_CHECKS.find((c) => inVersionRange(version, { introduced: c.since, fixed: c.removedIn }));
}

/** Whether operator `version` (undefined = not known) has the check. */
export function hasSavepointDirCheck(check: SavepointDirCheck, version: string | undefined): boolean {
  return version === undefined || inVersionRange(version, { introduced: check.since });
}
