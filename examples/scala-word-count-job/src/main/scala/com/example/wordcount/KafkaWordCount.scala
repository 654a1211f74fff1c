package com.example.wordcount

import java.util.Properties

import org.apache.flink.api.common.serialization.SimpleStringSchema
import org.apache.flink.streaming.api.scala._
import org.apache.flink.streaming.connectors.kafka.FlinkKafkaConsumer

/** Counts the words of the lines on the `lines` topic and prints the running counts. */
object KafkaWordCount {
  def main(args: Array[String]): Unit = {
    val env = StreamExecutionEnvironment.getExecutionEnvironment
    env.setParallelism(4)

    val props = new Properties()
    props.setProperty("bootstrap.servers", "kafka:9092")
    props.setProperty("group.id", "word-count")

    val lines = env.addSource(new FlinkKafkaConsumer[String]("lines", new SimpleStringSchema(), props))

    lines
      .flatMap(_.toLowerCase.split("\\W+"))
      .setParallelism(1)
      .filter(_.nonEmpty)
      .map((_, 1))
      .keyBy(_._1)
      .sum(1)
      .print()

    env.execute("kafka-word-count")
  }
}
