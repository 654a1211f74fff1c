/** Python job code: Beam Python pipelines (`ReadFromKafka`, pipeline options) and PyFlink DataStream jobs. */
import type { LanguageReader } from "../code/treeSitterReader";
import { lowerPython } from "./lower";

export const pythonReader: LanguageReader = {
  language: "python",
  relevant:
    /ReadFromKafka|group\.id|bootstrap\.servers|enable\.auto\.commit|auto\.offset\.reset|WriteToKafka|apache_beam|PipelineOptions|pyflink|KafkaSource|KafkaSink|FlinkKafkaConsumer|FlinkKafkaProducer|StreamExecutionEnvironment|enable_checkpointing|get_checkpoint_config|set_state_backend|checkpointing_interval|FlinkRunner|flink_master|flink_version|execute_sql|sql_query|TableDescriptor/,
  callsBeamJava: false,
  lower: lowerPython,
};
