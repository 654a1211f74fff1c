/** The connectors Flink released for one Kafka version, and the Flink release that dropped each. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { kafkaVersionConnector } from "../../server/src/core/knowledge/kafkaConnector";

test("a legacy client's Kafka version suffix names its connector and the Flink release without it", () => {
  const of = (name: string) => {
    const c = kafkaVersionConnector(name);
    return c && [c.kafka, c.artifact, c.removedIn, c.issue];
  };
  assert.deepEqual(of("FlinkKafkaConsumer08"), ["0.8", "flink-connector-kafka-0.8", "1.11", "FLINK-15115"]);
  assert.deepEqual(of("FlinkKafkaProducer09"), ["0.9", "flink-connector-kafka-0.9", "1.11", "FLINK-15115"]);
  assert.deepEqual(of("FlinkKafkaConsumer010"), ["0.10", "flink-connector-kafka-0.10", "1.12", "FLINK-19152"]);
  assert.deepEqual(of("FlinkKafkaProducer011"), ["0.11", "flink-connector-kafka-0.11", "1.12", "FLINK-19152"]);
  // The universal connector's classes and unknown suffixes are not a Kafka-version connector.
  for (const name of ["FlinkKafkaConsumer", "FlinkKafkaProducer", "FlinkKafkaConsumerBase", "FlinkKafkaConsumer012"])
    assert.equal(kafkaVersionConnector(name), undefined, name);
});
