/** Build files shared by the Beam rules' documented examples: a Gradle job on the Flink runner. */
import type { ExampleFiles } from "../types";

export const FLINK_BUILD = `plugins {
    id 'java'
    id 'application'
}

dependencies {
    implementation "org.apache.beam:beam-sdks-java-core:2.64.0"
    implementation "org.apache.beam:beam-sdks-java-io-kafka:2.64.0"
    runtimeOnly "org.apache.beam:beam-runners-flink-1.18:2.64.0"
}
`;

export const MAIN_FILE = "src/main/java/com/example/OrdersPipeline.java";

/** An example project: the Flink build and one job class. */
export function flinkJob(java: string, extra: ExampleFiles = {}): ExampleFiles {
  return { "build.gradle": FLINK_BUILD, [MAIN_FILE]: java, ...extra };
}
