package com.example.clicks;

import java.util.HashMap;
import java.util.Map;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.joda.time.Duration;

/** Counts clicks and impressions per user in one-minute windows. */
public class ClickSessionsPipeline {
  private static final String BOOTSTRAP = "kafka.streaming.svc:9092";

  /** Consumer settings shared with the team's other Kafka consumers, read from a properties file originally. */
  static Map<String, Object> clickConsumer() {
    Map<String, Object> config = new HashMap<>();
    config.put("group.id", "click-sessions");
    config.put("enable.auto.commit", "true");
    config.put("auto.offset.reset", "latest");
    return config;
  }

  public static void main(String[] args) {
    FlinkPipelineOptions options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(FlinkPipelineOptions.class);
    options.setStreaming(true);

    Pipeline pipeline = Pipeline.create(options);

    PCollection<KV<String, String>> clicks =
        pipeline.apply(
            "ReadClicks",
            KafkaIO.<String, String>read()
                .withBootstrapServers(BOOTSTRAP)
                .withTopic("clicks")
                .withKeyDeserializer(StringDeserializer.class)
                .withValueDeserializer(StringDeserializer.class)
                .withConsumerConfigUpdates(clickConsumer())
                .commitOffsetsInFinalize()
                .withoutMetadata());

    PCollection<KV<String, String>> impressions =
        pipeline.apply(
            "ReadImpressions",
            KafkaIO.<String, String>read()
                .withBootstrapServers(BOOTSTRAP)
                .withTopic("impressions")
                .withKeyDeserializer(StringDeserializer.class)
                .withValueDeserializer(StringDeserializer.class)
                .withoutMetadata());

    PCollectionList.of(clicks)
        .and(impressions)
        .apply(Flatten.pCollections())
        .apply(Window.into(FixedWindows.of(Duration.standardMinutes(1))))
        .apply(Count.perKey());

    pipeline.run();
  }
}
