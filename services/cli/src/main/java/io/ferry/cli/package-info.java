/** The {@code ferry} command: picocli's entry point and the commands' shared context. */
package io.ferry.cli;
