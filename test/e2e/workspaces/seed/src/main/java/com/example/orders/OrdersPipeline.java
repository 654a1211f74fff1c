package com.example.orders;

import java.util.Map;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads orders from Kafka on the Flink runner. */
public class OrdersPipeline {
  public static void main(String[] args) {
    FlinkPipelineOptions options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(FlinkPipelineOptions.class);
    options.setStreaming(true);

    Pipeline pipeline = Pipeline.create(options);
    pipeline.apply(
        "ReadOrders",
        KafkaIO.<String, String>read()
            .withBootstrapServers("kafka:9092")
            .withTopic("orders")
            .withKeyDeserializer(StringDeserializer.class)
            .withValueDeserializer(StringDeserializer.class)
            .withConsumerConfigUpdates(Map.of("group.id", "orders", "enable.auto.commit", "true"))
            .commitOffsetsInFinalize()
            .withoutMetadata());
    pipeline.run();
  }
}
