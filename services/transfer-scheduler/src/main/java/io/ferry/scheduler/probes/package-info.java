/** Link probes (SONAR's periodic test transfers): their settings, runs, where their files go, and {@code /probes}. */
package io.ferry.scheduler.probes;
