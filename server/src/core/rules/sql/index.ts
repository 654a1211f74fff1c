import type { Rule } from "../types";
import { rule as bfl601 } from "./bfl601-unknown-connector-option";
import { rule as bfl602 } from "./bfl602-sql-group-offsets-without-group-id";
import { rule as bfl603 } from "./bfl603-sql-offsets-never-committed";
import { rule as bfl604 } from "./bfl604-sql-exactly-once-sink-misconfigured";
import { rule as bfl605 } from "./bfl605-sql-auto-commit-with-checkpoint-commit";
import { rule as bfl606 } from "./bfl606-sql-latest-offset-restart-gap";

export const SQL_RULES: readonly Rule[] = [bfl601, bfl602, bfl603, bfl604, bfl605, bfl606];
