package com.example.fraud;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;

/** Reads card transactions from Kafka, flags suspicious ones and writes alerts back to Kafka. */
public class CardAlertsJob {

  private static final String BROKERS = "kafka.payments.svc:9092";

  public static void main(String[] args) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();

    KafkaSource<String> transactions = KafkaSource.<String>builder()
        .setBootstrapServers(BROKERS)
        .setTopics("card-transactions")
        .setGroupId("card-alerts")
        .setStartingOffsets(OffsetsInitializer.committedOffsets())
        .setValueOnlyDeserializer(new SimpleStringSchema())
        .build();

    KafkaSink<String> alerts = KafkaSink.<String>builder()
        .setBootstrapServers(BROKERS)
        .setRecordSerializer(KafkaRecordSerializationSchema.builder()
            .setTopic("card-alerts")
            .setValueSerializationSchema(new SimpleStringSchema())
            .build())
        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
        .build();

    DataStream<String> raw = env
        .fromSource(transactions, WatermarkStrategy.noWatermarks(), "card-transactions")
        .setParallelism(8);

    raw.flatMap(new FlagSuspicious())
        .setParallelism(1)
        .sinkTo(alerts);

    env.execute("card-alerts");
  }

  /** Emits an alert for every transaction above the review threshold. */
  static class FlagSuspicious implements FlatMapFunction<String, String> {
    private static final double THRESHOLD = 5_000.0;

    @Override
    public void flatMap(String line, Collector<String> out) {
      String[] fields = line.split(",");
      if (fields.length == 3 && Double.parseDouble(fields[2]) > THRESHOLD) {
        out.collect("review:" + fields[0] + ":" + fields[1]);
      }
    }
  }
}
