"""Reads orders from Kafka on a Flink cluster and writes the large ones to a log."""
import argparse
import logging

import apache_beam as beam
from apache_beam.io.kafka import ReadFromKafka
from apache_beam.options.pipeline_options import PipelineOptions

CONSUMER_CONFIG = {
    "bootstrap.servers": "kafka:9092",
    "auto.offset.reset": "earliest",
}


def run(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--min-amount", type=float, default=1000.0)
    known, _ = parser.parse_known_args(argv)
    options = PipelineOptions(
        [
            "--runner=FlinkRunner",
            "--flink_master=flink-jobmanager:8081",
            "--streaming",
            "--environment_type=LOOPBACK",
        ]
    )
    with beam.Pipeline(options=options) as p:
        (
            p
            | "Read orders" >> ReadFromKafka(
                consumer_config=CONSUMER_CONFIG,
                topics=["orders"],
                commit_offset_in_finalize=True,
            )
            | "Amounts" >> beam.Map(lambda kv: float(kv[1]))
            | "Large" >> beam.Filter(lambda amount: amount >= known.min_amount)
            | "Log" >> beam.Map(logging.info)
        )


if __name__ == "__main__":
    logging.getLogger().setLevel(logging.INFO)
    run()
