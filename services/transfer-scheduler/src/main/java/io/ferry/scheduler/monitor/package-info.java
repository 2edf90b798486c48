/** The web monitor's aggregates ({@code /monitor/}): the overview per link and VO, failures, and the probes' series. */
package io.ferry.scheduler.monitor;
