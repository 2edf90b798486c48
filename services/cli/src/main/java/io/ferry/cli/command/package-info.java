/** The user commands, one class each (picocli subcommands). */
package io.ferry.cli.command;
