package com.example.orders;

import java.util.Map;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Reads orders from Kafka, normalises them and writes them to the enriched-orders topic. */
public class OrdersEnrichmentPipeline {
  public static void main(String[] args) {
    FlinkPipelineOptions options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setStreaming(true);
    options.setCheckpointingInterval(60_000L);

    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply(
            "ReadOrders",
            KafkaIO.<String, String>read()
                .withBootstrapServers("kafka:9092")
                .withTopic("orders")
                .withKeyDeserializer(StringDeserializer.class)
                .withValueDeserializer(StringDeserializer.class)
                .withConsumerConfigUpdates(Map.of("group.id", "orders-enrichment"))
                .commitOffsetsInFinalize()
                .withoutMetadata())
        .apply(Values.create())
        .apply("Normalise", MapElements.into(TypeDescriptors.strings()).via(String::trim))
        .apply(
            "WriteEnriched",
            KafkaIO.<Void, String>write()
                .withBootstrapServers("kafka:9092")
                .withTopic("enriched-orders")
                .withValueSerializer(StringSerializer.class)
                .values());
    pipeline.run();
  }
}
