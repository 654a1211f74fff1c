/** Kotlin job code: the Java APIs of Flink and Beam called from Kotlin (property syntax, scope functions). */
import type { LanguageReader } from "../code/treeSitterReader";
import { lowerKotlin } from "./lower";

export const kotlinReader: LanguageReader = {
  language: "kotlin",
  relevant:
    /ConsumerConfig|ProducerConfig|CommonClientConfigs|group\.id|bootstrap\.servers|enable\.auto\.commit|auto\.offset\.reset|KafkaIO|KafkaSource|KafkaSink|FlinkKafkaConsumer|FlinkKafkaProducer|StreamExecutionEnvironment|FlinkPipelineOptions|PipelineOptionsFactory|Pipeline\.create|setCheckpointingInterval|enableCheckpointing|checkpointingInterval|checkpointInterval|executeSql|sqlQuery|commitOffsetsInFinalize|PubsubIO|use_deprecated_read|TableDescriptor|execution\.checkpointing\.|CHECKPOINTING_INTERVAL|state\.checkpoints\.dir|CHECKPOINTS_DIRECTORY/,
  callsBeamJava: true,
  lower: lowerKotlin,
};
