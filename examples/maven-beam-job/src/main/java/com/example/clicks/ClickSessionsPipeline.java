package com.example.clicks;

import java.util.Map;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.joda.time.Duration;

/** Counts clicks per user session and publishes the counts. */
public class ClickSessionsPipeline {
  public static void main(String[] args) {
    FlinkPipelineOptions options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(FlinkPipelineOptions.class);
    options.setStreaming(true);
    options.setCheckpointingInterval(30_000L);

    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply(
            "ReadClicks",
            KafkaIO.<String, String>read()
                .withBootstrapServers("kafka:9092")
                .withTopic("clicks")
                .withKeyDeserializer(StringDeserializer.class)
                .withValueDeserializer(StringDeserializer.class)
                .withConsumerConfigUpdates(Map.of("group.id", "click-sessions"))
                .commitOffsetsInFinalize()
                .withoutMetadata())
        .apply(Window.into(Sessions.withGapDuration(Duration.standardMinutes(30))))
        .apply(Count.perKey())
        .apply(
            "WriteCounts",
            KafkaIO.<String, Long>write()
                .withBootstrapServers("kafka:9092")
                .withTopic("click-sessions")
                .withKeySerializer(StringSerializer.class)
                .withValueSerializer(LongSerializer.class));
    pipeline.run();
  }
}
