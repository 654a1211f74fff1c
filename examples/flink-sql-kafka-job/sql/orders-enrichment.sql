-- Kafka-to-Kafka SQL job: enriches orders with their customer and writes them exactly-once.
-- Run with: sql-client.sh -f orders-enrichment.sql

SET 'pipeline.name' = 'orders-enrichment';
SET 'execution.checkpointing.prefer-checkpoint-for-recovery' = 'true';
SET 'table.exec.state.ttl' = '86400000';

CREATE TABLE orders (
  order_id STRING,
  customer_id STRING,
  amount DECIMAL(10, 2),
  order_time TIMESTAMP(3),
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders',
  'properties.bootstrap.servers' = 'kafka:9092',
  'scan.startup.mode' = 'group-offsets',
  'properties.auto.offset.reset' = 'earliest',
  'format' = 'json'
);

CREATE TABLE customers (
  customer_id STRING,
  name STRING,
  PRIMARY KEY (customer_id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'customers',
  'properties.bootstrap.servers' = 'kafka:9092',
  'key.format' = 'json',
  'value.format' = 'json'
);

CREATE TABLE enriched_orders (
  order_id STRING,
  customer_name STRING,
  amount DECIMAL(10, 2)
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders-enriched',
  'properties.bootstrap.servers' = 'kafka:9092',
  'format' = 'json',
  'sink.semantic' = 'exactly-once'
);

INSERT INTO enriched_orders
SELECT o.order_id, c.name, o.amount
FROM orders AS o
JOIN customers AS c ON o.customer_id = c.customer_id;
