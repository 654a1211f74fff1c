import type { Rule } from "../types";
import { rule as bfl201 } from "./bfl201-operator-managed-key";
import { rule as bfl202 } from "./bfl202-upgrade-mode-needs-storage";
import { rule as bfl203 } from "./bfl203-replicas-override-parallelism";
import { rule as bfl204 } from "./bfl204-standby-jobmanager-without-ha";
import { rule as bfl205 } from "./bfl205-last-state-without-ha";
import { rule as bfl206 } from "./bfl206-savepoint-dir-required";
import { rule as bfl207 } from "./bfl207-deployment-layers-disagree";

export const KUBERNETES_RULES: readonly Rule[] = [bfl201, bfl202, bfl203, bfl204, bfl205, bfl206, bfl207];
