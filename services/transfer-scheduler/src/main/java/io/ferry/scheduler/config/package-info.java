/** The scheduler's settings ({@code @ConfigMapping}). */
package io.ferry.scheduler.config;
