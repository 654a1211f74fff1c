/** Scala job code: the Flink Scala API and the Java APIs (Flink, Beam) called from Scala 2 and Scala 3. */
import type { LanguageReader } from "../code/treeSitterReader";
import { lowerScala } from "./lower";

export const scalaReader: LanguageReader = {
  language: "scala",
  relevant:
    /ConsumerConfig|ProducerConfig|CommonClientConfigs|group\.id|bootstrap\.servers|enable\.auto\.commit|auto\.offset\.reset|KafkaIO|KafkaSource|KafkaSink|FlinkKafkaConsumer|FlinkKafkaProducer|StreamExecutionEnvironment|FlinkPipelineOptions|PipelineOptionsFactory|Pipeline\.create|setCheckpointingInterval|enableCheckpointing|checkpointingInterval|executeSql|sqlQuery|commitOffsetsInFinalize|PubsubIO|use_deprecated_read|TableDescriptor|execution\.checkpointing\.|CHECKPOINTING_INTERVAL|state\.checkpoints\.dir|CHECKPOINTS_DIRECTORY/,
  callsBeamJava: true,
  lower: lowerScala,
};
