name := "kafka-word-count"
scalaVersion := "2.12.19"

val flinkVersion = "1.17.2"

libraryDependencies ++= Seq(
  "org.apache.flink" %% "flink-streaming-scala" % flinkVersion % Provided,
  "org.apache.flink" % "flink-connector-kafka" % flinkVersion
)
