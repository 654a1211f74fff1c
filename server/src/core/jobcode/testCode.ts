/**
 * Which source files are test code. Tests run jobs on mini clusters, embedded Kafka or the DirectRunner for a few
 * seconds: their checkpointing, parallelism and consumer settings say nothing about what runs in production.
 */
import type { CodeLanguage } from "./facts";

/** Test source folders of Maven, Gradle and sbt builds (`src/test/scala`, `src/it/java`, `src/integrationTest/…`). */
const TEST_FOLDER = /(^|\/)src\/(test|it|integrationTest|intTest|functionalTest|testFixtures)\//;

/** Python test layouts: a `tests/` or `test/` package, `test_*.py`, `*_test.py`, `conftest.py`. */
const PYTHON_TEST = /(^|\/)(tests?\/|test_[^/]*\.py$|[^/]*_test\.py$|conftest\.py$)/;

/** JVM test classes outside test folders (scripts, single-module layouts): `OrdersJobTest.java`, `OrdersIT.scala`. */
const JVM_TEST_CLASS = /(^|\/)[A-Z]\w*(Test|Tests|IT)\.(java|scala|kt)$/;

/**
 * The production source folder of Maven, Gradle and sbt builds: what is there is packaged into the job's jar
 * whatever its name (`src/main/scala/…/SourceKafkaTest.scala` is a job).
 */
const MAIN_FOLDER = /(^|\/)src\/main\//;

export function isTestFile(file: string, language: CodeLanguage): boolean {
  if (TEST_FOLDER.test(file)) return true;
  if (language === "python") return PYTHON_TEST.test(file);
  return JVM_TEST_CLASS.test(file) && !MAIN_FOLDER.test(file);
}
