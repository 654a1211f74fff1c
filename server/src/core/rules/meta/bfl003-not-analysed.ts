import type { Rule } from "../types";

const CASTS = `${"((Object) ".repeat(5)}value${")".repeat(5)}`;

export const rule: Rule = {
  meta: {
    code: "BFL003",
    name: "not-analysed",
    family: "meta",
    severity: "info",
    description: "A part of a file the product recognises but could not analyse, so nothing in it is checked.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports, at its name, a part of a file that was recognised but could not be analysed: a Java method or field of job code that the Java parser cannot read (a syntax error, often code being typed), that nests brackets more than 100 levels deep, or that has a shape the parser takes exponential time on (casts or assignments in parentheses nested more than four deep, long `a = b = …` chains); a file that is not UTF-8 (a UTF-16 file is not analysed at all; in a file with a few bytes that are not UTF-8, the place of the first one, and `--fix` leaves such a file alone); a FlinkDeployment, a Flink ConfigMap or a JobManager or TaskManager workload in a Helm chart template that is not valid YAML even with its `{{ … }}` actions set aside (at its `kind`, with the parser's words in the details).",
      whyItMatters:
        "Without a note, a part that could not be read looks like a part without problems: a Kafka read in a method the parser gave up on would never be checked for offset commits. The note says where the checks stopped, so that a clean report means what it says.",
      bad: {
        "build.gradle": "dependencies { implementation 'org.apache.flink:flink-streaming-java:1.19.1' }\n",
        "src/main/java/Job.java": `import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;\n\nclass Job {\n  static Object unwrap(Object value) {\n    return ${CASTS};\n  }\n\n  public static void main(String[] args) throws Exception {\n    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();\n    env.enableCheckpointing(60_000);\n  }\n}\n`,
      },
      good: {
        "build.gradle": "dependencies { implementation 'org.apache.flink:flink-streaming-java:1.19.1' }\n",
        "src/main/java/Job.java":
          "import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;\n\nclass Job {\n  static Object unwrap(Object value) {\n    return value;\n  }\n\n  public static void main(String[] args) throws Exception {\n    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();\n    env.enableCheckpointing(60_000);\n  }\n}\n",
      },
      whenNotToFire:
        "Java files that mention none of the Kafka, Beam or DataStream APIs the rules check are not parsed at all, so they get no note. Hand-written code does not nest this deeply; the limits are well below where the parser runs out of stack or time, so that such a member gets a note instead of stalling or crashing the analysis. Documents of a Helm template that hold no Flink part (a Service, an Ingress) get no note when they do not parse, and a template that parses once its actions are set aside (quotes, colons and `}}` inside an action included) is analysed. Files over the size limit get a note of their own (the editor's information message, the command line's `not read`). Open documents are analysed as the editor decoded them, so the encoding note comes from files read from disk.",
      references: [
        "java-parser (the Java grammar used here): recursive descent with unbounded lookahead",
        "YAML 1.2, section 5.2 (character encodings: UTF-8, UTF-16 and UTF-32 are allowed; tools differ in what they read)",
      ],
    },
  },
  check(ctx) {
    for (const file of ctx.project.files) {
      for (const part of file.notAnalysed ?? []) {
        ctx.report({ file: file.file, range: part.range, message: part.message, details: part.details });
      }
    }
  },
};
