package com.example.clicks

import java.util.Properties

import org.apache.flink.api.common.serialization.SimpleStringSchema
import org.apache.flink.streaming.api.scala._
import org.apache.flink.streaming.connectors.kafka.FlinkKafkaConsumer

/** Counts page views per page from the `clicks` topic and prints the running totals. */
object ClickCounts {
  def main(args: Array[String]): Unit = {
    val env = StreamExecutionEnvironment.getExecutionEnvironment

    val props = new Properties()
    props.setProperty("bootstrap.servers", "kafka:9092")
    props.setProperty("group.id", "click-counts")

    val clicks = env
      .addSource(new FlinkKafkaConsumer[String]("clicks", new SimpleStringSchema(), props))
      .setParallelism(8)

    clicks
      .flatMap(line => line.split(",").headOption)
      .setParallelism(1)
      .map(page => (page, 1))
      .keyBy(_._1)
      .sum(1)
      .print()

    env.execute("click-counts")
  }
}
